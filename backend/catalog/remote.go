package catalog

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/wire"
)

// remoteModel is one model as a provider lists it.
type remoteModel struct {
	ID   string
	Name string
}

var errInvalidCatalog = failure(wire.ReasonInvalidCatalog, "the body is not a model list")

// decodeBody decodes a provider's body into v: strict JSON (valid UTF-8, no
// duplicate member names, no trailing data), one object, members of the
// wrong type refused, unknown members ignored.
func decodeBody(body []byte, v any) error {
	if !jsontext.Value(body).IsValid() || jsontext.Value(body).Kind() != '{' {
		return errInvalidCatalog
	}
	if json.Unmarshal(body, v) != nil {
		return errInvalidCatalog
	}
	return nil
}

// idModel is an element of an OpenAI or Anthropic "data" array.
type idModel struct {
	ID          *string `json:"id"`
	DisplayName *string `json:"display_name"`
}

func (m *idModel) model() (remoteModel, error) {
	if m.ID == nil || !ValidModelID(*m.ID) {
		return remoteModel{}, errInvalidCatalog
	}
	r := remoteModel{ID: *m.ID}
	if m.DisplayName != nil {
		r.Name = cleanName(*m.DisplayName)
	}
	return r, nil
}

// parseOpenAIModels parses GET /models of openai and openai-compatible
// providers: {"data":[{"id":S,...},...],...}. Every element needs a safe
// string id; anything else is invalid_catalog. An empty list is not an
// error here (the caller decides empty_catalog after merging).
func parseOpenAIModels(body []byte) ([]remoteModel, error) {
	var doc struct {
		Data *[]idModel `json:"data"`
	}
	if err := decodeBody(body, &doc); err != nil || doc.Data == nil {
		return nil, errInvalidCatalog
	}
	return collect(*doc.Data)
}

func collect(data []idModel) ([]remoteModel, error) {
	out := make([]remoteModel, 0, len(data))
	for i := range data {
		m, err := data[i].model()
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// anthropicPage is one page of Anthropic's GET /models.
type anthropicPage struct {
	Models  []remoteModel
	HasMore bool
	LastID  string
}

// parseAnthropicModels parses one page of Anthropic's GET /models:
// {"data":[{"id":S,"display_name":S},...],"has_more":B,"last_id":S|null}.
// has_more true needs a non-empty last_id.
func parseAnthropicModels(body []byte) (anthropicPage, error) {
	var doc struct {
		Data    *[]idModel `json:"data"`
		HasMore *bool      `json:"has_more"`
		LastID  *string    `json:"last_id"`
	}
	if err := decodeBody(body, &doc); err != nil || doc.Data == nil {
		return anthropicPage{}, errInvalidCatalog
	}
	models, err := collect(*doc.Data)
	if err != nil {
		return anthropicPage{}, err
	}
	page := anthropicPage{Models: models, HasMore: doc.HasMore != nil && *doc.HasMore}
	if doc.LastID != nil {
		page.LastID = *doc.LastID
	}
	if page.HasMore && page.LastID == "" {
		return anthropicPage{}, errInvalidCatalog
	}
	return page, nil
}

// parseOllamaModels parses ollama's GET /api/tags:
// {"models":[{"name":S,...},...]}; the name is the model id.
func parseOllamaModels(body []byte) ([]remoteModel, error) {
	var doc struct {
		Models *[]struct {
			Name *string `json:"name"`
		} `json:"models"`
	}
	if err := decodeBody(body, &doc); err != nil || doc.Models == nil {
		return nil, errInvalidCatalog
	}
	out := make([]remoteModel, 0, len(*doc.Models))
	for _, m := range *doc.Models {
		if m.Name == nil || !ValidModelID(*m.Name) {
			return nil, errInvalidCatalog
		}
		out = append(out, remoteModel{ID: *m.Name})
	}
	return out, nil
}

// merger merges model lists: the first occurrence of an id wins, a later
// one only fills a missing name. It fails with catalog_limit past MaxModels
// unique ids.
type merger struct {
	order []string
	byID  map[string]*remoteModel
}

func newMerger() *merger { return &merger{byID: map[string]*remoteModel{}} }

func (m *merger) add(models []remoteModel) (added int, err error) {
	for _, r := range models {
		if prev, ok := m.byID[r.ID]; ok {
			if prev.Name == "" {
				prev.Name = r.Name
			}
			continue
		}
		if len(m.order) == MaxModels {
			return added, errLimit
		}
		r := r
		m.byID[r.ID] = &r
		m.order = append(m.order, r.ID)
		added++
	}
	return added, nil
}

func (m *merger) models() []remoteModel {
	out := make([]remoteModel, len(m.order))
	for i, id := range m.order {
		out[i] = *m.byID[id]
	}
	return out
}
