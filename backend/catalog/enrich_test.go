package catalog

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
)

const modelsDev = `{
 "openai": {"id":"openai","models":{
   "gpt-5": {"id":"gpt-5","name":"GPT-5","reasoning":true,"limit":{"context":400000,"output":128000}},
   "gpt-4o": {"name":"GPT-4o","reasoning":false,"limit":{"context":128000}},
   "odd": {"name":7}
 }},
 "myproxy": {"models":{"gpt-5":{"name":"Proxied GPT-5","reasoning":["minimal","low"]}}},
 "broken": 17
}`

func TestParseEnrichment(t *testing.T) {
	info, err := parseEnrichment([]byte(modelsDev), []string{"nomatch", "openai"})
	if err != nil {
		t.Fatal(err)
	}
	if g := info["gpt-5"]; g.Name != "GPT-5" || fmt.Sprint(g.Efforts) != "[low medium high]" || g.ContextWindow != 400000 {
		t.Errorf("gpt-5 = %+v", g)
	}
	if g := info["gpt-4o"]; len(g.Efforts) != 0 || g.ContextWindow != 128000 {
		t.Errorf("gpt-4o = %+v", g)
	}
	if _, ok := info["odd"]; ok {
		t.Error("a model with a wrong-typed name was used")
	}
	info, _ = parseEnrichment([]byte(modelsDev), []string{"myproxy", "openai"})
	if g := info["gpt-5"]; g.Name != "Proxied GPT-5" || fmt.Sprint(g.Efforts) != "[minimal low]" {
		t.Errorf("own key first: %+v", g)
	}
	// limit.context: another number than a non-negative integer of at most
	// 2,199,023,254,528 gives 0, the rest of the entry kept; a value that is
	// not a number is the wrong shape.
	for context, want := range map[string]int64{
		`1e400`: 0, `-1`: 0, `1.5`: 0, `2199023254528`: 2199023254528, `2199023254529`: 0,
		`123456789012345678901234567890`: 0, `1e3`: 1000, `null`: 0,
	} {
		doc := `{"p":{"models":{"m":{"name":"Huge","reasoning":true,"limit":{"context":` + context + `}}}}}`
		info, err := parseEnrichment([]byte(doc), []string{"p"})
		if g, ok := info["m"]; err != nil || !ok || g.Name != "Huge" || len(g.Efforts) != 3 || g.ContextWindow != want {
			t.Errorf("context %s: %+v %v, want the entry with context %d", context, info, err, want)
		}
	}
	for _, shape := range []string{`"400000"`, `true`, `[1]`} {
		doc := `{"p":{"models":{"m":{"name":"Huge","limit":{"context":` + shape + `}}}}}`
		if info, _ := parseEnrichment([]byte(doc), []string{"p"}); len(info) != 0 {
			t.Errorf("context %s: %+v, want the entry ignored", shape, info)
		}
	}
	for _, bad := range []string{``, `[]`, `{"openai":`, `{"openai":{"models":[]}}`} {
		if _, err := parseEnrichment([]byte(bad), []string{"openai"}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRefreshEnrichment(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	base := fake.Add("openai", fakeprovider.Success("gpt-5", "other"))
	cases := map[string]fakeprovider.Scenario{
		"good":    fakeprovider.Enrichment(modelsDev),
		"missing": fakeprovider.NotFound,
		"invalid": fakeprovider.InvalidJSON,
		"huge":    {Body: []byte(`{"x":"` + strings.Repeat("x", MaxEnrichmentBytes) + `"}`)},
	}
	for name, sc := range cases {
		t.Run(name, func(t *testing.T) {
			url := fake.Add("enrich-"+name, sc) + "/api.json"
			s, home := newService(t, Options{EnrichmentURL: url},
				Provider{ID: "openai", Type: TypeOpenAI, BaseURL: base, APIKeyEnv: "KEY"})
			if err := s.refreshCache(context.Background(), s.byID["openai"]); err != nil {
				t.Fatalf("refresh failed: %v", err)
			}
			st, entries := ParseCache(s.byID["openai"], readFile(t, filepath.Join(home, "catalog", "openai.json")))
			if st != wire.CatalogAvailable || len(entries) != 2 {
				t.Fatalf("cache: %s %+v", st, entries)
			}
			g := entries[0]
			enriched := g.Name == "GPT-5" && len(g.Efforts) == 3 && g.ContextWindow == 400000
			if enriched != (name == "good") || (name != "good" && g.Name != "gpt-5") {
				t.Fatalf("%s: gpt-5 = %+v", name, g)
			}
		})
	}
}
