package sessions

import (
	"path/filepath"
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
	root  string
	cache map[string]bool
}

func newCwdMatcher(workspace string) *cwdMatcher {
	return &cwdMatcher{root: canonical(workspace), cache: map[string]bool{}}
}

// matches reports whether cwd, an absolute path, is the workspace root.
// A relative or over-long cwd never matches.
func (m *cwdMatcher) matches(cwd []byte) bool {
	if len(cwd) > maxCwdBytes || len(cwd) == 0 || cwd[0] != '/' {
		return false
	}
	if ok, hit := m.cache[string(cwd)]; hit {
		return ok
	}
	if len(m.cache) >= maxCwdCache {
		clear(m.cache)
	}
	s := string(cwd)
	ok := canonical(s) == m.root
	m.cache[s] = ok
	return ok
}

// canonical resolves every symlink of an absolute path; a path that cannot
// be resolved (it does not exist any more) is only cleaned.
func canonical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
