package config

import (
	"net/url"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
)

// Limits on configuration values.
const (
	MaxDeny          = 1024
	MaxProviders     = 64
	MaxEnabledModels = 2048
	MaxProviderID    = 256
	// MaxRefreshTimeout is the protocol's total refresh timeout; the
	// configuration may only lower it.
	MaxRefreshTimeout = 300 * time.Second
)

// DefaultEnrichmentURL is used when [enrichment] url is not set.
const DefaultEnrichmentURL = "https://models.dev/api.json"

// Provider types.
const (
	TypeOpenAI           = "openai"
	TypeOpenAICompatible = "openai-compatible"
	TypeAnthropic        = "anthropic"
	TypeOllama           = "ollama"
)

// defaultBaseURL is each type's base URL when none is configured
// (openai-compatible has none and requires one).
var defaultBaseURL = map[string]string{
	TypeOpenAI:    "https://api.openai.com/v1",
	TypeAnthropic: "https://api.anthropic.com/v1",
	TypeOllama:    "http://localhost:11434",
}

// Source says which file declared a provider.
type Source string

// Provider sources.
const (
	SourceUser    Source = "user"
	SourceProject Source = "project"
	// SourceBuiltin is a built-in provider that no entry overrides.
	SourceBuiltin Source = "builtin"
)

// fieldSet records which keys of a [[providers]] entry were set, so an
// entry overriding a built-in replaces only those (Provider.over).
type fieldSet uint8

const (
	setType fieldSet = 1 << iota
	setBaseURL
	setAuth // api_key_env or credential_file
	setModels
	setTimeout
)

// Files is a [files] table.
type Files struct {
	// RespectIgnore is nil when the file does not set it (default true).
	RespectIgnore *bool
	// Deny are extra protected globs (gitignore syntax, no negations).
	Deny []string
}

// Provider is one validated [[providers]] entry.
type Provider struct {
	ID   string // [A-Za-z0-9._-], 1..256 bytes, unique
	Type string // openai | openai-compatible | anthropic | ollama
	// BaseURL is absolute http(s), without user info; the type's default
	// when not configured.
	BaseURL string
	// APIKeyEnv names the environment variable holding the key, or "".
	APIKeyEnv string
	// CredentialFile is the absolute, cleaned path of the key file, or "":
	// relative paths are resolved against the workspace root (project file)
	// or SCOUT_HOME (user file), "~/" against the user's home. It is always
	// protected from listing and reading.
	CredentialFile string
	// EnabledModels are the model ids offered for selection, in order.
	EnabledModels []string
	// RefreshTimeout is the total refresh timeout (0 < t <= 300 s).
	RefreshTimeout time.Duration
	// Source is the file that declared the provider (SourceBuiltin for a
	// built-in no entry overrides).
	Source Source
	// Disabled is set on a config.toml entry that hides a built-in
	// provider (id and disabled = true, nothing else).
	Disabled bool

	set fieldSet
}

// User is config.toml.
type User struct {
	Files     Files
	Providers []Provider
	// EnrichmentURL is the enrichment source, "" when turned off.
	EnrichmentURL string
	// Sessions is the [sessions] table.
	Sessions Sessions
}

// Project is a workspace's .scout/config.toml.
type Project struct {
	Files     Files
	Providers []Provider
}

// Dirs are the directories relative paths in configuration resolve against.
type Dirs struct {
	Home      string // SCOUT_HOME, for config.toml
	Workspace string // the workspace root, for .scout/config.toml
	UserHome  string // the user's home directory, for "~/"; "" if unknown
}

// ParseUser parses and validates config.toml.
func ParseUser(data []byte, dirs Dirs) (*User, error) {
	doc, err := decode(UserFile, data)
	if err != nil {
		return nil, err
	}
	u := &User{EnrichmentURL: DefaultEnrichmentURL}
	if u.Files, err = parseFiles(doc); err != nil {
		return nil, err
	}
	if u.Providers, err = parseProviders(doc, dirs.Home, dirs.UserHome, SourceUser); err != nil {
		return nil, err
	}
	if u.EnrichmentURL, err = parseEnrichment(doc); err != nil {
		return nil, err
	}
	if u.Sessions, err = parseSessions(doc); err != nil {
		return nil, err
	}
	return u, doc.done()
}

