package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strings"
	"time"
)

// Provider types (docs/design.md "config.toml").
const (
	TypeOpenAI           = "openai"
	TypeOpenAICompatible = "openai-compatible"
	TypeAnthropic        = "anthropic"
	TypeOllama           = "ollama"
)

// DefaultRefreshTimeout bounds a refresh's catalog HTTP when the
// configuration sets no refresh_timeout.
const DefaultRefreshTimeout = 300 * time.Second

// Provider is one configured provider as this package uses it. The backend
// builds it from the validated configuration; CredentialFile is already
// resolved to an absolute path.
type Provider struct {
	// ID is the provider's safe name ([A-Za-z0-9._-], at most 256 bytes).
	ID string
	// Type is one of the Type constants.
	Type string
	// BaseURL is the API root, e.g. https://api.openai.com/v1.
	BaseURL string
	// APIKeyEnv names the environment variable holding the key, or "".
	APIKeyEnv string
	// CredentialFile is the absolute path of a file holding the key, or "".
	CredentialFile string
	// EnabledModels are the model ids offered as choices, in the user's order.
	EnabledModels []string
	// RefreshTimeout bounds a refresh's catalog HTTP (0: 300 s).
	RefreshTimeout time.Duration
}

// fingerprintDomain separates this hash from any other use of SHA-256.
const fingerprintDomain = "scout.catalog.fingerprint.v1"

// Fingerprint is "sha256:" and the lowercase hex SHA-256 of the provider's
// identity, the exact bytes
//
//	"scout.catalog.fingerprint.v1" 0x00 type 0x00 base_url 0x00 id
//
// where base_url is the configured string with trailing slashes removed.
// Type and id never hold a NUL byte, so the encoding is unambiguous. A cache
// written for another identity (another type, endpoint or id) does not match.
func (p *Provider) Fingerprint() string {
	h := sha256.New()
	h.Write([]byte(fingerprintDomain))
	for _, part := range []string{p.Type, strings.TrimRight(p.BaseURL, "/"), p.ID} {
		h.Write([]byte{0})
		h.Write([]byte(part))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// timeout is the refresh's total HTTP bound.
func (p *Provider) timeout() time.Duration {
	if p.RefreshTimeout <= 0 {
		return DefaultRefreshTimeout
	}
	return p.RefreshTimeout
}

// needsKey reports whether the provider cannot work without a credential.
// openai and anthropic need one; an openai-compatible server (a local one,
// say) may go without when none is configured; ollama has none.
func (p *Provider) needsKey() bool {
	switch p.Type {
	case TypeOpenAI, TypeAnthropic:
		return true
	case TypeOpenAICompatible:
		return p.APIKeyEnv != "" || p.CredentialFile != ""
	}
	return false
}

// endpoint is the parsed base URL, or nil when the definition cannot be used
// for HTTP: an unknown type, or a base URL that is not an absolute http or
// https URL with a host and without credentials, query or fragment.
func (p *Provider) endpoint() *url.URL {
	switch p.Type {
	case TypeOpenAI, TypeOpenAICompatible, TypeAnthropic, TypeOllama:
	default:
		return nil
	}
	u, err := url.Parse(strings.TrimRight(p.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" ||
		u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return nil
	}
	return u
}

// modelsPath is the path below the base URL that lists models.
func (p *Provider) modelsPath() string {
	if p.Type == TypeOllama {
		return "/api/tags"
	}
	return "/models"
}
