package catalog

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/scoutdev/scout/backend/wire"
)

// Cache bounds (PROTOCOL.md §7, model.refresh's extension).
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

// Cache is a catalog cache document (DESIGN.md "Catalog cache").
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
// PROTOCOL.md §7 and returns the catalog status with the entries when the
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
	if !validTimestamp(doc.FetchedAt) {
		return false
	}
	for _, e := range doc.Entries {
		if !validName(e.Name) || !validEfforts(e.Efforts) {
			return false
		}
	}
	return true
}

// rfc3339 is the grammar of RFC 3339's date-time (section 5.6): "T" and "Z"
// in either case, an optional fraction after a full stop, then "Z" or a
// numeric offset. The ranges of the numbers are checked by validTimestamp.
var rfc3339 = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$`)

// validTimestamp reports whether s is an RFC 3339 date-time. Go's
// time.RFC3339 layout is not used: it refuses lower-case "t" and "z" and a
// leap second (":60"), which the RFC allows, and accepts a comma before the
// fraction and offsets such as +24:00, which it does not.
func validTimestamp(s string) bool {
	m := rfc3339.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	year, month, day := n(1), n(2), n(3)
	if month < 1 || month > 12 || day < 1 || day > time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return false
	}
	if n(4) > 23 || n(5) > 59 || n(6) > 60 {
		return false
	}
	return m[7] == "" || n(7) <= 23 && n(8) <= 59
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
