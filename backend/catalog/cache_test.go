package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

var testProvider = Provider{ID: "demo", Type: TypeOpenAICompatible, BaseURL: "http://127.0.0.1:9/v1/"}

func TestFingerprintBytes(t *testing.T) {
	p := testProvider
	sum := sha256.Sum256([]byte("scout.catalog.fingerprint.v1\x00openai-compatible\x00http://127.0.0.1:9/v1\x00demo"))
	if got, want := p.Fingerprint(), "sha256:"+hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("Fingerprint = %s, want %s", got, want)
	}
	for _, other := range []Provider{
		{ID: "demo2", Type: p.Type, BaseURL: p.BaseURL},
		{ID: p.ID, Type: TypeOpenAI, BaseURL: p.BaseURL},
		{ID: p.ID, Type: p.Type, BaseURL: "http://127.0.0.1:10/v1"},
	} {
		if other.Fingerprint() == p.Fingerprint() {
			t.Errorf("%+v has the same fingerprint", other)
		}
	}
}

// cacheJSON is a cache document for testProvider with its members replaced.
func cacheJSON(replace map[string]string) string {
	members := []struct{ k, v string }{
		{"format", `"scout.catalog.v1"`},
		{"provider", `"demo"`},
		{"fingerprint", `"` + testProvider.Fingerprint() + `"`},
		{"fetched_at", `"2026-11-29T18:00:00Z"`},
		{"entries", `[{"id":"m1","name":"Model 1","efforts":["low","high"],"context_window":128000}]`},
	}
	var parts []string
	for _, m := range members {
		v, ok := replace[m.k]
		if !ok {
			v = m.v
		}
		if v != "" {
			parts = append(parts, `"`+m.k+`":`+v)
		}
	}
	if extra, ok := replace["+"]; ok {
		parts = append(parts, extra)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func TestParseCacheOrder(t *testing.T) {
	otherFP := `"sha256:` + strings.Repeat("0", 64) + `"`
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{"valid", cacheJSON(nil), wire.CatalogAvailable},
		{"not json", `{"format":`, wire.CatalogInvalidFormat},
		{"array", `[]`, wire.CatalogInvalidFormat},
		{"trailing data", cacheJSON(nil) + `{}`, wire.CatalogInvalidFormat},
		{"duplicate member", `{"format":"scout.catalog.v1","format":"scout.catalog.v1"}`, wire.CatalogInvalidFormat},
		{"invalid utf-8", "{\"format\":\"scout.catalog.v1\",\"x\":\"\xff\"}", wire.CatalogInvalidFormat},
		{"no format", cacheJSON(map[string]string{"format": ""}), wire.CatalogInvalidFormat},
		{"other format", cacheJSON(map[string]string{"format": `"scout.catalog.v2"`}), wire.CatalogInvalidFormat},
		{"format not a string", cacheJSON(map[string]string{"format": `1`}), wire.CatalogInvalidFormat},
		{"other provider", cacheJSON(map[string]string{"provider": `"other"`}), wire.CatalogInvalidSchema},
		{"unknown member", cacheJSON(map[string]string{"+": `"x":1`}), wire.CatalogInvalidSchema},
		{"missing entries", cacheJSON(map[string]string{"entries": ""}), wire.CatalogInvalidSchema},
		{"entries not array", cacheJSON(map[string]string{"entries": `{}`}), wire.CatalogInvalidSchema},
		{"bad fetched_at", cacheJSON(map[string]string{"fetched_at": `"yesterday"`}), wire.CatalogInvalidSchema},
		{"fetched_at lower-case t and z", cacheJSON(map[string]string{"fetched_at": `"2026-11-29t18:00:00z"`}), wire.CatalogAvailable},
		{"fetched_at offset and fraction", cacheJSON(map[string]string{"fetched_at": `"2026-11-29T18:00:00.123456+05:30"`}), wire.CatalogAvailable},
		{"fetched_at without zone", cacheJSON(map[string]string{"fetched_at": `"2026-11-29T18:00:00"`}), wire.CatalogInvalidSchema},
		{"fetched_at with a space", cacheJSON(map[string]string{"fetched_at": `"2026-11-29 18:00:00Z"`}), wire.CatalogInvalidSchema},
		{"bad fingerprint shape", cacheJSON(map[string]string{"fingerprint": `"md5:00"`}), wire.CatalogInvalidSchema},
		{"entry without name", cacheJSON(map[string]string{"entries": `[{"id":"m1","efforts":[],"context_window":0}]`}), wire.CatalogInvalidSchema},
		{"bad effort", cacheJSON(map[string]string{"entries": `[{"id":"m1","name":"","efforts":["LOW"],"context_window":0}]`}), wire.CatalogInvalidSchema},
		{"negative context", cacheJSON(map[string]string{"entries": `[{"id":"m1","name":"","efforts":[],"context_window":-1}]`}), wire.CatalogInvalidSchema},
		{"fingerprint mismatch", cacheJSON(map[string]string{"fingerprint": otherFP}), wire.CatalogIncompatibleFingerprint},
		{"mismatch before empty", cacheJSON(map[string]string{"fingerprint": otherFP, "entries": `[]`}), wire.CatalogIncompatibleFingerprint},
		{"empty", cacheJSON(map[string]string{"entries": `[]`}), wire.CatalogEmptyCache},
		{"empty id", cacheJSON(map[string]string{"entries": `[{"id":"","name":"","efforts":[],"context_window":0}]`}), wire.CatalogInvalidSchema},
		{"unsafe id", cacheJSON(map[string]string{"entries": `[{"id":"a\u202eb","name":"","efforts":[],"context_window":0}]`}), wire.CatalogInvalidSchema},
		{"duplicate id", cacheJSON(map[string]string{"entries": `[{"id":"m","name":"","efforts":[],"context_window":0},{"id":"m","name":"","efforts":[],"context_window":0}]`}), wire.CatalogInvalidSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, entries := ParseCache(&testProvider, []byte(tt.doc))
			if got != tt.want {
				t.Fatalf("ParseCache = %s, want %s", got, tt.want)
			}
			if (got == wire.CatalogAvailable) != (entries != nil) {
				t.Fatalf("entries %v with status %s", entries, got)
			}
		})
	}
}

