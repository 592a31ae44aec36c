package demo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/template"
	"time"

	"github.com/scoutdev/scout/assets"
	"github.com/scoutdev/scout/backend/catalog"
	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/sessions"
)

// Permissions of what the demo writes in its home, as the backend's own.
const (
	dirPerm  = 0o700
	filePerm = 0o600
)

// configTemplate is rendered first: the caches' fingerprints are computed
// from the configuration it becomes.
const configTemplate = "config.toml.tmpl"

// renderer turns the embedded templates into the home's files.
type renderer struct {
	home, workspace string
	now             time.Time
	urls            map[string]string
	providers       map[string]config.Provider // config.toml as parsed
}

// writeAll writes config.toml, then every other template, and returns the
// lock files' templates (to be renewed).
func (r *renderer) writeAll() (locks []string, err error) {
	if err := r.write(configTemplate, r.funcs("")); err != nil {
		return nil, err
	}
	if err := r.parseConfig(); err != nil {
		return nil, err
	}
	err = fs.WalkDir(assets.Demo(), ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || name == configTemplate || !strings.HasSuffix(name, ".tmpl") {
			return err
		}
		if strings.HasSuffix(name, ".lock.tmpl") {
			locks = append(locks, name)
		}
		return r.write(name, r.funcs(name))
	})
	return locks, err
}

// parseConfig reads back the config.toml just written, exactly as the
// backend will.
func (r *renderer) parseConfig() error {
	data, err := os.ReadFile(filepath.Join(r.home, "config.toml"))
	if err != nil {
		return err
	}
	u, err := config.ParseUser(data, config.Dirs{Home: r.home})
	if err != nil {
		return fmt.Errorf("the demo's config.toml is invalid: %w", err)
	}
	r.providers = map[string]config.Provider{}
	for _, p := range u.Providers {
		r.providers[p.ID] = p
	}
	return nil
}

// renew renders a lock template again with now as the demo's time and
// writes it in place (truncating: a reader that sees it empty falls back
// to its modification time, which is fresh too).
func (r *renderer) renew(name string, now time.Time) error {
	again := *r
	again.now = now
	return again.write(name, again.funcs(name))
}

// write renders the template name into the home (the name without .tmpl).
func (r *renderer) write(name string, funcs template.FuncMap) error {
	src, err := fs.ReadFile(assets.Demo(), name)
	if err != nil {
		return err
	}
	t, err := template.New(name).Option("missingkey=error").Funcs(funcs).Parse(string(src))
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := t.Execute(&out, nil); err != nil {
		return err
	}
	dst := filepath.Join(r.home, filepath.FromSlash(r.path(strings.TrimSuffix(name, ".tmpl"))))
	if err := os.MkdirAll(filepath.Dir(dst), dirPerm); err != nil {
		return err
	}
	return os.WriteFile(dst, out.Bytes(), filePerm)
}

// claudeFolder is the name, in the fixtures' paths, of the Claude Code
// project folder of the workspace, whose real name depends on it.
const claudeFolder = "claude-project-folder"

// dotPrefix starts the fixtures' names that begin with a dot at home
// (go:embed leaves out names beginning with a dot).
const dotPrefix = "dot-"

// path is the file a fixture's name becomes in the home.
func (r *renderer) path(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		switch {
		case p == claudeFolder:
			parts[i] = sessions.ClaudeProjectFolder(r.workspace)
		case strings.HasPrefix(p, dotPrefix):
			parts[i] = "." + strings.TrimPrefix(p, dotPrefix)
		}
	}
	return strings.Join(parts, "/")
}

// funcs are the template functions for the template name (the package
// comment lists them). A catalog cache's provider is its file name.
func (r *renderer) funcs(name string) template.FuncMap {
	id := strings.TrimSuffix(path.Base(name), ".json.tmpl")
	return template.FuncMap{
		"cwd": func() (string, error) {
			b, err := json.Marshal(r.workspace)
			return string(b), err
		},
		"ago": func(d string) (string, error) {
			dur, err := time.ParseDuration(d)
			return r.now.Add(-dur).UTC().Format(time.RFC3339), err
		},
		"root":        func() string { return r.workspace },
		"projectHash": func() string { sum := sha256.Sum256([]byte(r.workspace)); return hex.EncodeToString(sum[:]) },
		"pid":         os.Getpid,
		"url": func(id string) (string, error) {
			if u, ok := r.urls[id]; ok {
				return u, nil
			}
			return "", fmt.Errorf("no provider %q", id)
		},
		"fingerprint": func() (string, error) {
			p, ok := r.providers[id]
			if !ok {
				return "", fmt.Errorf("the cache %s names no configured provider", name)
			}
			return fingerprint(id, p.Type, p.BaseURL), nil
		},
		"fingerprintFor": func(typ, baseURL string) string { return fingerprint(id, typ, baseURL) },
	}
}

// fingerprint is the catalog package's fingerprint of a provider identity.
func fingerprint(id, typ, baseURL string) string {
	p := catalog.Provider{ID: id, Type: typ, BaseURL: baseURL}
	return p.Fingerprint()
}
