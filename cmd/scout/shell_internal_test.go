package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/scouttest"
)

func TestScriptsNameTheBinaryQuoted(t *testing.T) {
	t.Parallel()
	bin := `/opt/it's a "dir"/back\slash $HOME/scout`
	show := map[string]string{"bash": `printf %s "$__scout_bin"`, "zsh": `printf %s "$__scout_bin"`, "fish": `printf %s $__scout_bin`}
	for shell, print := range show {
		t.Run(shell, func(t *testing.T) {
			scouttest.NeedCommand(t, shell)
			script, err := shellScript(shell, bin)
			if err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(shell, "-c", string(script)+"\n"+print).Output()
			if err != nil || string(out) != bin {
				t.Fatalf("the script runs %q (%v), want %q", out, err, bin)
			}
		})
	}
}

func TestGoRunBuildsRunTheScoutOnPATH(t *testing.T) {
	t.Parallel()
	for exe, temporary := range map[string]bool{
		"/tmp/go-build2931/b001/exe/scout":       true,
		"/var/folders/x/T/go-build77/b001/exe/s": true,
		"/home/me/go/bin/scout":                  false,
		"/usr/local/bin/scout":                   false,
		"/home/me/go-builder/scout":              false,
		"/home/me/go-build/scout":                false,
		// Go 1.24 and later keep `go run` builds in the build cache.
		"/home/me/.cache/go-build/e6/e66b5ce9" + strings.Repeat("0", 56) + "-d/scout": true,
		"/home/me/.cache/go-build/e7/e66b5ce9" + strings.Repeat("0", 56) + "-d/scout": false,
		"/home/me/bin/e6/e66b5ce9" + strings.Repeat("0", 55) + "-d/scout":             false,
		"/home/me/bin/e6/e66b5ce9" + strings.Repeat("0", 56) + "/scout":               false,
	} {
		if got := isGoRunBuild(exe); got != temporary {
			t.Errorf("isGoRunBuild(%q) = %v", exe, got)
		}
	}
}
