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

// within returns the path, relative to root, of an absolute path p that
// lies lexically inside root (or is root), decided on the strings alone:
// empty and "." components are dropped from p as Clean drops them, and a
// ".." component anywhere makes p lie nowhere (as it does for Clean).
// root is an absolute, clean path. The result still goes through Clean.
func within(p, root string) (string, bool) {
	if !strings.HasPrefix(p, "/") || len(p) > len(root)+1+maxPathBytes {
		return "", false
	}
	rest := comps(p)
	for _, c := range comps(root) {
		if len(rest) == 0 || rest[0] != c {
			return "", false
		}
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return "", true
	}
	for _, c := range rest {
		if c == ".." {
			return "", false
		}
	}
	return strings.Join(rest, "/"), true
}

// comps are the components of p without empty and "." ones.
func comps(p string) []string {
	var out []string
	for c := range strings.SplitSeq(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// relative is a path argument as the policy resolves it (see Clean): a
// relative path, or an absolute one inside one of the spellings of the
// workspace root the server knows. The answer echoes only this relative
// path, never the root.
func (s *Server) relative(p string) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return Clean(p)
	}
	for _, root := range s.roots {
		if rel, ok := within(p, root); ok {
			return Clean(rel)
		}
	}
	return "", errNoSuchFile
}

// shown is a cleaned path as the tools echo it: "." for the root.
func shown(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}
