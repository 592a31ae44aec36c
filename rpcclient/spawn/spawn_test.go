package spawn

import (
	"bytes"
	"io"
	"strings"
	"syscall"
	"testing"
)

// TestStartPipesAndGroup: the child reads its stdin, writes its stdout and
// stderr where they go (all of it in by the time Stop has waited for
// the child), runs in its own process group, and Stop ends it.
func TestStartPipesAndGroup(t *testing.T) {
	t.Parallel()
	var errs bytes.Buffer
	p, err := Start("/bin/sh", []string{"-c", `read line; echo "err:$line" >&2; echo "out:$line"; sleep 60`}, t.TempDir(), []string{"PATH=/usr/bin:/bin"}, &errs)
	if err != nil {
		t.Fatal(err)
	}
	pgid, err := syscall.Getpgid(p.Cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if pgid != p.Cmd.Process.Pid {
		t.Errorf("the child's process group is %d, want its own (%d)", pgid, p.Cmd.Process.Pid)
	}
	if _, err := io.WriteString(p.Stdin, "hello\n"); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len("out:hello\n"))
	if _, err := io.ReadFull(p.Stdout, got); err != nil || string(got) != "out:hello\n" {
		t.Fatalf("stdout %q (%v)", got, err)
	}
	p.Stop()
	if !strings.Contains(errs.String(), "err:hello") {
		t.Errorf("stderr %q, want the child's line", errs.String())
	}
	if err := syscall.Kill(p.Cmd.Process.Pid, 0); err == nil {
		t.Error("the child outlived Stop")
	}
}

// TestStartSaysWhyNot: a program that cannot be run is a plain error.
func TestStartSaysWhyNot(t *testing.T) {
	t.Parallel()
	_, err := Start(t.TempDir()+"/none", nil, "", nil, io.Discard)
	if err == nil || !strings.HasPrefix(err.Error(), "cannot start the scout backend: ") {
		t.Fatalf("err = %v", err)
	}
}

// TestRelayKeepsThenForwards: what is written before Attach is written
// there first, in order, and what comes after goes straight there; a
// second Attach changes nothing.
func TestRelayKeepsThenForwards(t *testing.T) {
	t.Parallel()
	var r Relay
	r.Write([]byte("one\n"))
	r.Write([]byte("two\n"))
	var first, second bytes.Buffer
	r.Attach(&first)
	r.Write([]byte("three\n"))
	r.Attach(&second)
	r.Write([]byte("four\n"))
	if got := first.String(); got != "one\ntwo\nthree\nfour\n" {
		t.Errorf("attached writer got %q", got)
	}
	if second.Len() != 0 {
		t.Errorf("the second Attach got %q", second.String())
	}
}

// TestRelayBound: before Attach, a Relay keeps at most relayHeld bytes
// (the first ones) and still reports every write whole, so a child's
// stderr copier never stops.
func TestRelayBound(t *testing.T) {
	t.Parallel()
	var r Relay
	chunk := bytes.Repeat([]byte("x"), 1000)
	for i := 0; i < relayHeld/1000+10; i++ {
		if n, err := r.Write(chunk); n != len(chunk) || err != nil {
			t.Fatalf("write %d: %d, %v", i, n, err)
		}
	}
	var out bytes.Buffer
	r.Attach(&out)
	if out.Len() != relayHeld {
		t.Fatalf("kept %d bytes, want %d", out.Len(), relayHeld)
	}
}
