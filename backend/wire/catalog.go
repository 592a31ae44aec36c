package wire

import (
	"errors"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Optional is a member that is absent, null or a value: model.catalog's
// selection is present (possibly null) on the first page only.
type Optional[T any] struct {
	Present bool
	Value   *T
}

// Some returns a present Optional holding v (null when v is nil).
func Some[T any](v *T) Optional[T] { return Optional[T]{Present: true, Value: v} }

// IsZero reports an absent member, so omitzero leaves it out.
func (o Optional[T]) IsZero() bool { return !o.Present }

// MarshalJSONTo writes null or the value.
func (o Optional[T]) MarshalJSONTo(e *jsontext.Encoder) error {
	if o.Value == nil {
		return e.WriteToken(jsontext.Null)
	}
	return json.MarshalEncode(e, o.Value)
}

// UnmarshalJSONFrom reads null or a value; an absent member never calls it.
func (o *Optional[T]) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	o.Present = true
	if d.PeekKind() == 'n' {
		o.Value = nil
		_, err := d.ReadToken()
		return err
	}
	o.Value = new(T)
	return json.UnmarshalDecode(d, o.Value)
}

// Choice is one selectable model of the catalog.
type Choice struct {
	Provider   string   `json:"provider"`
	Model      string   `json:"model"`
	Name       string   `json:"name"`
	Efforts    []string `json:"efforts"`
	Selectable bool     `json:"selectable"`
}

// Selection is the selected model.
type Selection struct {
	Provider string  `json:"provider"`
	Model    string  `json:"model"`
	Effort   *string `json:"effort"`
}

// Catalog notice codes.
const (
	NoticeMissingCache              = "missing_cache"
	NoticeEmptyCache                = "empty_cache"
	NoticeInvalidCache              = "invalid_cache"
	NoticeAuthenticationUnavailable = "authentication_unavailable"
)

// CatalogNotice is a notice about a relevant provider.
type CatalogNotice struct {
	Code     string `json:"code"`
	Provider string `json:"provider"`
}

// CatalogResult is one page of model.catalog. Selection and Notices are
// present on the first page only.
type CatalogResult struct {
	Revision  string              `json:"revision"`
	Choices   []Choice            `json:"choices"`
	Cursor    *string             `json:"cursor"`
	Selection Optional[Selection] `json:"selection,omitzero"`
	Notices   *[]CatalogNotice    `json:"notices,omitzero"`
	Stamp
}

// Catalog statuses of a provider's cache.
const (
	CatalogAvailable               = "available"
	CatalogMissingCache            = "missing_cache"
	CatalogEmptyCache              = "empty_cache"
	CatalogInvalidFormat           = "invalid_format"
	CatalogInvalidSchema           = "invalid_schema"
	CatalogIncompatibleFingerprint = "incompatible_fingerprint"
)

// Authentication states of a provider.
const (
	AuthReady       = "ready"
	AuthUnavailable = "authentication_unavailable"
	AuthNotChecked  = "not_checked"
)

// Provider recoveries in model.catalog.status.
const (
	RecoveryConfigureAuthentication = "configure_authentication"
	RecoveryRefreshCatalog          = "refresh_catalog"
	RecoveryEnableModelsAndRestart  = "enable_models_and_restart"
	// RecoveryNone is shared with session.discover's "none".
)

// ProviderStatus is one provider in model.catalog.status.
type ProviderStatus struct {
	Provider       string `json:"provider"`
	CatalogStatus  string `json:"catalog_status"`
	Authentication string `json:"authentication"`
	Relevant       bool   `json:"relevant"`
	Recovery       string `json:"recovery"`
}

// MaxStatusProviders bounds model.catalog.status's providers.
const MaxStatusProviders = 32

// CatalogStatusResult is one page of model.catalog.status. Selection, Notices
// and Providers are present on the first page only.
type CatalogStatusResult struct {
	Revision            string              `json:"revision"`
	Choices             []Choice            `json:"choices"`
	Cursor              *string             `json:"cursor"`
	Selection           Optional[Selection] `json:"selection,omitzero"`
	Notices             *[]CatalogNotice    `json:"notices,omitzero"`
	ConfigurationReload string              `json:"configuration_reload"`
	Providers           *[]ProviderStatus   `json:"providers,omitzero"`
	Stamp
}

// MaxProviderIDBytes bounds a provider id.
const MaxProviderIDBytes = 256

// ValidProviderID reports whether id is a safe provider name:
// [A-Za-z0-9._-], 1..256 bytes.
func ValidProviderID(id string) bool {
	if len(id) == 0 || len(id) > MaxProviderIDBytes || id == "." || id == ".." {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// RefreshParams is the params of model.refresh.
type RefreshParams struct {
	Provider *string `json:"provider"`
}

// Validate requires a safe provider name.
func (p *RefreshParams) Validate() error {
	if p.Provider == nil || !ValidProviderID(*p.Provider) {
		return errors.New("params.provider must be a provider id ([A-Za-z0-9._-], at most 256 bytes).")
	}
	return nil
}

// Refresh outcomes.
const (
	OutcomeRefreshed = "refreshed"
	OutcomeFailed    = "failed"
)

// Refresh failure reasons.
const (
	ReasonAuthenticationUnavailable = "authentication_unavailable"
	ReasonAuthenticationRejected    = "authentication_rejected"
	ReasonConfigurationInvalid      = "configuration_invalid"
	ReasonRemoteUnavailable         = "remote_unavailable"
	ReasonRemoteTimeout             = "remote_timeout"
	ReasonRateLimited               = "rate_limited"
	ReasonEmptyCatalog              = "empty_catalog"
	ReasonInvalidCatalog            = "invalid_catalog"
	ReasonCatalogLimit              = "catalog_limit"
	ReasonCacheWriteFailed          = "cache_write_failed"
)

// RecoveryReloadCatalog tells the client to reload catalog and status.
const RecoveryReloadCatalog = "reload_catalog"

// RefreshResult is the result of model.refresh.
type RefreshResult struct {
	Provider            string  `json:"provider"`
	Outcome             string  `json:"outcome"`
	Reason              *string `json:"reason"`
	CatalogRevision     *string `json:"catalog_revision"`
	CatalogError        *string `json:"catalog_error"`
	Recovery            string  `json:"recovery"`
	ConfigurationReload string  `json:"configuration_reload"`
	SelectionUnchanged  bool    `json:"selection_unchanged"`
	Stamp
}

// SelectParams is the params of model.select.
type SelectParams struct {
	Provider *string `json:"provider"`
	Model    *string `json:"model"`
	Effort   *string `json:"effort"`
	Revision *string `json:"revision"`
}

// Validate requires provider, model and revision.
func (p *SelectParams) Validate() error {
	switch {
	case p.Provider == nil || !ValidProviderID(*p.Provider):
		return errors.New("params.provider must be a provider id.")
	case p.Model == nil || *p.Model == "":
		return errors.New("params.model is required.")
	case p.Revision == nil || *p.Revision == "":
		return errors.New("params.revision is required.")
	}
	return nil
}

// SelectResult is the result of model.select.
type SelectResult struct {
	Selection Selection `json:"selection"`
	Revision  string    `json:"revision"`
	Stamp
}
