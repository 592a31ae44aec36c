package config

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/scoutdev/scout/backend/fsguard"
)

// trustFormat identifies trusted.json's schema.
const trustFormat = "scout.trusted.v1"

// MaxTrusted bounds trusted.json; the oldest decisions are dropped first.
const MaxTrusted = 4096

// Trusted is one remembered decision: the workspace root (symlinks
// resolved) and the SHA-256 of the .scout/config.toml that was trusted.
type Trusted struct {
	Root   string `json:"root"`
	SHA256 string `json:"sha256"`
}

// TrustStore is trusted.json.
type TrustStore struct {
	Format     string    `json:"format"`
	Workspaces []Trusted `json:"workspaces"`
}

// LoadTrust reads trusted.json from the home root. A missing file is an
// empty store. A broken one is an error; the caller treats every workspace
// as untrusted (the safe reading) and a later trust rewrites it.
func LoadTrust(home *fsguard.Root) (*TrustStore, error) {
	data, _, err := home.ReadFile(TrustFile, MaxFileBytes)
	if errors.Is(err, fsguard.ErrNotFound) {
		return &TrustStore{Format: trustFormat}, nil
	}
	if err != nil {
		return &TrustStore{Format: trustFormat}, &Error{File: TrustFile, Msg: "cannot be read safely"}
	}
	var s TrustStore
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil || s.Format != trustFormat || dec.More() {
		return &TrustStore{Format: trustFormat}, &Error{File: TrustFile, Msg: "is not a valid scout.trusted.v1 document"}
	}
	return &s, nil
}

// IsTrusted reports whether root's configuration with this SHA-256 was
// trusted.
func (s *TrustStore) IsTrusted(root, sum string) bool {
	for _, w := range s.Workspaces {
		if w.Root == root && w.SHA256 == sum {
			return true
		}
	}
	return false
}

// With returns a copy of s recording root's trusted SHA-256 (replacing an
// earlier decision for root), newest last.
func (s *TrustStore) With(root, sum string) *TrustStore {
	out := &TrustStore{Format: trustFormat}
	for _, w := range s.Workspaces {
		if w.Root != root {
			out.Workspaces = append(out.Workspaces, w)
		}
	}
	out.Workspaces = append(out.Workspaces, Trusted{Root: root, SHA256: sum})
	if n := len(out.Workspaces); n > MaxTrusted {
		out.Workspaces = out.Workspaces[n-MaxTrusted:]
	}
	return out
}

// Save writes the store atomically to the home root (mode 0600).
func (s *TrustStore) Save(home *fsguard.Root) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return home.WriteFileAtomic(TrustFile, append(data, '\n'), 0o600)
}
