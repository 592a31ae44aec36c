package wire

import "errors"

// EnableParams is the params of model.enable: all three members required.
type EnableParams struct {
	Provider *string `json:"provider"`
	Model    *string `json:"model"`
	Enabled  *bool   `json:"enabled"`
}

// Validate requires a safe provider id, a model id and enabled.
func (p *EnableParams) Validate() error {
	switch {
	case p.Provider == nil || !ValidProviderID(*p.Provider):
		return errors.New("params.provider must be a provider id ([A-Za-z0-9._-], at most 256 bytes).")
	case p.Model == nil || *p.Model == "":
		return errors.New("params.model is required.")
	case p.Enabled == nil:
		return errors.New("params.enabled is required (true or false).")
	}
	return nil
}

// EnableResult is the result of model.enable.
type EnableResult struct {
	Provider            string `json:"provider"`
	Model               string `json:"model"`
	Enabled             bool   `json:"enabled"`
	ConfigurationReload string `json:"configuration_reload"`
	Stamp
}

// ModelRow is one model of model.catalog.models: an entry of its
// provider's valid cache (Listed), or an enabled model that cache does not
// list (Listed false, Enabled true).
type ModelRow struct {
	Provider      string   `json:"provider"`
	Model         string   `json:"model"`
	Name          string   `json:"name"`
	Efforts       []string `json:"efforts"`
	ContextWindow int64    `json:"context_window"`
	Enabled       bool     `json:"enabled"`
	Listed        bool     `json:"listed"`
}

// ProviderKey says whether a provider needs a key: a keyless one (ollama,
// a local openai-compatible server) needs none.
type ProviderKey struct {
	Provider    string `json:"provider"`
	KeyRequired bool   `json:"key_required"`
}

// ModelsResult is one page of model.catalog.models. Providers is present
// on the first page only.
type ModelsResult struct {
	Revision  string         `json:"revision"`
	Providers *[]ProviderKey `json:"providers,omitzero"`
	Models    []ModelRow     `json:"models"`
	Cursor    *string        `json:"cursor"`
	Stamp
}
