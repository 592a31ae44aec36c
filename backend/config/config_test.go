package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/internal/makefs"
)

var dirs = Dirs{Home: "/h/scout", Workspace: "/w/proj", UserHome: "/home/u"}

const full = `
[files]
respect_ignore = false
deny = ["secrets/**", "*.sqlite"]

[[providers]]
id = "work"
type = "openai"
api_key_env = "OPENAI_API_KEY"
enabled_models = ["gpt-5", "gpt-5-mini", "gpt-5"]
refresh_timeout = "30s"

[[providers]]
id = "local.llm_1"
type = "openai-compatible"
base_url = "http://127.0.0.1:8080/v1/"
credential_file = "keys/local.key"

[[providers]]
id = "claude"
type = "anthropic"
credential_file = "~/.config/anthropic.key"

[enrichment]
url = ""
`

func TestParseUserFull(t *testing.T) {
	u, err := ParseUser([]byte(full), dirs)
	if err != nil {
		t.Fatal(err)
	}
	if u.Files.RespectIgnore == nil || *u.Files.RespectIgnore || !slices.Equal(u.Files.Deny, []string{"secrets/**", "*.sqlite"}) {
		t.Errorf("files = %+v", u.Files)
	}
	if u.EnrichmentURL != "" {
		t.Errorf("enrichment = %q", u.EnrichmentURL)
	}
	want := []Provider{
		{ID: "work", Type: "openai", BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY", EnabledModels: []string{"gpt-5", "gpt-5-mini"}, RefreshTimeout: 30 * time.Second, Source: SourceUser},
		{ID: "local.llm_1", Type: "openai-compatible", BaseURL: "http://127.0.0.1:8080/v1", CredentialFile: "/h/scout/keys/local.key", RefreshTimeout: MaxRefreshTimeout, Source: SourceUser},
		{ID: "claude", Type: "anthropic", BaseURL: "https://api.anthropic.com/v1", CredentialFile: "/home/u/.config/anthropic.key", RefreshTimeout: MaxRefreshTimeout, Source: SourceUser},
	}
	for i := range want {
		if !equalProvider(u.Providers[i], want[i]) {
			t.Errorf("provider %d = %+v, want %+v", i, u.Providers[i], want[i])
		}
	}
	r := Rules(u, nil)
	if r.RespectIgnore || len(r.Deny) != 2 || !slices.Equal(r.Protected, []string{"/h/scout/keys/local.key", "/home/u/.config/anthropic.key"}) {
		t.Errorf("rules = %+v", r)
	}
}

func equalProvider(a, b Provider) bool {
	return a.ID == b.ID && a.Type == b.Type && a.BaseURL == b.BaseURL && a.APIKeyEnv == b.APIKeyEnv &&
		a.CredentialFile == b.CredentialFile && slices.Equal(a.EnabledModels, b.EnabledModels) &&
		a.RefreshTimeout == b.RefreshTimeout && a.Source == b.Source
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"syntax", "[files\n", "config.toml: line 1: not valid TOML"},
		{"syntax, no newline", "[files", "config.toml: line 1: not valid TOML"},
		{"bad value", "[files]\nrespect_ignore = tru\n", "config.toml: line 2: not valid TOML"},
		{"duplicate key", "[files]\nrespect_ignore = true\nrespect_ignore = false\n", "line 3: not valid TOML"},
		{"unknown top", "colour = 1\n", "config.toml: colour: unknown key"},
		{"unknown files key", "[files]\nrespect = true\n", "files.respect: unknown key"},
		{"unknown provider key", "[[providers]]\nid = \"a\"\ntype = \"ollama\"\nmodel = \"x\"\n", "providers[1].model: unknown key"},
		{"unprintable key", "\"bad\\u001bkey\" = 1\n", "(an unprintable key): unknown key"},
		{"wrong type bool", "[files]\nrespect_ignore = \"yes\"\n", "files.respect_ignore: must be true or false"},
		{"wrong type deny", "[files]\ndeny = \"x\"\n", "files.deny: must be an array of strings"},
		{"deny element type", "[files]\ndeny = [1]\n", "files.deny: must be an array of strings"},
		{"negated deny", "[files]\ndeny = [\"!x\"]\n", "files.deny: a deny glob may not be a negation"},
		{"files not table", "files = 3\n", "files: must be a table"},
		{"providers not array", "[providers]\nid = \"a\"\n", "providers: must be an array of tables"},
		{"missing id", "[[providers]]\ntype = \"ollama\"\n", "providers[1].id: is required"},
		{"bad id", "[[providers]]\nid = \"a/b\"\ntype = \"ollama\"\n", "providers[1].id: must be"},
		{"long id", "[[providers]]\nid = \"" + strings.Repeat("a", 257) + "\"\ntype = \"ollama\"\n", "providers[1].id: must be"},
		{"unknown type", "[[providers]]\nid = \"a\"\ntype = \"gemini\"\n", "providers[1].type: must be"},
		{"duplicate ids", "[[providers]]\nid = \"a\"\ntype = \"ollama\"\n[[providers]]\nid = \"a\"\ntype = \"ollama\"\n", "providers[2].id: is used by two providers"},
		{"compatible without url", "[[providers]]\nid = \"a\"\ntype = \"openai-compatible\"\n", "providers[1].base_url: is required"},
		{"bad url", "[[providers]]\nid = \"a\"\ntype = \"openai\"\nbase_url = \"ftp://x\"\n", "must be an http or https URL"},
		{"url without host", "[[providers]]\nid = \"a\"\ntype = \"openai\"\nbase_url = \"http://:8080/v1\"\n", "providers[1].base_url: has no host"},
		{"enrichment without host", "[enrichment]\nurl = \"https://:443/api.json\"\n", "enrichment.url: has no host"},
		{"url with user", "[[providers]]\nid = \"a\"\ntype = \"openai\"\nbase_url = \"https://u:p@x\"\n", "must not contain user information"},
		{"both auth", "[[providers]]\nid = \"a\"\ntype = \"openai\"\napi_key_env = \"K\"\ncredential_file = \"k\"\n", "cannot be combined"},
		{"bad env", "[[providers]]\nid = \"a\"\ntype = \"openai\"\napi_key_env = \"1K\"\n", "api_key_env: must be"},
		{"bad timeout", "[[providers]]\nid = \"a\"\ntype = \"openai\"\nrefresh_timeout = \"10m\"\n", "refresh_timeout: must be"},
		{"timeout type", "[[providers]]\nid = \"a\"\ntype = \"openai\"\nrefresh_timeout = 30\n", "refresh_timeout: must be a string"},
		{"empty model", "[[providers]]\nid = \"a\"\ntype = \"openai\"\nenabled_models = [\"\"]\n", "enabled_models: has an empty"},
		{"bad enrichment", "[enrichment]\nurl = \"file:///etc/passwd\"\n", "enrichment.url: must be an http"},
		{"unknown enrichment key", "[enrichment]\nurl = \"\"\nx = 1\n", "enrichment.x: unknown key"},
	}
	for _, tt := range tests {
		_, err := ParseUser([]byte(tt.doc), dirs)
		var ce *Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.name, err, tt.want)
			continue
		}
		for _, leak := range []string{"/h/", "/w/", "/home/", "gemini", "yes", "secret"} {
			if strings.Contains(err.Error(), leak) {
				t.Errorf("%s: error %q quotes %q", tt.name, err, leak)
			}
		}
	}
}

