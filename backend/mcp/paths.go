package mcp

import (
	"errors"
	"strings"

	"github.com/scoutdev/scout/backend/fsguard"
)

// errNoSuchFile is the one answer for every path the policy does not show.
var errNoSuchFile = errors.New("no such file or directory")

// maxPathBytes bounds a path argument; no longer path can be opened anyway.
const maxPathBytes = 4096

// Clean normalizes a path argument to the workspace-relative form the
// policy resolves: "" for the root, otherwise components joined by "/".
// Empty and "." components are dropped, so "./src//main.go/" is
// "src/main.go". An absolute path, any ".." component, or a component that
// is not a safe name cannot name a visible entry: errNoSuchFile. ".." is
// refused even where it would stay inside the workspace ("a/../b"), because
// resolving it would mean trusting "a" without looking at it.
func Clean(p string) (string, error) {
	if strings.HasPrefix(p, "/") || len(p) > maxPathBytes {
		return "", errNoSuchFile
	}
	var comps []string
	for c := range strings.SplitSeq(p, "/") {
		switch {
		case c == "" || c == ".":
		case c == ".." || !fsguard.SafeName(c):
			return "", errNoSuchFile
		default:
			comps = append(comps, c)
		}
	}
	return strings.Join(comps, "/"), nil
}

// shown is a cleaned path as the tools echo it: "." for the root.
func shown(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}
