package fakeprovider

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Success lists models by id (OpenAI, Anthropic or ollama shape, whatever
// the client asks for).
func Success(ids ...string) Scenario { return Scenario{Models: Models(ids...)} }

// Models turns ids into models named after them.
func Models(ids ...string) []Model {
	out := make([]Model, len(ids))
	for i, id := range ids {
		out[i] = Model{ID: id, Name: id}
	}
	return out
}

// Numbered is n models "model-0000", "model-0001", ...
func Numbered(n int) []Model {
	// One string holds every id and name (a string per name was most of
	// the work when TooMany was built at every scout start).
	b := make([]byte, 0, 24*n)
	ends := make([]int, 0, 2*n)
	for i := range n {
		b = append(b, "model-"...)
		for d := 1000; d > 1 && i < d; d /= 10 {
			b = append(b, '0')
		}
		b = strconv.AppendInt(b, int64(i), 10)
		ends = append(ends, len(b))
		b = strconv.AppendInt(append(b, "Model "...), int64(i), 10)
		ends = append(ends, len(b))
	}
	all := string(b)
	out := make([]Model, n)
	start := 0
	for i := range out {
		out[i] = Model{ID: all[start:ends[2*i]], Name: all[ends[2*i]:ends[2*i+1]]}
		start = ends[2*i+1]
	}
	return out
}

// Scenarios of docs/protocol.md §7's reasons, for tests and the demo.
var (
	Unauthorized = Scenario{Status: http.StatusUnauthorized}
	Forbidden    = Scenario{Status: http.StatusForbidden}
	NotFound     = Scenario{Status: http.StatusNotFound}
	RateLimited  = Scenario{Status: http.StatusTooManyRequests}
	ServerError  = Scenario{Status: http.StatusInternalServerError}
	Empty        = Scenario{Models: []Model{}}
	InvalidJSON  = Scenario{Body: []byte(`{"data":[{"id":"gpt-5"},`)}
	WrongShape   = Scenario{Body: []byte(`{"data":{"id":"gpt-5"}}`)}
	Hanging      = Scenario{Hang: true}
	Reset        = Scenario{Reset: true}
	// Oversized is a valid list padded past 2 MiB.
	Oversized = Scenario{Oversize: 2<<20 + 1024}
	// TooMany lists 2,049 models.
	TooMany = Scenario{Numbered: 2049}
	// CrossOrigin redirects to another port.
	CrossOrigin = Scenario{RedirectCrossOrigin: true}
)

// Slow lists ids after delay.
func Slow(delay time.Duration, ids ...string) Scenario {
	return Scenario{Models: Models(ids...), Delay: delay}
}

// Paged lists models Anthropic-style, pageSize at a time.
func Paged(pageSize int, models []Model) Scenario {
	return Scenario{Models: models, PageSize: pageSize}
}

// Enrichment answers doc (a models.dev-shaped document) as is.
func Enrichment(doc string) Scenario { return Scenario{Body: []byte(doc)} }

// listBody encodes the scenario's models for the endpoint asked.
func listBody(r *http.Request, rest string, sc Scenario) ([]byte, error) {
	if sc.Models == nil && sc.Numbered > 0 {
		sc.Models = Numbered(sc.Numbered)
	}
	switch {
	case rest == "/api/tags":
		return ollamaBody(sc), nil
	case rest == "/models" && r.Header.Get("anthropic-version") != "":
		return anthropicBody(r, sc)
	case rest == "/models":
		return openAIBody(sc), nil
	}
	return nil, errNoRoute
}

func openAIBody(sc Scenario) []byte {
	type item struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		OwnedBy string `json:"owned_by"`
		Padding string `json:"padding,omitempty"`
	}
	items := make([]item, len(sc.Models))
	for i, m := range sc.Models {
		items[i] = item{ID: m.ID, Object: "model", OwnedBy: "fake"}
	}
	if sc.Oversize > 0 {
		items = append(items, item{ID: "padding", Object: "model", Padding: strings.Repeat("x", sc.Oversize)})
	}
	b, _ := json.Marshal(map[string]any{"object": "list", "data": items})
	return b
}

func ollamaBody(sc Scenario) []byte {
	type item struct {
		Name  string `json:"name"`
		Model string `json:"model"`
		Size  int64  `json:"size"`
	}
	items := make([]item, len(sc.Models))
	for i, m := range sc.Models {
		items[i] = item{Name: m.ID, Model: m.ID, Size: 1 << 30}
	}
	b, _ := json.Marshal(map[string]any{"models": items})
	return b
}

// anthropicBody pages by after_id and limit (PageSize caps the limit).
func anthropicBody(r *http.Request, sc Scenario) ([]byte, error) {
	type item struct {
		ID          string `json:"id"`
		Type        string `json:"type"`
		DisplayName string `json:"display_name"`
		CreatedAt   string `json:"created_at"`
	}
	start := 0
	if after := r.URL.Query().Get("after_id"); after != "" {
		start = len(sc.Models)
		for i, m := range sc.Models {
			if m.ID == after {
				start = i + 1
			}
		}
	}
	limit := len(sc.Models)
	if l, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && l > 0 {
		limit = l
	}
	if sc.PageSize > 0 {
		limit = min(limit, sc.PageSize)
	}
	end := min(start+limit, len(sc.Models))
	items := []item{}
	for _, m := range sc.Models[start:end] {
		items = append(items, item{ID: m.ID, Type: "model", DisplayName: m.Name, CreatedAt: "2026-01-01T00:00:00Z"})
	}
	var first, last any
	if len(items) > 0 {
		first, last = items[0].ID, items[len(items)-1].ID
	}
	return json.Marshal(map[string]any{"data": items, "has_more": end < len(sc.Models), "first_id": first, "last_id": last})
}
