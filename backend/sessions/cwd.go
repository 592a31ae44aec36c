package sessions

import (
	"path/filepath"
	"strings"
)

// maxCwdCache bounds the canonical-cwd cache of one scan; it is cleared when
// full, so a store with many distinct directories costs a few more lookups,
// never more memory.
const maxCwdCache = 256

// cwdMatcher decides whether a recorded cwd names the workspace. Both sides
// are canonical: symlinks resolved with filepath.EvalSymlinks (a cwd that no
// longer exists is compared cleaned, as written). Results are cached per
// distinct cwd string for the life of one scan or one request, so a symlink
// changed meanwhile is seen by the next scan.
type cwdMatcher struct {
	root      string // the workspace root, canonical
	workspace string // the workspace root as the process saw it, cleaned
	cache     map[string]cwdPlace
}

// cwdPlace is where a recorded cwd lies relative to the workspace root.
type cwdPlace uint8

const (
	placeOutside cwdPlace = iota
	placeRoot             // the root itself
	placeInside           // a directory below the root
)

func newCwdMatcher(workspace string) *cwdMatcher {
	return &cwdMatcher{root: canonical(workspace), workspace: filepath.Clean(workspace), cache: map[string]cwdPlace{}}
}

// matches reports whether cwd, an absolute path, is the workspace root.
// A relative or over-long cwd never matches.
func (m *cwdMatcher) matches(cwd []byte) bool { return m.place(cwd) == placeRoot }

// within reports whether cwd is the workspace root or lies below it.
func (m *cwdMatcher) within(cwd []byte) bool { return m.place(cwd) != placeOutside }

func (m *cwdMatcher) place(cwd []byte) cwdPlace {
	if len(cwd) > maxCwdBytes || len(cwd) == 0 || cwd[0] != '/' {
		return placeOutside
	}
	if p, hit := m.cache[string(cwd)]; hit {
		return p
	}
	if len(m.cache) >= maxCwdCache {
		clear(m.cache)
	}
	s := string(cwd)
	p := placeOf(canonical(s), m.root)
	m.cache[s] = p
	return p
}

// placeOf says where the canonical path p lies relative to root.
func placeOf(p, root string) cwdPlace {
	switch {
	case p == root:
		return placeRoot
	case root == "/" || strings.HasPrefix(p, root) && len(p) > len(root) && p[len(root)] == '/':
		return placeInside
	}
	return placeOutside
}

// roots are the spellings of the workspace root an agent may have named
// its store's folders after: the canonical one first, then the one the
// process saw when it differs (a workspace reached through a symlink).
func (m *cwdMatcher) roots() []string {
	if m.workspace == m.root {
		return []string{m.root}
	}
	return []string{m.root, m.workspace}
}

// canonical resolves every symlink of an absolute path; a path that cannot
// be resolved (it does not exist any more) is only cleaned.
func canonical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
