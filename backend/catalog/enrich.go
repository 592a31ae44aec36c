package catalog

import (
	"context"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Enrichment bounds (docs/protocol.md §7).
const (
	// MaxEnrichmentBytes bounds the enrichment document.
	MaxEnrichmentBytes = 8 << 20
	// EnrichmentTimeout bounds fetching it.
	EnrichmentTimeout = 30 * time.Second
)

// defaultEfforts are the efforts of a model whose enrichment says only
// "reasoning": true.
var defaultEfforts = []string{"low", "medium", "high"}

// enrichment is what the document says about one model.
type enrichment struct {
	Name          string
	Efforts       []string
	ContextWindow int64
}

// enrichmentKeys are the document's provider keys consulted for p, in
// order: the provider's own id (a user who names a provider "groq" gets
// models.dev's "groq"), then the key of its type for openai and anthropic.
func enrichmentKeys(p *Provider) []string {
	keys := []string{p.ID}
	switch p.Type {
	case TypeOpenAI, TypeAnthropic:
		if p.Type != p.ID {
			keys = append(keys, p.Type)
		}
	}
	return keys
}

// parseEnrichment reads a models.dev-shaped document,
// {provider:{models:{id:{name,reasoning,limit:{context}}}}}, and returns what
// it says about the models of the first of keys that the document has.
// Members other than those are ignored; values of the wrong type make the
// model (not the document) unusable. "reasoning" is true (efforts low,
// medium, high), false, or a list of effort words. The document must be one
// strict JSON object.
func parseEnrichment(doc []byte, keys []string) (map[string]enrichment, error) {
	if !jsontext.Value(doc).IsValid() || jsontext.Value(doc).Kind() != '{' {
		return nil, errInvalidCatalog
	}
	var providers map[string]jsontext.Value
	if err := json.Unmarshal(doc, &providers); err != nil {
		return nil, errInvalidCatalog
	}
	for _, k := range keys {
		raw, ok := providers[k]
		if !ok {
			continue
		}
		var prov struct {
			Models map[string]jsontext.Value `json:"models"`
		}
		if json.Unmarshal(raw, &prov) != nil {
			return nil, errInvalidCatalog
		}
		out := make(map[string]enrichment, len(prov.Models))
		for id, m := range prov.Models {
			if e, ok := parseEnrichedModel(m); ok {
				out[id] = e
			}
		}
		return out, nil
	}
	return map[string]enrichment{}, nil
}

func parseEnrichedModel(raw jsontext.Value) (enrichment, bool) {
	var m struct {
		Name      *string        `json:"name"`
		Reasoning jsontext.Value `json:"reasoning"`
		Limit     *struct {
			Context jsontext.Value `json:"context"`
		} `json:"limit"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return enrichment{}, false
	}
	var window jsontext.Value
	if m.Limit != nil {
		window = m.Limit.Context
	}
	if len(window) > 0 && window.Kind() != '0' && window.Kind() != 'n' {
		return enrichment{}, false // not a number: the wrong shape
	}
	var e enrichment
	if m.Name != nil {
		e.Name = cleanName(*m.Name)
	}
	e.Efforts = effortsOf(m.Reasoning)
	if len(window) > 0 && window.Kind() == '0' {
		// A number past float64's range (1e400) is another number: 0.
		c, err := strconv.ParseFloat(string(window), 64)
		if err == nil && c >= 0 && c <= math.MaxInt32*1024 && c == math.Trunc(c) {
			e.ContextWindow = int64(c)
		}
	}
	return e, true
}

// effortsOf reads "reasoning": true gives the default efforts, a list of
// valid effort words gives those, anything else none.
func effortsOf(raw jsontext.Value) []string {
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		if b {
			return append([]string{}, defaultEfforts...)
		}
		return []string{}
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil && validEfforts(list) {
		return list
	}
	return []string{}
}

// enrich fetches the enrichment document (30 s, 8 MiB) and returns what it
// says about p's models. Any failure (cancellation included) returns nil;
// the caller checks cancellation itself.
func (s *Service) enrich(ctx context.Context, p *Provider) map[string]enrichment {
	u, err := url.Parse(s.enrichmentURL)
	if s.enrichmentURL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil
	}
	ctx, cancel := context.WithTimeoutCause(ctx, EnrichmentTimeout, errTotalTimeout)
	defer cancel()
	body, err := s.http.get(ctx, u, http.Header{}, MaxEnrichmentBytes)
	if err != nil {
		s.logf("enrichment skipped (%s)", describe(err))
		return nil
	}
	info, err := parseEnrichment(body, enrichmentKeys(p))
	if err != nil {
		s.logf("enrichment skipped (the document is malformed)")
		return nil
	}
	return info
}

// describe is an error's reason word, or "cancelled".
func describe(err error) string {
	if r := ReasonOf(err); r != "" {
		return r
	}
	return "cancelled"
}