// ParseProject parses and validates .scout/config.toml, which may hold only
// [files] and [[providers]].
func ParseProject(data []byte, dirs Dirs) (*Project, error) {
	doc, err := decode(ProjectFile, data)
	if err != nil {
		return nil, err
	}
	p := &Project{}
	if p.Files, err = parseFiles(doc); err != nil {
		return nil, err
	}
	if p.Providers, err = parseProviders(doc, dirs.Workspace, dirs.UserHome, SourceProject); err != nil {
		return nil, err
	}
	return p, doc.done()
}

func parseFiles(doc *table) (Files, error) {
	var f Files
	t, err := doc.sub("files")
	if err != nil || t == nil {
		return f, err
	}
	if f.RespectIgnore, err = t.boolean("respect_ignore"); err != nil {
		return f, err
	}
	if f.Deny, err = t.strings("deny", MaxDeny); err != nil {
		return f, err
	}
	for _, g := range f.Deny {
		if err := policy.ValidDeny(g); err != nil {
			return f, t.errf("deny", "%v", err)
		}
	}
	return f, t.done()
}

func parseEnrichment(doc *table) (string, error) {
	t, err := doc.sub("enrichment")
	if err != nil || t == nil {
		return DefaultEnrichmentURL, err
	}
	u, set, err := t.str("url")
	if err != nil {
		return "", err
	}
	if !set {
		u = DefaultEnrichmentURL
	} else if u != "" {
		if err := checkURL(u); err != nil {
			return "", t.errf("url", "%s", err.Error())
		}
	}
	return u, t.done()
}

// envName reports whether s matches ^[A-Za-z_][A-Za-z0-9_]{0,255}$.
func envName(s string) bool {
	if len(s) == 0 || len(s) > 256 || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !envByte(s[i]) {
			return false
		}
	}
	return true
}

// envByte reports whether c is in [A-Za-z0-9_].
func envByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// ValidProviderID reports whether id is a safe provider id: the protocol's
// rule (wire.ValidProviderID), so every configured provider can be refreshed.
func ValidProviderID(id string) bool { return wire.ValidProviderID(id) }

func parseProviders(doc *table, base, userHome string, src Source) ([]Provider, error) {
	ts, err := doc.tables("providers")
	if err != nil {
		return nil, err
	}
	if len(ts) > MaxProviders {
		return nil, &Error{File: doc.file, Key: "providers", Msg: "more than 64 providers"}
	}
	seen := map[string]bool{}
	out := make([]Provider, 0, len(ts))
	for _, t := range ts {
		p, err := parseProvider(t, base, userHome, src)
		if err != nil {
			return nil, err
		}
		if seen[p.ID] {
			return nil, t.errf("id", "is used by two providers")
		}
		seen[p.ID] = true
		out = append(out, p)
	}
	return out, nil
}

func parseProvider(t *table, base, userHome string, src Source) (Provider, error) {
	p := Provider{Source: src, RefreshTimeout: MaxRefreshTimeout}
	var err error
	if p.ID, err = required(t, "id"); err != nil {
		return p, err
	}
	if !ValidProviderID(p.ID) {
		return p, t.errf("id", "must be 1 to 256 characters from A-Z a-z 0-9 . _ -")
	}
	// An entry of config.toml with a built-in's id overrides it: every
	// other key is optional, and disabled = true hides it.
	builtin := src == SourceUser && BuiltinByID(p.ID) != nil
	if hidden, err := parseDisabled(t, &p, builtin); hidden || err != nil {
		return p, err
	}
	if err := parseType(t, &p, builtin); err != nil {
		return p, err
	}
	if err := parseEndpoint(t, &p, builtin); err != nil {
		return p, err
	}
	if err := parseAuth(t, &p, base, userHome); err != nil {
		return p, err
	}
	if err := parseModels(t, &p); err != nil {
		return p, err
	}
	return p, t.done()
}

// parseDisabled reads disabled: only a built-in provider can be hidden,
// with an entry of just id and disabled = true (disabled = false is an
// override like any other).
func parseDisabled(t *table, p *Provider, builtin bool) (hidden bool, err error) {
	d, err := t.boolean("disabled")
	switch {
	case err != nil || d == nil:
		return false, err
	case !builtin:
		return false, t.errf("disabled", "only hides a built-in provider (%s); remove this entry instead", builtinIDs())
	case !*d:
		return false, nil
	case len(t.m) != 2:
		return false, t.errf("disabled", "an entry that hides a built-in provider has only id and disabled = true")
	}
	p.Disabled = true
	return true, t.done()
}

