package catalog

import (
	"regexp"
	"sort"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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

// cacheSchema is the closed schema a cache is decoded with: every member is
// required (a pointer that stays nil is missing).
type cacheSchema struct {
	Format      *string        `json:"format"`
	Provider    *string        `json:"provider"`
	Fingerprint *string        `json:"fingerprint"`
	FetchedAt   *string        `json:"fetched_at"`
	Entries     *[]entrySchema `json:"entries"`
}

type entrySchema struct {
	ID            *string   `json:"id"`
	Name          *string   `json:"name"`
	Efforts       *[]string `json:"efforts"`
	ContextWindow *int64    `json:"context_window"`
}

var fingerprintPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

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
	if !formatOK(data) {
		return wire.CatalogInvalidFormat, nil
	}
	var doc cacheSchema
	if json.Unmarshal(data, &doc, json.RejectUnknownMembers(true)) != nil || !schemaOK(&doc, p.ID) {
		return wire.CatalogInvalidSchema, nil
	}
	if *doc.Fingerprint != p.Fingerprint() {
		return wire.CatalogIncompatibleFingerprint, nil
	}
	if len(*doc.Entries) == 0 {
		return wire.CatalogEmptyCache, nil
	}
	entries = make([]Entry, len(*doc.Entries))
	seen := make(map[string]struct{}, len(entries))
	for i, e := range *doc.Entries {
		if _, dup := seen[*e.ID]; dup || !ValidModelID(*e.ID) {
			return wire.CatalogInvalidSchema, nil
		}
		seen[*e.ID] = struct{}{}
		entries[i] = Entry{ID: *e.ID, Name: *e.Name, Efforts: *e.Efforts, ContextWindow: *e.ContextWindow}
	}
	return wire.CatalogAvailable, entries
}

// formatOK reports whether data is one strict JSON object whose format
// member is the string CacheFormat.
func formatOK(data []byte) bool {
	v := jsontext.Value(data)
	if !v.IsValid() || v.Kind() != '{' {
		return false
	}
	var head struct {
		Format jsontext.Value `json:"format"`
	}
	if json.Unmarshal(data, &head) != nil || head.Format.Kind() != '"' {
		return false
	}
	var format string
	return json.Unmarshal(head.Format, &format) == nil && format == CacheFormat
}

func schemaOK(doc *cacheSchema, id string) bool {
	if doc.Provider == nil || doc.Fingerprint == nil || doc.FetchedAt == nil || doc.Entries == nil {
		return false
	}
	if *doc.Provider != id || !fingerprintPattern.MatchString(*doc.Fingerprint) {
		return false
	}
	if _, err := time.Parse(time.RFC3339, *doc.FetchedAt); err != nil {
		return false
	}
	if len(*doc.Entries) > MaxModels {
		return false
	}
	for _, e := range *doc.Entries {
		if e.ID == nil || e.Name == nil || e.Efforts == nil || e.ContextWindow == nil ||
			!validName(*e.Name) || !validEfforts(*e.Efforts) || *e.ContextWindow < 0 {
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
