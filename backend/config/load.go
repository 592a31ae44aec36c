package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
)

// HomeDir returns the backend home: SCOUT_HOME, else $XDG_DATA_HOME/scout,
// else ~/.local/share/scout. Relative values are refused (the home must
// not depend on the working directory).
func HomeDir(getenv func(string) string) (string, error) {
	if h := getenv("SCOUT_HOME"); h != "" {
		if !filepath.IsAbs(h) {
			return "", errors.New("SCOUT_HOME must be an absolute path")
		}
		return filepath.Clean(h), nil
	}
	if x := getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "scout"), nil
	}
	home := UserHome(getenv)
	if home == "" {
		return "", errors.New("cannot find the home directory for the backend home; set SCOUT_HOME")
	}
	return filepath.Join(home, ".local", "share", "scout"), nil
}

// UserHome is $HOME, or the account's home directory, or "".
func UserHome(getenv func(string) string) string {
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Clean(h)
	}
	if h, err := os.UserHomeDir(); err == nil && filepath.IsAbs(h) {
		return h
	}
	return ""
}

// ReadUser reads config.toml from the home root. A missing file is the
// default configuration; any other problem is an *Error.
func ReadUser(home *fsguard.Root, dirs Dirs) (*User, error) {
	data, _, err := home.ReadFile(UserFile, MaxFileBytes)
	switch {
	case errors.Is(err, fsguard.ErrNotFound):
		return &User{EnrichmentURL: DefaultEnrichmentURL}, nil
	case errors.Is(err, fsguard.ErrTooLarge):
		return nil, &Error{File: UserFile, Msg: "the file is larger than 1 MiB"}
	case errors.Is(err, fsguard.ErrUnsafe):
		return nil, &Error{File: UserFile, Msg: "is a symlink or not a regular file"}
	case err != nil:
		return nil, &Error{File: UserFile, Msg: "cannot be read (" + err.Error() + ")"}
	}
	return ParseUser(data, dirs)
}

// LocalConfig is the workspace's .scout/config.toml as found on disk.
type LocalConfig struct {
	// Exists is false when there is no such file (no_local_config).
	Exists bool
	// Data is the file's content and Sum its SHA-256 in hex; both empty when
	// the file exists but cannot be read safely (Err says why).
	Data []byte
	Sum  string
	Err  error
}

// ReadLocal reads .scout/config.toml from the workspace root through the
// guarded helpers. Any entry at that path (even a symlink or a directory)
// counts as existing, so the workspace reports "untrusted" rather than
// "no_local_config" for it.
func ReadLocal(ws *fsguard.Root) LocalConfig {
	if _, err := ws.Lstat(ProjectFile); errors.Is(err, fsguard.ErrNotFound) || errors.Is(err, fsguard.ErrNotDir) {
		return LocalConfig{}
	}
	data, _, err := ws.ReadFile(ProjectFile, MaxFileBytes)
	if err != nil {
		msg := "cannot be read safely (a symlink, not a regular file, or unreadable)"
		if errors.Is(err, fsguard.ErrTooLarge) {
			msg = "the file is larger than 1 MiB"
		}
		return LocalConfig{Exists: true, Err: &Error{File: ProjectFile, Msg: msg}}
	}
	sum := sha256.Sum256(data)
	return LocalConfig{Exists: true, Data: data, Sum: hex.EncodeToString(sum[:])}
}

// Rules turns the user configuration and an adopted project configuration
// (nil when none) into policy rules: ignore rules on unless the project,
// else the user, turns them off; deny globs of both; every credential file
// protected.
func Rules(u *User, p *Project) policy.Rules {
	r := policy.Rules{RespectIgnore: true}
	files := []Files{u.Files}
	provs := [][]Provider{u.Providers}
	if p != nil {
		files = append(files, p.Files)
		provs = append(provs, p.Providers)
	}
	for _, f := range files {
		if f.RespectIgnore != nil {
			r.RespectIgnore = *f.RespectIgnore
		}
		r.Deny = append(r.Deny, f.Deny...)
	}
	for _, ps := range provs {
		for _, pr := range ps {
			if pr.CredentialFile != "" {
				r.Protected = append(r.Protected, pr.CredentialFile)
			}
		}
	}
	return r
}

// Providers merges the providers of both files; a project provider may not
// reuse an id of config.toml or a built-in provider's (only config.toml
// overrides those: a project must not point a user's key elsewhere).
func Providers(u *User, p *Project) ([]Provider, error) {
	out := append([]Provider{}, u.Providers...)
	if p == nil {
		return out, nil
	}
	ids := map[string]bool{}
	for _, pr := range u.Providers {
		ids[pr.ID] = true
	}
	for i, pr := range p.Providers {
		key := fmt.Sprintf("providers[%d].id", i+1)
		switch {
		case ids[pr.ID]:
			return nil, &Error{File: ProjectFile, Key: key, Msg: "a provider id is already declared in config.toml"}
		case BuiltinByID(pr.ID) != nil:
			return nil, &Error{File: ProjectFile, Key: key, Msg: "is a built-in provider's id; only config.toml can override it"}
		}
		out = append(out, pr)
	}
	return out, nil
}

// Candidates extracts, leniently, every protection a configuration file
// asks for: the deny globs and credential files that can be read from it
// even when the file as a whole is invalid (an unknown key elsewhere, a bad
// provider, more deny globs than the file may have, a table written as an
// array of tables or inline). They are reserved before adoption is
// attempted, so a failed adoption still protects them. A file that is not
// TOML yields nothing.
func Candidates(data []byte, base, userHome string) policy.Rules {
	var r policy.Rules
	doc, err := decode(ProjectFile, data)
	if err != nil {
		return r
	}
	for _, files := range tables(doc.m["files"]) {
		deny, _ := files["deny"].([]any)
		for _, g := range deny {
			if s, ok := g.(string); ok && policy.ValidDeny(s) == nil {
				r.Deny = append(r.Deny, s)
			}
		}
	}
	for _, p := range tables(doc.m["providers"]) {
		if s, ok := p["credential_file"].(string); ok {
			if abs, err := resolvePath(s, base, userHome); err == nil {
				r.Protected = append(r.Protected, abs)
			}
		}
	}
	return r
}

// tables is every table v holds as the TOML decoder gives it: a table, an
// array of tables ([[x]]), or an array holding inline tables.
func tables(v any) []map[string]any {
	switch v := v.(type) {
	case map[string]any:
		return []map[string]any{v}
	case []map[string]any:
		return v
	case []any:
		var out []map[string]any
		for _, e := range v {
			if t, ok := e.(map[string]any); ok {
				out = append(out, t)
			}
		}
		return out
	}
	return nil
}
