package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBackendLogIsAPrivateFileThatStartsOverPast1MiB(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	name := filepath.Join(state, "scout", "backend.log")
	w, done := backendLog()
	w.Write([]byte("first\n"))
	done()
	w, done = backendLog()
	w.Write([]byte("second\n"))
	done()
	b, err := os.ReadFile(name)
	if err != nil || string(b) != "first\nsecond\n" {
		t.Fatalf("log %q, %v: want both runs appended", b, err)
	}
	if st, _ := os.Stat(name); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
	if err := os.WriteFile(name, []byte(strings.Repeat("x", backendLogMax+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	w, done = backendLog()
	w.Write([]byte("fresh\n"))
	done()
	if b, _ := os.ReadFile(name); string(b) != "fresh\n" {
		t.Fatalf("a log past 1 MiB was not started over (%d bytes)", len(b))
	}
}
