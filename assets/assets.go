// Package assets holds the data scout embeds in its binary: the fixtures of
// `scout demo` (demo/: the configuration, session histories and catalog
// caches of the demo's temporary home, as text/template files) and the
// shell key bindings `scout shell` prints (shell/).
package assets

import (
	"embed"
	"io/fs"
)

//go:embed demo shell
var files embed.FS

// Demo is the demo's fixture tree: config.toml.tmpl, sessions/ and
// catalog/ (see package internal/demo for the template functions).
func Demo() fs.FS {
	sub, err := fs.Sub(files, "demo")
	if err != nil {
		panic(err) // the directory is embedded: it cannot be missing
	}
	return sub
}

// Shells are the shells `scout shell` has key bindings for.
var Shells = []string{"bash", "zsh", "fish"}

// Shell returns the key bindings script for shell (one of Shells).
func Shell(shell string) ([]byte, error) {
	return files.ReadFile("shell/scout." + shell)
}
