package catalog

import (
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// FuzzParseCache: any bytes classify without panicking, an available cache
// holds only safe unique ids, and re-encoding it validates again.
func FuzzParseCache(f *testing.F) {
	f.Add([]byte(cacheJSON(nil)))
	f.Add([]byte(cacheJSON(map[string]string{"entries": `[]`})))
	f.Add([]byte(`{"format":"scout.catalog.v1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, entries := ParseCache(&testProvider, data)
		if st != wire.CatalogAvailable {
			if entries != nil {
				t.Fatal("entries with a failed status")
			}
			return
		}
		seen := map[string]bool{}
		for _, e := range entries {
			if !ValidModelID(e.ID) || seen[e.ID] || !validName(e.Name) || !validEfforts(e.Efforts) {
				t.Fatalf("unsafe entry %+v", e)
			}
			seen[e.ID] = true
		}
		again, err := EncodeCache(&testProvider, entries, time.Unix(0, 0))
		if err != nil {
			if ReasonOf(err) != wire.ReasonCatalogLimit {
				t.Fatal(err)
			}
			return
		}
		if st, _ := ParseCache(&testProvider, again); st != wire.CatalogAvailable {
			t.Fatalf("re-encoded cache is %s", st)
		}
	})
}

// checkModels: parsed models have safe ids and clean names.
func checkModels(t *testing.T, models []remoteModel, err error) {
	if err != nil {
		if ReasonOf(err) != wire.ReasonInvalidCatalog {
			t.Fatalf("reason %q", ReasonOf(err))
		}
		return
	}
	for _, m := range models {
		if !ValidModelID(m.ID) || !validName(m.Name) {
			t.Fatalf("unsafe model %+v", m)
		}
	}
}

func FuzzParseOpenAIModels(f *testing.F) {
	f.Add([]byte(`{"object":"list","data":[{"id":"gpt-5","object":"model"}]}`))
	f.Add([]byte(`{"data":[]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		models, err := parseOpenAIModels(body)
		checkModels(t, models, err)
	})
}

func FuzzParseAnthropicModels(f *testing.F) {
	f.Add([]byte(`{"data":[{"id":"claude-sonnet-4-5","display_name":"Claude Sonnet 4.5"}],"has_more":true,"last_id":"claude-sonnet-4-5"}`))
	f.Add([]byte(`{"data":[],"has_more":false,"last_id":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := parseAnthropicModels(body)
		checkModels(t, page.Models, err)
		if err == nil && page.HasMore && page.LastID == "" {
			t.Fatal("has_more without last_id")
		}
	})
}

func FuzzParseOllamaModels(f *testing.F) {
	f.Add([]byte(`{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":1}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		models, err := parseOllamaModels(body)
		checkModels(t, models, err)
	})
}

func FuzzParseEnrichment(f *testing.F) {
	f.Add([]byte(modelsDev))
	f.Add([]byte(`{"openai":{"models":{"m":{"reasoning":["low"],"limit":{"context":1e300}}}}}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		info, err := parseEnrichment(doc, []string{"openai"})
		if err != nil {
			return
		}
		for _, e := range info {
			if !validName(e.Name) || !validEfforts(e.Efforts) || e.ContextWindow < 0 {
				t.Fatalf("unsafe enrichment %+v", e)
			}
		}
	})
}
