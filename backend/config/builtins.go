package config

import (
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Built-in providers (docs/protocol.md §10.6.4): scout lists them without
// any configuration. The keyed ones appear when their key variable is set,
// first; the keyless local ones always, last. Each base URL may come from a
// variable named and shaped the way the vendor's own SDK reads it.
const (
	// DefaultOllamaHost is where ollama listens unless OLLAMA_HOST says
	// otherwise.
	DefaultOllamaHost = "http://127.0.0.1:11434"
	// ollamaPort is the port of an OLLAMA_HOST without a scheme or port.
	ollamaPort = "11434"
)

// Builtin describes one built-in provider.
type Builtin struct {
	// ID is the provider's id, which a [[providers]] entry uses to
	// override or hide it.
	ID string
	// Type is its provider type.
	Type string
	// BaseURL is its base URL when BaseURLEnv is unset.
	BaseURL string
	// KeyEnv is the variable holding its key ("" for keyless ones); a
	// keyed built-in is listed only when it is set.
	KeyEnv string
	// BaseURLEnv is the variable that moves its base URL ("" for none).
	BaseURLEnv string
	// fromEnv turns BaseURLEnv's value into a base URL.
	fromEnv func(string) string
}

// Builtins are the built-in providers in the order they are listed: the
// keyed ones, then the keyless local ones.
var Builtins = []Builtin{
	{ID: "openai", Type: TypeOpenAI, BaseURL: "https://api.openai.com/v1", KeyEnv: "OPENAI_API_KEY",
		BaseURLEnv: "OPENAI_BASE_URL", fromEnv: trimSlashes}, // the SDK's base URL includes /v1
	{ID: "anthropic", Type: TypeAnthropic, BaseURL: "https://api.anthropic.com/v1", KeyEnv: "ANTHROPIC_API_KEY",
		BaseURLEnv: "ANTHROPIC_BASE_URL", fromEnv: anthropicURL}, // the SDK's is the origin; it adds /v1
	{ID: "openrouter", Type: TypeOpenAICompatible, BaseURL: "https://openrouter.ai/api/v1", KeyEnv: "OPENROUTER_API_KEY"},
	{ID: "gemini", Type: TypeOpenAICompatible, BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai", KeyEnv: "GEMINI_API_KEY"},
	{ID: "ollama", Type: TypeOllama, BaseURL: DefaultOllamaHost, BaseURLEnv: "OLLAMA_HOST", fromEnv: OllamaURL},
	{ID: "lmstudio", Type: TypeOpenAICompatible, BaseURL: "http://127.0.0.1:1234/v1"},
}

// BuiltinByID returns the built-in provider with id, or nil.
func BuiltinByID(id string) *Builtin {
	for i := range Builtins {
		if Builtins[i].ID == id {
			return &Builtins[i]
		}
	}
	return nil
}

// keyless reports whether the built-in is always listed.
func (b *Builtin) keyless() bool { return b.KeyEnv == "" }

// provider is the built-in as a provider in the environment of getenv. A
// base URL variable that is set wins, whatever it holds: a value that is
// not a usable URL makes refreshes fail with configuration_invalid (and
// Resolve warns), rather than sending the key somewhere the user did not
// mean.
func (b *Builtin) provider(getenv func(string) string) (p Provider, fromEnv bool) {
	p = Provider{ID: b.ID, Type: b.Type, BaseURL: b.BaseURL, APIKeyEnv: b.KeyEnv,
		RefreshTimeout: MaxRefreshTimeout, Source: SourceBuiltin}
	if b.BaseURLEnv != "" {
		if v := strings.TrimSpace(getenv(b.BaseURLEnv)); v != "" {
			p.BaseURL, fromEnv = b.fromEnv(v), true
		}
	}
	return p, fromEnv
}

func trimSlashes(v string) string { return strings.TrimRight(v, "/") }

// anthropicURL is ANTHROPIC_BASE_URL, the API's origin as Anthropic's SDKs
// take it, with the /v1 they add.
func anthropicURL(v string) string { return trimSlashes(v) + "/v1" }

// OllamaURL reads OLLAMA_HOST the way ollama's own client does: "host",
// "host:port" or a URL, quotes and spaces around it ignored. Without a
// scheme it is http and the port defaults to 11434; with http:// or
// https:// the port defaults to 80 or 443. A path is kept; a port that is
// not a number from 0 to 65535 is replaced by the default.
func OllamaURL(v string) string {
	v = strings.TrimSpace(strings.Trim(strings.TrimSpace(v), `"'`))
	port := ollamaPort
	scheme, hostport, ok := strings.Cut(v, "://")
	switch {
	case !ok:
		scheme, hostport = "http", v
	case scheme == "http":
		port = "80"
	case scheme == "https":
		port = "443"
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	host, p, err := net.SplitHostPort(hostport)
	switch {
	case err == nil:
		if n, err := strconv.Atoi(p); err == nil && n >= 0 && n <= 65535 {
			port = p
		}
	case hostport == "":
		host = "127.0.0.1"
	default:
		host = strings.Trim(hostport, "[]")
	}
	if host == "" {
		host = "127.0.0.1"
	}
	u := url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port), Path: "/" + path}
	return trimSlashes(u.String())
}

// Resolve returns the providers a backend child serves, from the
// configured entries (config.toml's, then an adopted .scout/config.toml's)
// and the environment: the keyed built-ins whose key variable is set or
// that config.toml names, then the other configured providers in their
// order, then the keyless built-ins. A config.toml entry with a built-in's
// id overrides it: the keys it sets replace the built-in's, the others
// keep the built-in's values; an entry with disabled = true hides it.
// warnings name the variables whose values cannot be used (never the
// values).
func Resolve(entries []Provider, getenv func(string) string) (out []Provider, warnings []string) {
	overrides := map[string]*Provider{}
	for i := range entries {
		if entries[i].Source == SourceUser && BuiltinByID(entries[i].ID) != nil {
			overrides[entries[i].ID] = &entries[i]
		}
	}
	add := func(b *Builtin) {
		e := overrides[b.ID]
		switch {
		case e != nil && e.Disabled:
			return
		case e == nil && !b.keyless() && strings.TrimSpace(getenv(b.KeyEnv)) == "":
			return
		}
		p, fromEnv := b.provider(getenv)
		if e != nil {
			fromEnv = fromEnv && e.set&setBaseURL == 0
			p = e.over(p)
		}
		if fromEnv && checkURL(p.BaseURL) != nil {
			warnings = append(warnings, b.BaseURLEnv+" is not an http or https URL with a host; the "+b.ID+" provider cannot be refreshed until it is fixed")
		}
		out = append(out, p)
	}
	for i := range Builtins {
		if !Builtins[i].keyless() {
			add(&Builtins[i])
		}
	}
	for _, e := range entries {
		if overrides[e.ID] == nil {
			out = append(out, e)
		}
	}
	for i := range Builtins {
		if Builtins[i].keyless() {
			add(&Builtins[i])
		}
	}
	return out, warnings
}

// over returns base with the keys e sets replacing base's.
func (e *Provider) over(base Provider) Provider {
	if e.set&setType != 0 {
		base.Type = e.Type
	}
	if e.set&setBaseURL != 0 {
		base.BaseURL = e.BaseURL
	}
	if e.set&setAuth != 0 {
		base.APIKeyEnv, base.CredentialFile = e.APIKeyEnv, e.CredentialFile
	}
	if e.set&setModels != 0 {
		base.EnabledModels = e.EnabledModels
	}
	if e.set&setTimeout != 0 {
		base.RefreshTimeout = e.RefreshTimeout
	}
	base.Source = SourceUser
	return base
}