func TestEncodeCacheRoundTrip(t *testing.T) {
	entries := []Entry{{ID: "b", Name: "B"}, {ID: "a", Name: "A", Efforts: []string{"low"}, ContextWindow: 8192}}
	data, err := EncodeCache(&testProvider, entries, time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	st, got := ParseCache(&testProvider, data)
	if st != wire.CatalogAvailable || len(got) != 2 || got[0].ID != "a" || got[1].Efforts == nil {
		t.Fatalf("round trip: %s %+v\n%s", st, got, data)
	}
	if _, err := EncodeCache(&testProvider, nil, time.Now()); ReasonOf(err) != wire.ReasonEmptyCatalog {
		t.Errorf("empty: %v", err)
	}
	many := make([]Entry, MaxModels+1)
	for i := range many {
		many[i] = Entry{ID: strings.Repeat("x", 10) + string(rune('a'+i%26)) + itoa(i)}
	}
	if _, err := EncodeCache(&testProvider, many, time.Now()); ReasonOf(err) != wire.ReasonCatalogLimit {
		t.Errorf("too many: %v", err)
	}
	big := make([]Entry, MaxModels)
	for i := range big {
		big[i] = Entry{ID: itoa(i) + strings.Repeat("i", 240), Name: strings.Repeat("n", 250)}
	}
	if _, err := EncodeCache(&testProvider, big, time.Now()); ReasonOf(err) != wire.ReasonCatalogLimit {
		t.Errorf("over 1 MiB: %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestValidModelID(t *testing.T) {
	for _, id := range []string{"gpt-5", "claude-sonnet-4-5-20250929", "llama3.2:latest", "meta-llama/Llama-3.3-70B", "模型"} {
		if !ValidModelID(id) {
			t.Errorf("%q refused", id)
		}
	}
	for _, id := range []string{"", "a b", "a\tb", "a\x7fb", "a\u0085b", "a\u2066b", "\xff", strings.Repeat("a", 257)} {
		if ValidModelID(id) {
			t.Errorf("%q accepted", id)
		}
	}
}

func TestCleanName(t *testing.T) {
	for in, want := range map[string]string{
		"  Claude\u202e  Sonnet\n4 ": "Claude Sonnet 4",
		"a\x00b":                     "ab",
		"\xffok":                     "ok",
	} {
		if got := cleanName(in); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cleanName(strings.Repeat("é", 200)); len(got) > MaxNameBytes || !validName(got) {
		t.Errorf("long name: %d bytes", len(got))
	}
}
