package catalog

import (
	"path/filepath"
	"strings"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// maxCredentialBytes bounds a credential file.
const maxCredentialBytes = 64 << 10

// credential returns the provider's key: "" with a nil error when the
// provider needs none (ollama, or an openai-compatible server configured
// without one), else the key or an authentication_unavailable failure. A key
// comes from api_key_env when it is set, else from credential_file, read
// through fsguard (the file's directory is trusted, the file itself must be a
// regular file, not a symlink). The key is the first line, trimmed, and must
// be visible ASCII (0x21..0x7e): anything else cannot go into a header.
func (p *Provider) credential(getenv func(string) string) (string, error) {
	if !p.needsKey() {
		return "", nil
	}
	var raw string
	switch {
	case p.APIKeyEnv != "":
		raw = getenv(p.APIKeyEnv)
	case p.CredentialFile != "":
		data, err := readCredentialFile(p.CredentialFile)
		if err != nil {
			return "", failure(wire.ReasonAuthenticationUnavailable, "credential file unreadable")
		}
		raw = string(data)
	}
	key := firstLine(raw)
	if !visibleASCII(key) {
		return "", failure(wire.ReasonAuthenticationUnavailable, "no usable key")
	}
	return key, nil
}

// authState is the authentication member of a relevant provider.
func (p *Provider) authState(getenv func(string) string) string {
	if _, err := p.credential(getenv); err != nil {
		return wire.AuthUnavailable
	}
	return wire.AuthReady
}

func readCredentialFile(path string) ([]byte, error) {
	root, err := fsguard.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	data, _, err := root.ReadFile(filepath.Base(path), maxCredentialBytes)
	return data, err
}

// firstLine is the first non-blank line of s, trimmed.
func firstLine(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func visibleASCII(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
