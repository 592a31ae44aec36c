package catalog

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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

// FuzzParseState feeds arbitrary bytes to the state.json parser: an
// accepted selection is safe, and writing it back yields the same one.
func FuzzParseState(f *testing.F) {
	f.Add([]byte(`{"format":"scout.state.v1","selection":{"provider":"p","model":"m","effort":"high"}}`))
	f.Add([]byte(`{"format":"scout.state.v1","selection":null}`))
	f.Add([]byte(`{"format":"scout.state.v1","selection":{"provider":"p","model":"m","effort":null}}`))
	f.Add([]byte(`{"format":"scout.state.v1","selection":{"provider":"..","model":"m"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sel, ok := parseState(data)
		if !ok {
			if sel != nil {
				t.Fatal("a selection from a malformed state.json")
			}
			return
		}
		if v := jsontext.Value(data); !v.IsValid() || v.Kind() != '{' {
			t.Fatalf("accepted %q, which is not one strict JSON object", data)
		}
		if !validSelection(sel) {
			t.Fatalf("unsafe selection %+v", sel)
		}
		again, err := json.Marshal(&stateDoc{Format: stateFormat, Selection: sel})
		if err != nil {
			t.Fatal(err)
		}
		if sel2, ok := parseState(again); !ok || !reflect.DeepEqual(sel, sel2) {
			t.Fatalf("round trip of %q gave %+v", data, sel2)
		}
	})
}

// FuzzCatalogCursor checks the catalog's page cursors: parse never
// panics, accepts only what issue produced (byte for byte, under the tag
// the cursor names), and every issued cursor fits the protocol's 64 bytes
// and round trips; model.catalog.models' cursors ("m") and the other two
// methods' are never accepted by the other side.
func FuzzCatalogCursor(f *testing.F) {
	c := &cursors{secret: []byte("fuzz secret")}
	f.Add(c.issue("c1", tagCatalog, 100), uint64(1), uint32(0), false)
	f.Add(c.issue("c7", tagStatus, 0), uint64(1<<63), uint32(1<<31), true)
	f.Add("c1.a.01.AAAAAAAAAAAAAAAAAAAAAA", uint64(2), uint32(3), false)
	f.Add("c1.a.-0.", uint64(0), uint32(0), true)
	f.Fuzz(func(t *testing.T, s string, rev uint64, offset uint32, status bool) {
		tag := tagCatalog
		if status {
			tag = tagStatus
		}
		if r, off, ok := c.parse(s); ok && c.issue(r, tagCatalog, off) != s && c.issue(r, tagStatus, off) != s {
			t.Fatalf("accepted %q, which no method issues", s)
		}
		revision := "c" + strconv.FormatUint(rev, 10)
		enc := c.issue(revision, tag, int(offset))
		if len(enc) > wire.MaxCursorBytes {
			t.Fatalf("cursor of %d bytes: %q", len(enc), enc)
		}
		if r, off, ok := c.parse(enc); !ok || r != revision || off != int(offset) {
			t.Fatalf("round trip of %s/%d failed", revision, offset)
		}
		// model.catalog.models' cursors continue only that method.
		if r, off, ok := c.parseModels(s); ok && c.issue(r, tagModels, off) != s {
			t.Fatalf("accepted %q as a models cursor, which is not issued", s)
		}
		models := c.issue(revision, tagModels, int(offset))
		if _, _, ok := c.parse(models); ok {
			t.Fatalf("the catalog methods accepted the models cursor %q", models)
		}
		if _, _, ok := c.parseModels(enc); ok {
			t.Fatalf("model.catalog.models accepted the catalog cursor %q", enc)
		}
		if r, off, ok := c.parseModels(models); !ok || r != revision || off != int(offset) || len(models) > wire.MaxCursorBytes {
			t.Fatalf("round trip of the models cursor %s/%d failed", revision, offset)
		}
	})
}

// FuzzCredential feeds any credential (an environment variable's value or
// a credential file's bytes) to the key reader: a key it accepts is a
// non-empty part of the input with nothing but visible ASCII (0x21..0x7e:
// no space, control, newline or non-ASCII byte), so it can go into a
// request header as it is; anything else is authentication_unavailable.
func FuzzCredential(f *testing.F) {
	f.Add("sk-test-0123456789\n")
	f.Add("\n\n  key-with-spaces around  \r\nsecond line")
	f.Add("kéy")
	f.Add("")
	f.Fuzz(func(t *testing.T, raw string) {
		p := &Provider{ID: "p", Type: "openai", APIKeyEnv: "KEY"}
		key, err := p.credential(func(string) string { return raw })
		if err != nil {
			if ReasonOf(err) != wire.ReasonAuthenticationUnavailable || key != "" {
				t.Fatalf("%q: %q, %v", raw, key, err)
			}
			return
		}
		if key == "" || !strings.Contains(raw, key) {
			t.Fatalf("%q gave the key %q", raw, key)
		}
		for _, c := range []byte(key) {
			if c < 0x21 || c > 0x7e {
				t.Fatalf("%q gave the key %q", raw, key)
			}
		}
	})
}

// FuzzParseEnabled: any bytes parse without panicking; an accepted
// enabled.json holds at most MaxEnabledChanges decisions of safe provider
// and model ids, no pair twice, and encodes back to a document that parses
// to the same decisions. Merging it never produces a repeated model.
func FuzzParseEnabled(f *testing.F) {
	f.Add([]byte(`{"format":"scout.enabled.v1","models":[{"provider":"openai","model":"gpt-5","enabled":true}]}`))
	f.Add([]byte(`{"format":"scout.enabled.v1","models":[]}`))
	f.Add([]byte(`{"format":"scout.enabled.v1","models":[{"provider":"p","model":"m","enabled":false},{"provider":"p","model":"m","enabled":true}]}`))
	f.Add([]byte(`{"format":"scout.enabled.v1","models":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		changes, ok := ParseEnabled(data)
		if !ok {
			if changes != nil {
				t.Fatal("decisions from a refused document")
			}
			return
		}
		if len(changes) > MaxEnabledChanges {
			t.Fatalf("%d decisions", len(changes))
		}
		seen := map[[2]string]bool{}
		for _, c := range changes {
			if !wire.ValidProviderID(c.Provider) || !ValidModelID(c.Model) || seen[[2]string{c.Provider, c.Model}] {
				t.Fatalf("unsafe or repeated decision %+v", c)
			}
			seen[[2]string{c.Provider, c.Model}] = true
		}
		again, err := EncodeEnabled(changes)
		if err != nil {
			t.Fatal(err)
		}
		if back, ok := ParseEnabled(again); !ok || !reflect.DeepEqual(back, changes) {
			t.Fatalf("re-encoded: %v %+v", ok, back)
		}
		for _, c := range changes {
			base := []string{"m"}
			if c.Model != "m" {
				base = append(base, c.Model)
			}
			merged := mergeEnabled(c.Provider, base, changes)
			for i, m := range merged {
				if slices.Contains(merged[:i], m) {
					t.Fatalf("merge repeats %q: %v", m, merged)
				}
			}
		}
	})
}
