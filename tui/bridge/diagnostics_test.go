package bridge_test

import (
	"strings"
	"testing"

	"github.com/scoutdev/scout/tui/bridge"
)

func TestDiagnosticsKeepsTheBackendsOwnLines(t *testing.T) {
	d := bridge.NewDiagnostics()
	for _, chunk := range []string{
		"scout backend: config.toml: line 1", ": not valid TOML\n",
		"panic: boom\ngoroutine 1 [running]:\n",
		"scout backend: catalog: refresh of a provider failed: rate_limited\n",
		"scout backend: project.files failed: boom\nscout backend: panic in session.open: boom\n",
		"scout backend: a \x1b[31mred\x1b[0m word\nscout backend: \n",
		"scout backend: " + strings.Repeat("x", 5000) + "\n",
	} {
		if n, err := d.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write: %d, %v", n, err)
		}
	}
	want := []string{"config.toml: line 1: not valid TOML", "a \ufffd[31mred\ufffd[0m word", strings.Repeat("x", 1024-len("scout backend: "))}
	for _, w := range want {
		if got := bridge.ListenDiagnostics(d)().(bridge.DiagnosticMsg).Text; got != w {
			t.Fatalf("diagnostic %q, want %q", got, w)
		}
	}
}

func TestDiagnosticsTellAnUnservedWorkspace(t *testing.T) {
	d := bridge.NewDiagnostics()
	stderr := "scout backend: the trusted .scout/config.toml is broken; not applied\n" +
		"scout backend: config.toml: files.respect: unknown key; serving an empty workspace until it is fixed\n"
	if _, err := d.Write([]byte(stderr)); err != nil {
		t.Fatal(err)
	}
	first := bridge.ListenDiagnostics(d)().(bridge.DiagnosticMsg)
	second := bridge.ListenDiagnostics(d)().(bridge.DiagnosticMsg)
	if first.Unserved || !second.Unserved {
		t.Fatalf("unserved: %v for %q, %v for %q", first.Unserved, first.Text, second.Unserved, second.Text)
	}
	if got := bridge.Unserved(stderr); got != "config.toml: files.respect: unknown key" {
		t.Fatalf("Unserved = %q", got)
	}
	if got := bridge.Unserved("scout backend: the trusted x is broken; not applied\npanic: x\n"); got != "" {
		t.Fatalf("Unserved of a served workspace = %q", got)
	}
}

// A diagnostic that asks for a file of the backend home to be fixed names
// it by its path; other diagnostics, and the project's own
// .scout/config.toml, are left as they are.
func TestDiagnosticsNameHomeFiles(t *testing.T) {
	d := bridge.NewDiagnostics()
	d.NameFilesIn("/h/scout")
	d.Write([]byte("scout backend: config.toml: line 3: not valid TOML; serving an empty workspace until it is fixed\n" +
		"scout backend: enabled.json is unsafe, unreadable or malformed; it is not applied\n" +
		"scout backend: the trusted .scout/config.toml: providers[1].id: unknown key; not applied\n" +
		"scout backend: config.tomlish\n"))
	for _, w := range []string{
		"/h/scout/config.toml: line 3: not valid TOML; serving an empty workspace until it is fixed",
		"/h/scout/enabled.json is unsafe, unreadable or malformed; it is not applied",
		"the trusted .scout/config.toml: providers[1].id: unknown key; not applied",
		"config.tomlish",
	} {
		if got := bridge.ListenDiagnostics(d)().(bridge.DiagnosticMsg).Text; got != w {
			t.Errorf("diagnostic %q, want %q", got, w)
		}
	}
}
