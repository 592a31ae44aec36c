package catalog

import (
	"sort"
	"strings"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/scoutdev/scout/backend/rfc3339"
	"github.com/scoutdev/scout/backend/wire"
)

// Cache bounds (docs/protocol.md §7, model.refresh's extension).
const (
	// CacheFormat is the format member of every cache this package writes.
	CacheFormat = "scout.catalog.v1"
	// MaxCacheBytes bounds a cache file: a larger one fails catalog reads
	// with catalog_limit and is never written.
	MaxCacheBytes = 1 << 20
	// MaxModels bounds the unique models of a catalog.
	MaxModels = 2048
)

// Entry is one model of a catalog cache.
type Entry struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Efforts       []string `json:"efforts"`
	ContextWindow int64    `json:"context_window"`
}

// Cache is a catalog cache document (docs/design.md "Catalog cache").
type Cache struct {
	Format      string  `json:"format"`
	Provider    string  `json:"provider"`
	Fingerprint string  `json:"fingerprint"`
	FetchedAt   string  `json:"fetched_at"`
	Entries     []Entry `json:"entries"`
}

// validFingerprint reports whether s matches ^sha256:[0-9a-f]{64}$.
func validFingerprint(s string) bool {
	hex, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// ParseCache classifies a cache's bytes for provider p in the order of
// docs/protocol.md §7 and returns the catalog status with the entries when the
// status is available:
//
//  1. format: a single JSON object (strict: UTF-8, no duplicate members, no
//     trailing data) whose format member is "scout.catalog.v1", else
//     invalid_format;
//  2. schema and provider: exactly the members above with their types, at
//     most 2,048 entries each with a string id, a safe name of at most 256
//     bytes, at most 8 unique effort words and a non-negative context
//     window, fetched_at in RFC 3339, a well-formed fingerprint, and
//     provider equal to p's id, else invalid_schema;
//  3. fingerprint equal to p's, else incompatible_fingerprint;
//  4. at least one entry, else empty_cache;
//  5. entry identities: every id safe (ValidModelID) and unique, else
//     invalid_schema.
//
// The caller bounds the size (MaxCacheBytes) before calling.
func ParseCache(p *Provider, data []byte) (status string, entries []Entry) {
	doc, formatOK, schemaOK, err := decodeCache(data)
	if err != nil || !formatOK {
		return wire.CatalogInvalidFormat, nil
	}
	if !schemaOK || !schemaValid(doc, p.ID) {
		return wire.CatalogInvalidSchema, nil
	}
	if doc.Fingerprint != p.Fingerprint() {
		return wire.CatalogIncompatibleFingerprint, nil
	}
	if len(doc.Entries) == 0 {
		return wire.CatalogEmptyCache, nil
	}
	seen := make(map[string]struct{}, len(doc.Entries))
	for _, e := range doc.Entries {
		if _, dup := seen[e.ID]; dup || !ValidModelID(e.ID) {
			return wire.CatalogInvalidSchema, nil
		}
		seen[e.ID] = struct{}{}
	}
	return wire.CatalogAvailable, doc.Entries
}

func schemaValid(doc *Cache, id string) bool {
	if doc.Provider != id || !validFingerprint(doc.Fingerprint) || len(doc.Entries) > MaxModels {
		return false
	}
	if _, err := rfc3339.Parse(doc.FetchedAt); err != nil {
		return false
	}
	for _, e := range doc.Entries {
		if !validName(e.Name) || !validEfforts(e.Efforts) {
			return false
		}
	}
	return true
}

// EncodeCache serializes a catalog for p: entries sorted by id, fetched_at
// in UTC with seconds. It checks what ParseCache would: the caller gets
// errLimit for more than MaxModels entries or more than MaxCacheBytes, and
// errEmpty for none.
func EncodeCache(p *Provider, entries []Entry, fetchedAt time.Time) ([]byte, error) {
	switch {
	case len(entries) == 0:
		return nil, errEmpty
	case len(entries) > MaxModels:
		return nil, errLimit
	}
	sorted := append([]Entry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	for i := range sorted {
		if sorted[i].Efforts == nil {
			sorted[i].Efforts = []string{}
		}
	}
	doc := Cache{
		Format: CacheFormat, Provider: p.ID, Fingerprint: p.Fingerprint(),
		FetchedAt: fetchedAt.UTC().Format(time.RFC3339), Entries: sorted,
	}
	data, err := json.Marshal(&doc)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxCacheBytes {
		return nil, errLimit
	}
	return data, nil
}
