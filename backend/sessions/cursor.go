package sessions

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

// cursorVersion prefixes every cursor, so a later format can be told apart.
const cursorVersion = "d1"

// cursorMACBytes is the truncated HMAC-SHA256 length: 128 bits.
const cursorMACBytes = 16

// cursorCodec issues and checks session.discover cursors:
// "d1.<scan>.<seq>.<mac>", scan and seq in lower-case base 36, mac the first
// 16 bytes of HMAC-SHA256(secret, "d1.<scan>.<seq>") in unpadded base64url.
// The secret is random per child, so a cursor is valid only in the child
// that issued it and the child need remember nothing but the current scan.
// The longest cursor is 3+13+1+13+1+22 = 53 ASCII bytes.
type cursorCodec struct {
	key [32]byte
}

func newCursorCodec() *cursorCodec {
	c := &cursorCodec{}
	if _, err := rand.Read(c.key[:]); err != nil {
		panic("sessions: no randomness for the cursor secret") // crypto/rand never fails on Linux
	}
	return c
}

// encode returns the cursor for sequence seq of scan.
func (c *cursorCodec) encode(scan, seq uint64) string {
	body := cursorVersion + "." + strconv.FormatUint(scan, 36) + "." + strconv.FormatUint(seq, 36)
	return body + "." + base64.RawURLEncoding.EncodeToString(c.mac(body))
}

// decode checks a cursor's format and MAC. ok is false for anything this
// child never issued.
func (c *cursorCodec) decode(cursor string) (scan, seq uint64, ok bool) {
	if len(cursor) > 64 {
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
	if len(parts) != 3 || parts[0] != cursorVersion {
		return 0, 0, false
	}
	scan, err1 := strconv.ParseUint(parts[1], 36, 64)
	seq, err2 := strconv.ParseUint(parts[2], 36, 64)
	if err1 != nil || err2 != nil || c.encode(scan, seq) != cursor {
		return 0, 0, false
	}
	return scan, seq, true
}

func (c *cursorCodec) mac(body string) []byte {
	h := hmac.New(sha256.New, c.key[:])
	h.Write([]byte(body))
	return h.Sum(nil)[:cursorMACBytes]
}
