// Package assets holds the data scout embeds in its binary: the fixtures of
// `scout demo` (demo/: the configuration, session histories and catalog
// caches of the demo's temporary home, as text/template files).
package assets

import (
	"embed"
	"io/fs"
)

//go:embed demo
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
