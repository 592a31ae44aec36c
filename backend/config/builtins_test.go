package config

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func ids(ps []Provider) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

func resolveUser(t *testing.T, doc string, env map[string]string) ([]Provider, []string) {
	t.Helper()
	u, err := ParseUser([]byte(doc), dirs)
	if err != nil {
		t.Fatal(err)
	}
	return Resolve(u.Providers, envOf(env))
}

// Without configuration the keyless local built-ins are listed; a keyed one
// joins, first, when its key variable holds something other than blanks.
func TestResolveWithoutConfiguration(t *testing.T) {
	got, warn := resolveUser(t, "", nil)
	if !slices.Equal(ids(got), []string{"ollama", "lmstudio"}) || len(warn) != 0 {
		t.Fatalf("no configuration: %v %v", ids(got), warn)
	}
	want := []Provider{
		{ID: "ollama", Type: TypeOllama, BaseURL: "http://127.0.0.1:11434", RefreshTimeout: MaxRefreshTimeout, Source: SourceBuiltin},
		{ID: "lmstudio", Type: TypeOpenAICompatible, BaseURL: "http://127.0.0.1:1234/v1", RefreshTimeout: MaxRefreshTimeout, Source: SourceBuiltin},
	}
	for i := range want {
		if !equalProvider(got[i], want[i]) {
			t.Errorf("built-in %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	env := map[string]string{"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k", "OPENROUTER_API_KEY": "k", "GEMINI_API_KEY": " \t"}
	got, _ = resolveUser(t, "", env)
	if !slices.Equal(ids(got), []string{"openai", "anthropic", "openrouter", "ollama", "lmstudio"}) {
		t.Fatalf("detected keys: %v", ids(got))
	}
	env["GEMINI_API_KEY"] = "k"
	got, _ = resolveUser(t, "", env)
	wantKeyed := map[string]Provider{
		"openai":     {Type: TypeOpenAI, BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY"},
		"anthropic":  {Type: TypeAnthropic, BaseURL: "https://api.anthropic.com/v1", APIKeyEnv: "ANTHROPIC_API_KEY"},
		"openrouter": {Type: TypeOpenAICompatible, BaseURL: "https://openrouter.ai/api/v1", APIKeyEnv: "OPENROUTER_API_KEY"},
		"gemini":     {Type: TypeOpenAICompatible, BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai", APIKeyEnv: "GEMINI_API_KEY"},
	}
	for _, p := range got[:4] {
		w := wantKeyed[p.ID]
		w.ID, w.RefreshTimeout, w.Source = p.ID, MaxRefreshTimeout, SourceBuiltin
		if !equalProvider(p, w) {
			t.Errorf("%s = %+v, want %+v", p.ID, p, w)
		}
	}
}

// The base-URL variables follow each SDK: OPENAI_BASE_URL includes /v1,
// ANTHROPIC_BASE_URL is the origin (scout adds /v1), OLLAMA_HOST is a host,
// host:port or URL.
func TestResolveBaseURLVariables(t *testing.T) {
	env := map[string]string{
		"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://127.0.0.1:9/s/openai/v1/",
		"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9/s/anthropic/",
		"OLLAMA_HOST": "127.0.0.1:9",
	}
	got, warn := resolveUser(t, "", env)
	want := map[string]string{
		"openai": "http://127.0.0.1:9/s/openai/v1", "anthropic": "http://127.0.0.1:9/s/anthropic/v1",
		"ollama": "http://127.0.0.1:9", "lmstudio": "http://127.0.0.1:1234/v1",
	}
	for _, p := range got {
		if p.BaseURL != want[p.ID] {
			t.Errorf("%s base URL %q, want %q", p.ID, p.BaseURL, want[p.ID])
		}
	}
	if len(warn) != 0 {
		t.Errorf("warnings: %v", warn)
	}
	env["OPENAI_BASE_URL"] = "not a url"
	_, warn = resolveUser(t, "", env)
	if len(warn) != 1 || !strings.Contains(warn[0], "OPENAI_BASE_URL") || strings.Contains(warn[0], "not a url") {
		t.Errorf("a bad OPENAI_BASE_URL: warnings %q", warn)
	}
	env["OPENAI_BASE_URL"] = "http://:9/v1" // a port and no host
	_, warn = resolveUser(t, "", env)
	if len(warn) != 1 || !strings.Contains(warn[0], "OPENAI_BASE_URL") {
		t.Errorf("a host-less OPENAI_BASE_URL: warnings %q", warn)
	}
}

func TestOllamaURL(t *testing.T) {
	tests := map[string]string{
		"":                          "http://127.0.0.1:11434",
		"0.0.0.0":                   "http://0.0.0.0:11434",
		"example.com":               "http://example.com:11434",
		":11435":                    "http://127.0.0.1:11435",
		"127.0.0.1:11435":           "http://127.0.0.1:11435",
		"[::1]:4000":                "http://[::1]:4000",
		"::1":                       "http://[::1]:11434",
		`"127.0.0.1:5"`:             "http://127.0.0.1:5",
		"http://127.0.0.1":          "http://127.0.0.1:80",
		"https://ollama.example":    "https://ollama.example:443",
		"http://127.0.0.1:9/s/x/":   "http://127.0.0.1:9/s/x",
		"http://127.0.0.1:99999999": "http://127.0.0.1:80",
	}
	for in, want := range tests {
		if got := OllamaURL(in); got != want {
			t.Errorf("OllamaURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// An entry with a built-in's id overrides it: the keys it sets replace
// the built-in's, the rest stay; it is listed even without the key
// variable, in the built-in's place. id + disabled = true hides one.
func TestResolveOverridesAndHides(t *testing.T) {
	doc := `
[[providers]]
id = "mine"
type = "ollama"

[[providers]]
id = "openai"
enabled_models = ["gpt-5"]
refresh_timeout = "20s"

[[providers]]
id = "anthropic"
base_url = "http://127.0.0.1:9/v1"
credential_file = "keys/a"

[[providers]]
id = "ollama"
disabled = true
`
	got, _ := resolveUser(t, doc, map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://127.0.0.1:8/v1"})
	if !slices.Equal(ids(got), []string{"openai", "anthropic", "mine", "lmstudio"}) {
		t.Fatalf("order: %v", ids(got))
	}
	openai := Provider{ID: "openai", Type: TypeOpenAI, BaseURL: "http://127.0.0.1:8/v1", APIKeyEnv: "OPENAI_API_KEY",
		EnabledModels: []string{"gpt-5"}, RefreshTimeout: 20 * time.Second, Source: SourceUser}
	if !equalProvider(got[0], openai) {
		t.Errorf("openai = %+v, want %+v", got[0], openai)
	}
	anthropic := Provider{ID: "anthropic", Type: TypeAnthropic, BaseURL: "http://127.0.0.1:9/v1", CredentialFile: "/h/scout/keys/a",
		RefreshTimeout: MaxRefreshTimeout, Source: SourceUser}
	if !equalProvider(got[1], anthropic) {
		t.Errorf("anthropic = %+v, want %+v", got[1], anthropic)
	}
}

func TestBuiltinEntryErrors(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"disabled with more", "[[providers]]\nid = \"ollama\"\ndisabled = true\ntype = \"ollama\"\n", "providers[1].disabled: an entry that hides a built-in provider has only id"},
		{"disabled custom", "[[providers]]\nid = \"mine\"\ntype = \"ollama\"\ndisabled = true\n", "providers[1].disabled: only hides a built-in provider"},
		{"disabled not bool", "[[providers]]\nid = \"openai\"\ndisabled = \"yes\"\n", "providers[1].disabled: must be true or false"},
		{"custom without type", "[[providers]]\nid = \"mine\"\n", "providers[1].type: is required"},
		{"bad override type", "[[providers]]\nid = \"openai\"\ntype = \"grpc\"\n", "providers[1].type: must be"},
	}
	for _, tt := range tests {
		_, err := ParseUser([]byte(tt.doc), dirs)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	u, err := ParseUser([]byte("[[providers]]\nid = \"lmstudio\"\ndisabled = false\n"), dirs)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Resolve(u.Providers, envOf(nil)); !slices.Equal(ids(got), []string{"ollama", "lmstudio"}) {
		t.Errorf("disabled = false hid it: %v", ids(got))
	}
	// A project file cannot override a built-in: it would point the user's
	// key elsewhere.
	p, err := ParseProject([]byte("[[providers]]\nid = \"openai\"\ntype = \"openai\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"), dirs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Providers(&User{}, p); err == nil || !strings.Contains(err.Error(), "built-in") {
		t.Errorf("a project override of a built-in: %v", err)
	}
	if _, err := ParseProject([]byte("[[providers]]\nid = \"ollama\"\ndisabled = true\n"), dirs); err == nil {
		t.Error("a project file hid a built-in")
	}
}
