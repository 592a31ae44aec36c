package catalog

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// Files of the backend home this package reads and writes.
const (
	cacheDir    = "catalog"
	stateFile   = "state.json"
	stateFormat = "scout.state.v1"
	// maxStateBytes bounds state.json.
	maxStateBytes = 64 << 10
	filePerm      = 0o600
	dirPerm       = 0o700
)

// Home is the backend home (SCOUT_HOME). The path itself is trusted, like
// fsguard.OpenRoot's argument; everything below it is reached through
// fsguard only.
type Home struct {
	Dir string
}

// open opens the home, or returns (nil, nil) when it does not exist yet.
func (h Home) open() (*fsguard.Root, error) {
	root, err := fsguard.OpenRoot(h.Dir)
	if errors.Is(err, fsguard.ErrNotFound) {
		return nil, nil
	}
	return root, err
}

// create opens the home, creating it and its missing parents first: the
// deepest existing ancestor is opened with fsguard (the home's path is
// trusted as configured) and the rest is made below it, so no component
// created here is reached through a symlink.
func (h Home) create() (*fsguard.Root, error) {
	if root, err := h.open(); root != nil || err != nil {
		return root, err
	}
	dir := filepath.Clean(h.Dir)
	var missing []string
	for {
		anc, err := fsguard.OpenRoot(dir)
		if err == nil {
			err = anc.MkdirAll(strings.Join(missing, "/"), dirPerm)
			anc.Close()
			if err != nil {
				return nil, err
			}
			return fsguard.OpenRoot(h.Dir)
		}
		parent := filepath.Dir(dir)
		if !errors.Is(err, fsguard.ErrNotFound) || parent == dir {
			return nil, err
		}
		missing = append([]string{filepath.Base(dir)}, missing...)
		dir = parent
	}
}

// cacheName is the cache's path below the home, or "" when the provider id
// is too long for a file name (its cache can then never exist).
func cacheName(id string) string {
	name := id + ".json"
	if !fsguard.SafeName(name) {
		return ""
	}
	return cacheDir + "/" + name
}

// errCacheMissing marks a cache that does not exist.
var errCacheMissing = errors.New("catalog: cache missing")

// readCache reads a provider's cache from root (nil: no home). It returns
// errCacheMissing, or a *wire.Error: catalog_limit over 1 MiB,
// catalog_unavailable when the cache or a directory on its way is unsafe
// (a symlink, a special file, a file where a directory belongs) or
// unreadable.
func readCache(root *fsguard.Root, id string) ([]byte, error) {
	name := cacheName(id)
	if root == nil || name == "" {
		return nil, errCacheMissing
	}
	data, _, err := root.ReadFile(name, MaxCacheBytes)
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, fsguard.ErrNotFound):
		return nil, errCacheMissing
	case errors.Is(err, fsguard.ErrTooLarge):
		return nil, wire.NewError(wire.CodeCatalogLimit)
	}
	return nil, wire.NewError(wire.CodeCatalogUnavailable)
}

// stateDoc is state.json.
type stateDoc struct {
	Format    string          `json:"format"`
	Selection *wire.Selection `json:"selection"`
}

// readSelection returns the stored selection, or nil when there is none. A
// state.json that is missing, malformed, unsafe or unreadable holds no
// selection; the last three are reported through logf (without a path).
func readSelection(root *fsguard.Root, logf func(string, ...any)) *wire.Selection {
	if root == nil {
		return nil
	}
	data, _, err := root.ReadFile(stateFile, maxStateBytes)
	if errors.Is(err, fsguard.ErrNotFound) {
		return nil
	}
	if err != nil {
		logf("state.json cannot be read (%v); no selection", err)
		return nil
	}
	var doc stateDoc
	if json.Unmarshal(data, &doc, json.RejectUnknownMembers(true)) != nil || doc.Format != stateFormat ||
		!validSelection(doc.Selection) {
		logf("state.json is malformed; no selection")
		return nil
	}
	return doc.Selection
}

func validSelection(s *wire.Selection) bool {
	if s == nil {
		return true
	}
	return wire.ValidProviderID(s.Provider) && ValidModelID(s.Model) && (s.Effort == nil || validEffort(*s.Effort))
}

// writeSelection writes state.json atomically (temp file, fsync, rename,
// directory fsync), creating the home when needed.
func (h Home) writeSelection(sel *wire.Selection) error {
	data, err := json.Marshal(&stateDoc{Format: stateFormat, Selection: sel})
	if err != nil {
		return err
	}
	root, err := h.create()
	if err != nil {
		return err
	}
	defer root.Close()
	return root.WriteFileAtomic(stateFile, data, filePerm)
}
