// Package cursor issues and checks the protocol's authenticated cursors
// (session.discover and project.index, docs/protocol.md §5 and §6): opaque to
// clients, at most 64 printable ASCII bytes, valid only in the child that
// issued them. A cursor names a walk and a sequence number within it:
//
//	<version>.<walk>.<seq>.<mac>
//
// walk and seq in lower-case base 36, mac the first 16 bytes of
// HMAC-SHA256(secret, "<version>.<walk>.<seq>") in unpadded base64url. The
// secret is drawn at random per Codec, and each child makes its own, so
// the child need remember nothing but its current walk and the one
// sequence it may accept next; single use is the caller's rule, kept with
// that sequence. The version tells the methods' cursors apart: one
// method's cursor is never accepted by the other.
package cursor

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

// MACBytes is the truncated HMAC-SHA256 length: 128 bits.
const MACBytes = 16

// MaxBytes bounds every cursor (the protocol's 64 bytes).
const MaxBytes = 64

// maxVersion keeps the longest cursor within MaxBytes:
// version + 2×13 base-36 digits + 3 dots + 22 MAC characters.
const maxVersion = MaxBytes - 2*13 - 3 - 22

// Codec encodes and checks the cursors of one method in one child.
type Codec struct {
	version string
	key     [32]byte
}

// New returns a codec for version (a short tag such as "d1", without
// dots) with a fresh random secret.
func New(version string) *Codec {
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		panic("cursor: no randomness for the secret") // crypto/rand never fails on Linux
	}
	return WithKey(version, key)
}

// WithKey returns a codec with a given secret (tests and fuzz targets).
func WithKey(version string, key [32]byte) *Codec {
	if version == "" || len(version) > maxVersion || strings.ContainsRune(version, '.') {
		panic("cursor: bad version tag " + strconv.Quote(version))
	}
	return &Codec{version: version, key: key}
}

// Encode returns the cursor for sequence seq of walk.
func (c *Codec) Encode(walk, seq uint64) string {
	body := c.version + "." + strconv.FormatUint(walk, 36) + "." + strconv.FormatUint(seq, 36)
	return body + "." + base64.RawURLEncoding.EncodeToString(c.mac(body))
}

// Decode checks a cursor's format and MAC. ok is false for anything this
// codec never issued (forged, tampered, another child's or another
// method's).
func (c *Codec) Decode(cursor string) (walk, seq uint64, ok bool) {
	if len(cursor) > MaxBytes {
		return 0, 0, false
	}
	i := strings.LastIndexByte(cursor, '.')
	if i < 0 {
		return 0, 0, false
	}
	body, tag := cursor[:i], cursor[i+1:]
	mac, err := base64.RawURLEncoding.Strict().DecodeString(tag)
	if err != nil || !hmac.Equal(mac, c.mac(body)) {
		return 0, 0, false
	}
	parts := strings.Split(body, ".")
	if len(parts) != 3 || parts[0] != c.version {
		return 0, 0, false
	}
	walk, err1 := strconv.ParseUint(parts[1], 36, 64)
	seq, err2 := strconv.ParseUint(parts[2], 36, 64)
	if err1 != nil || err2 != nil || c.Encode(walk, seq) != cursor {
		return 0, 0, false
	}
	return walk, seq, true
}

func (c *Codec) mac(body string) []byte {
	h := hmac.New(sha256.New, c.key[:])
	h.Write([]byte(body))
	return h.Sum(nil)[:MACBytes]
}
