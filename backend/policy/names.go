package policy

import "strings"

// noiseNames are skipped as noise (docs/protocol.md §4.4) whatever their type, with
// or without ignore rules: version-control metadata and installed packages.
var noiseNames = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".jj": true, "node_modules": true,
}

// credentialNames are protected names (docs/protocol.md §4.3), compared without
// regard to ASCII case so that ".ENV" or "ID_RSA" on a case-insensitive
// file system are protected too. They apply to files and directories alike.
var credentialNames = map[string]bool{
	".env": true, ".netrc": true, ".npmrc": true, ".pypirc": true, ".git-credentials": true,
	".ssh": true, ".gnupg": true, ".aws": true, ".azure": true, ".kube": true, ".docker": true,
}

// envExamples are the .env.* names that are documentation, not secrets.
var envExamples = map[string]bool{".env.example": true, ".env.sample": true, ".env.template": true}

var credentialSuffixes = []string{".pem", ".key", ".p12", ".pfx", ".keystore"}

var credentialPrefixes = []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}

// BuiltinProtected reports whether name is one of the built-in credential
// names of docs/protocol.md §4.3.
func BuiltinProtected(name string) bool {
	if name != "" && name[0] != '.' && name[0]|0x20 != 'i' {
		// Only a suffix can match a name that starts with neither a dot
		// nor an i (the usual name): decided from its extension, without
		// lowering the whole name.
		return protectedSuffix(name)
	}
	lower := asciiLower(name)
	if credentialNames[lower] {
		return true
	}
	if strings.HasPrefix(lower, ".env.") && !envExamples[lower] {
		return true
	}
	for _, s := range credentialSuffixes {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	for _, p := range credentialPrefixes {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}

// maxSuffix is the length of the longest of credentialSuffixes.
const maxSuffix = len(".keystore")

// protectedSuffix reports whether name ends with one of credentialSuffixes
// regardless of ASCII case. Each suffix is a dot and no other, so it can
// only be name's extension from its last dot.
func protectedSuffix(name string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 || len(name)-dot > maxSuffix {
		return false
	}
	var buf [maxSuffix]byte
	ext := buf[:len(name)-dot]
	for i := range ext {
		c := name[dot+i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		ext[i] = c
	}
	for _, s := range credentialSuffixes {
		if string(ext) == s {
			return true
		}
	}
	return false
}

// IsNoise reports whether name is one of the always-skipped noise names.
func IsNoise(name string) bool { return noiseNames[name] }

// asciiLower lowercases ASCII letters only, without allocating when name
// has none in upper case.
func asciiLower(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; 'A' <= c && c <= 'Z' {
			return strings.Map(func(r rune) rune {
				if 'A' <= r && r <= 'Z' {
					return r + 'a' - 'A'
				}
				return r
			}, name)
		}
	}
	return name
}