func TestParseProject(t *testing.T) {
	p, err := ParseProject([]byte("[files]\ndeny = [\"x\"]\n[[providers]]\nid = \"p\"\ntype = \"ollama\"\ncredential_file = \"cfg/key\"\n"), dirs)
	if err != nil {
		t.Fatal(err)
	}
	if p.Providers[0].CredentialFile != "/w/proj/cfg/key" || p.Providers[0].Source != SourceProject {
		t.Errorf("provider = %+v", p.Providers[0])
	}
	if _, err := ParseProject([]byte("[enrichment]\nurl = \"\"\n"), dirs); err == nil || !strings.Contains(err.Error(), ".scout/config.toml: enrichment: unknown key") {
		t.Errorf("enrichment in a project file: %v", err)
	}
	u, _ := ParseUser([]byte("[[providers]]\nid = \"p\"\ntype = \"ollama\"\n"), dirs)
	if _, err := Providers(u, p); err == nil {
		t.Error("a project provider reused a user provider id")
	}
}

func TestCandidates(t *testing.T) {
	doc := "[files]\ndeny = [\"a/**\", \"!neg\", 3]\nbogus = 1\n[[providers]]\nid = \"bad id\"\ncredential_file = \"k.json\"\n[[providers]]\ncredential_file = \"/abs/k\"\n"
	if _, err := ParseProject([]byte(doc), dirs); err == nil {
		t.Fatal("invalid document parsed")
	}
	r := Candidates([]byte(doc), dirs.Workspace, dirs.UserHome)
	if !slices.Equal(r.Deny, []string{"a/**"}) || !slices.Equal(r.Protected, []string{"/w/proj/k.json", "/abs/k"}) {
		t.Errorf("candidates = %+v", r)
	}
	if r := Candidates([]byte("[[[ not toml"), "/w", ""); len(r.Deny)+len(r.Protected) != 0 {
		t.Errorf("candidates of garbage = %+v", r)
	}
	// Whatever shape the tables have, and however many globs there are,
	// every protection that can be read is a candidate: inline provider
	// tables, [[files]], a glob past the 1,024 the file may hold.
	many := strings.Repeat(`"x",`, MaxDeny)
	for _, c := range []struct{ doc, deny, protected string }{
		{"providers = [{id = \"p\", credential_file = \"inline.json\", bogus = 1}]\n", "", "/w/proj/inline.json"},
		{"[[files]]\ndeny = [\"d.txt\"]\n", "d.txt", ""},
		{"[files]\ndeny = [" + many + "\"past.txt\"]\n", "past.txt", ""},
	} {
		if _, err := ParseProject([]byte(c.doc), dirs); err == nil {
			t.Fatalf("%q parsed", c.doc)
		}
		r := Candidates([]byte(c.doc), dirs.Workspace, dirs.UserHome)
		if c.deny != "" && !slices.Contains(r.Deny, c.deny) || c.protected != "" && !slices.Contains(r.Protected, c.protected) {
			t.Errorf("candidates of %.60q: deny %d globs (%q wanted), protected %q", c.doc, len(r.Deny), c.deny, r.Protected)
		}
	}
}

func TestHomeDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		env  map[string]string
		want string
		err  bool
	}{
		{map[string]string{"SCOUT_HOME": "/s", "XDG_DATA_HOME": "/x", "HOME": "/u"}, "/s", false},
		{map[string]string{"SCOUT_HOME": "rel"}, "", true},
		{map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/u"}, "/x/scout", false},
		{map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/u"}, "/u/.local/share/scout", false},
		{map[string]string{"HOME": "/u"}, "/u/.local/share/scout", false},
	}
	for _, tt := range tests {
		got, err := HomeDir(env(tt.env))
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("HomeDir(%v) = %q, %v", tt.env, got, err)
		}
	}
}

func TestTrustStoreAndLocal(t *testing.T) {
	home := makefs.MustMake(t, "x")
	ws := makefs.MustMake(t, ".scout/config.toml << [files]\ndeny = [\"x\"]\n")
	hr, _ := fsguard.OpenRoot(home)
	defer hr.Close()
	wr, _ := fsguard.OpenRoot(ws)
	defer wr.Close()
	local := ReadLocal(wr)
	if !local.Exists || local.Err != nil || len(local.Sum) != 64 {
		t.Fatalf("local = %+v", local)
	}
	s, err := LoadTrust(hr)
	if err != nil || s.IsTrusted(ws, local.Sum) {
		t.Fatalf("empty store: %v", err)
	}
	if err := s.With(ws, local.Sum).With("/other", "00").Save(hr); err != nil {
		t.Fatal(err)
	}
	s, err = LoadTrust(hr)
	if err != nil || !s.IsTrusted(ws, local.Sum) || s.IsTrusted(ws, "00") || len(s.Workspaces) != 2 {
		t.Fatalf("reloaded store: %+v %v", s, err)
	}
	if err := hr.WriteFileAtomic(TrustFile, []byte(`{"format":"scout.trusted.v1","workspaces":[],"x":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := LoadTrust(hr); err == nil || len(s.Workspaces) != 0 {
		t.Errorf("broken store loaded: %+v %v", s, err)
	}
	none := makefs.MustMake(t, "a")
	nr, _ := fsguard.OpenRoot(none)
	defer nr.Close()
	if l := ReadLocal(nr); l.Exists {
		t.Errorf("no local config: %+v", l)
	}
	linked := makefs.MustMake(t, "real.toml << x", ".scout/config.toml => ../real.toml")
	lr, _ := fsguard.OpenRoot(linked)
	defer lr.Close()
	if l := ReadLocal(lr); !l.Exists || l.Err == nil {
		t.Errorf("symlinked local config: %+v", l)
	}
	_ = filepath.Join
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(full))
	f.Add([]byte("[files]\ndeny = [\"!x\"]\n"))
	f.Add([]byte("[[providers]]\nid = \"a\"\ntype = \"ollama\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		u, err := ParseUser(data, dirs)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if strings.Contains(err.Error(), "/h/") || strings.Contains(err.Error(), "/w/") {
				t.Fatalf("error names a directory: %v", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, p := range u.Providers {
			if !ValidProviderID(p.ID) || ids[p.ID] || p.RefreshTimeout <= 0 || p.RefreshTimeout > MaxRefreshTimeout {
				t.Fatalf("invalid provider accepted: %+v", p)
			}
			if p.CredentialFile != "" && !filepath.IsAbs(p.CredentialFile) {
				t.Fatalf("relative credential file: %q", p.CredentialFile)
			}
			ids[p.ID] = true
		}
		_ = Candidates(data, dirs.Workspace, dirs.UserHome)
	})
}

func TestProviderIDDotNamesRefused(t *testing.T) {
	for _, id := range []string{".", ".."} {
		if ValidProviderID(id) {
			t.Errorf("%q accepted as a provider id; model.refresh could never name it", id)
		}
	}
}