func builtinIDs() string {
	ids := make([]string, len(Builtins))
	for i, b := range Builtins {
		ids[i] = b.ID
	}
	return strings.Join(ids, ", ")
}

func parseType(t *table, p *Provider, builtin bool) error {
	typ, set, err := t.str("type")
	switch {
	case err != nil:
		return err
	case !set && builtin:
		return nil
	case !set || typ == "":
		return t.errf("type", "is required")
	}
	if _, ok := defaultBaseURL[typ]; !ok && typ != TypeOpenAICompatible {
		return t.errf("type", "must be openai, openai-compatible, anthropic or ollama")
	}
	p.Type, p.set = typ, p.set|setType
	return nil
}

func required(t *table, k string) (string, error) {
	s, set, err := t.str(k)
	if err != nil {
		return "", err
	}
	if !set || s == "" {
		return "", t.errf(k, "is required")
	}
	return s, nil
}

func parseEndpoint(t *table, p *Provider, builtin bool) error {
	u, set, err := t.str("base_url")
	if err != nil {
		return err
	}
	if !set {
		switch {
		case builtin:
			return nil // the built-in's base URL stays
		case p.Type == TypeOpenAICompatible:
			return t.errf("base_url", "is required for type openai-compatible")
		}
		p.BaseURL = defaultBaseURL[p.Type]
		return nil
	}
	if err := checkURL(u); err != nil {
		return t.errf("base_url", "%s", err.Error())
	}
	p.BaseURL, p.set = strings.TrimRight(u, "/"), p.set|setBaseURL
	return nil
}

// checkURL accepts absolute http(s) URLs with a host and no user info,
// query or fragment.
func checkURL(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return errString("is not a valid URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return errString("must be an http or https URL")
	case u.Hostname() == "":
		return errString("has no host")
	case u.User != nil:
		return errString("must not contain user information (use api_key_env or credential_file)")
	case u.RawQuery != "" || u.Fragment != "":
		return errString("must not have a query or fragment")
	}
	return nil
}

type errString string

func (e errString) Error() string { return string(e) }

func parseAuth(t *table, p *Provider, base, userHome string) error {
	env, envSet, err := t.str("api_key_env")
	if err != nil {
		return err
	}
	file, fileSet, err := t.str("credential_file")
	if err != nil {
		return err
	}
	switch {
	case envSet && fileSet:
		return t.errf("credential_file", "cannot be combined with api_key_env")
	case envSet && !envName(env):
		return t.errf("api_key_env", "must be an environment variable name")
	case fileSet:
		abs, err := resolvePath(file, base, userHome)
		if err != nil {
			return t.errf("credential_file", "%s", err.Error())
		}
		p.CredentialFile = abs
	}
	p.APIKeyEnv = env
	if envSet || fileSet {
		p.set |= setAuth
	}
	return nil
}

// resolvePath makes a configured path absolute: "~/" against the user's
// home, relative paths against base.
func resolvePath(p, base, userHome string) (string, error) {
	switch {
	case p == "" || strings.ContainsRune(p, 0):
		return "", errString("must be a non-empty path")
	case p == "~" || strings.HasPrefix(p, "~/"):
		if userHome == "" {
			return "", errString("uses ~/ but the home directory is unknown")
		}
		return filepath.Join(userHome, strings.TrimPrefix(p, "~")), nil
	case filepath.IsAbs(p):
		return filepath.Clean(p), nil
	case base == "":
		return "", errString("is relative but has no base directory")
	}
	return filepath.Join(base, p), nil
}

func parseModels(t *table, p *Provider) error {
	models, err := t.strings("enabled_models", MaxEnabledModels)
	if err != nil {
		return err
	}
	if models != nil {
		p.set |= setModels
	}
	seen := map[string]bool{}
	for _, m := range models {
		if m == "" || len(m) > 256 || strings.ContainsFunc(m, unicode.IsControl) {
			return t.errf("enabled_models", "has an empty, overlong or unprintable model id")
		}
		if !seen[m] {
			seen[m] = true
			p.EnabledModels = append(p.EnabledModels, m)
		}
	}
	d, set, err := t.str("refresh_timeout")
	if err != nil || !set {
		return err
	}
	timeout, perr := time.ParseDuration(d)
	if perr != nil || timeout <= 0 || timeout > MaxRefreshTimeout {
		return t.errf("refresh_timeout", "must be a duration like \"30s\", above 0 and at most 300s")
	}
	p.RefreshTimeout, p.set = timeout, p.set|setTimeout
	return nil
}
