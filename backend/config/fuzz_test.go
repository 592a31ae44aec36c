package config

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzParseProject feeds arbitrary bytes to the .scout/config.toml parser.
// Errors are *Error naming no directory; an accepted file has valid,
// unique providers with absolute credential files; and everything it would
// adopt (deny globs, credential files) is among the candidates reserved
// before adoption (docs/protocol.md §5 workspace.trust step 2), so a failed or
// cancelled adoption can never leave adopted protection unreserved.
func FuzzParseProject(f *testing.F) {
	f.Add([]byte(full))
	f.Add([]byte("[files]\ndeny = [\"secrets/**\", \"*.key\"]\n"))
	f.Add([]byte("[[providers]]\nid = \"p\"\ntype = \"ollama\"\ncredential_file = \"../k\"\n"))
	f.Add([]byte("providers = [{id = \"p\", type = \"ollama\", credential_file = \"k\"}]\n"))
	f.Add([]byte("[enrichment]\nurl = \"\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProject(data, dirs)
		cand := Candidates(data, dirs.Workspace, dirs.UserHome)
		if err != nil {
			checkConfigError(t, err)
			return
		}
		ids := map[string]bool{}
		for _, pr := range p.Providers {
			if !ValidProviderID(pr.ID) || ids[pr.ID] || pr.Source != SourceProject {
				t.Fatalf("invalid provider accepted: %+v", pr)
			}
			ids[pr.ID] = true
			if pr.CredentialFile != "" && !slices.Contains(cand.Protected, pr.CredentialFile) {
				t.Fatalf("credential file %q adopted but not reserved (%q)", pr.CredentialFile, cand.Protected)
			}
		}
		for _, g := range p.Files.Deny {
			if !slices.Contains(cand.Deny, g) {
				t.Fatalf("deny glob %q adopted but not reserved (%q)", g, cand.Deny)
			}
		}
		rules := Rules(&User{}, p)
		for _, prot := range rules.Protected {
			if !filepath.IsAbs(prot) {
				t.Fatalf("relative protected path %q", prot)
			}
		}
	})
}

func checkConfigError(t *testing.T, err error) {
	t.Helper()
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("error of type %T: %v", err, err)
	}
	for _, d := range []string{dirs.Home, dirs.Workspace, dirs.UserHome} {
		if strings.Contains(err.Error(), d) {
			t.Fatalf("error names a directory: %v", err)
		}
	}
}

// FuzzParseTrust feeds arbitrary bytes to the trusted.json parser: a
// document it accepts is one strict JSON object (valid UTF-8, no duplicate
// member, nothing after it) of the right format, and what it accepted
// survives a save and a reload unchanged.
func FuzzParseTrust(f *testing.F) {
	f.Add([]byte(`{"format":"scout.trusted.v1","workspaces":[{"root":"/w","sha256":"00"}]}`))
	f.Add([]byte(`{"format":"scout.trusted.v1","workspaces":[]}`))
	f.Add([]byte(`{"format":"scout.trusted.v1","workspaces":null}`))
	f.Add([]byte(`{"format":"scout.trusted.v2"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseTrust(data)
		if err != nil {
			checkConfigError(t, err)
			if s == nil || len(s.Workspaces) != 0 {
				t.Fatalf("a broken document yields %+v", s)
			}
			return
		}
		if v := jsontext.Value(data); !v.IsValid() || v.Kind() != '{' {
			t.Fatalf("accepted %q, which is not one strict JSON object", data)
		}
		again, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		s2, err := ParseTrust(again)
		if err != nil || !reflect.DeepEqual(s.Workspaces, s2.Workspaces) && len(s.Workspaces)+len(s2.Workspaces) > 0 {
			t.Fatalf("round trip of %q: %+v, %v", data, s2, err)
		}
	})
}
