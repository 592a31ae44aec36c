// Package assets holds the data scout embeds in its binary: the fixtures of
// `scout demo` (demo/: the configuration, session histories and catalog
// caches of the demo's temporary home, as text/template files), the shell
// key bindings `scout shell` prints (shell/) and the example configuration
// `scout config --example` prints (config/).
package assets

import (
	"embed"
	"io/fs"
)

//go:embed demo shell config
var files embed.FS

// ExampleConfig is a commented example config.toml.
func ExampleConfig() []byte {
	b, err := files.ReadFile("config/config.example.toml")
	if err != nil {
		panic(err) // the file is embedded: it cannot be missing
	}
	return b
}

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
