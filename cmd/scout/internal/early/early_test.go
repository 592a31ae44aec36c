package early

import "testing"

// TestPicker: only a command line that opens the Files picker with
// nothing else said starts the backend early.
func TestPicker(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"files"}, true},
		{[]string{"files", "--multi"}, false},
		{[]string{"--height", "40%"}, false},
		{[]string{"-q", "x"}, false},
		{[]string{"sessions"}, false},
		{[]string{"backend"}, false},
		{[]string{"filter", ""}, false},
		{[]string{"--help"}, false},
		{[]string{"version"}, false},
		{[]string{"-test.run", "x"}, false},
	} {
		if got := picker(c.args); got != c.want {
			t.Errorf("picker(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

// TestTakeWithoutAChild: in a process that started none (a test binary's
// command line is not the picker's), Take has nothing to give.
func TestTakeWithoutAChild(t *testing.T) {
	if p := Take(nil); p != nil {
		t.Fatalf("Take = %v, want nil", p)
	}
}
