package catalog

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

	"github.com/scoutdev/scout/backend/wire"
)

// Page bounds (initialize's limits).
var (
	pageEntries = wire.DefaultLimits.CatalogPageEntries
	pageBytes   = wire.DefaultLimits.CatalogPageBytes
)

// Method tags written into cursors: the method that issued a cursor. Both
// methods page the same snapshot with the same params, so either continues a
// cursor of the other (docs/protocol.md §7: "they share one snapshot").
// model.catalog.models pages other items (models, not choices), so its
// cursors carry their own tag and continue only that method.
const (
	tagCatalog = "a"
	tagStatus  = "s"
	tagModels  = "m"
)

// cursorMACBytes is how much of the HMAC a cursor carries (16 bytes, 22
// base64url characters): forging one is as hard as guessing 128 bits.
const cursorMACBytes = 16

// cursors issues and checks the opaque page cursors of this child:
// "<revision>.<tag>.<offset>.<mac>", at most 64 ASCII bytes, authenticated
// with a per-child secret so nothing needs remembering.
type cursors struct {
	secret []byte
}

func (c *cursors) mac(revision, tag string, offset int) string {
	m := hmac.New(sha256.New, c.secret)
	m.Write([]byte(revision + "." + tag + "." + strconv.Itoa(offset)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:cursorMACBytes])
}

func (c *cursors) issue(revision, tag string, offset int) string {
	return revision + "." + tag + "." + strconv.Itoa(offset) + "." + c.mac(revision, tag, offset)
}

// parse returns the revision and offset of a cursor this child issued for
// model.catalog or model.catalog.status (either continues the other), or
// ok=false for anything else (answered invalid_cursor).
func (c *cursors) parse(cursor string) (revision string, offset int, ok bool) {
	return c.parseTagged(cursor, tagCatalog, tagStatus)
}

// parseModels is parse for the cursors of model.catalog.models.
func (c *cursors) parseModels(cursor string) (revision string, offset int, ok bool) {
	return c.parseTagged(cursor, tagModels)
}

func (c *cursors) parseTagged(cursor string, tags ...string) (revision string, offset int, ok bool) {
	parts := strings.Split(cursor, ".")
	if len(parts) != 4 || !slices.Contains(tags, parts[1]) {
		return "", 0, false
	}
	tag := parts[1]
	offset, err := strconv.Atoi(parts[2])
	if err != nil || offset < 0 || strconv.Itoa(offset) != parts[2] {
		return "", 0, false
	}
	if !hmac.Equal([]byte(parts[3]), []byte(c.mac(parts[0], tag, offset))) {
		return "", 0, false
	}
	return parts[0], offset, true
}

// pager is a result being cut to size: its items (choices or models) and
// cursor members and its stamp, and the result itself for encoding.
type pager[T any] struct {
	items  *[]T
	cursor **string
	stamp  *wire.Stamp
	result any
}

func (p *pager[T]) set(items []T, cursor *string) { *p.items, *p.cursor = items, cursor }

// encode marshals the result with a "ts" of the length the server writes.
func (p *pager[T]) encode() ([]byte, error) {
	p.stamp.TS = tsPlaceholder
	defer func() { p.stamp.TS = "" }()
	return wire.Marshal(p.result)
}

// tsPlaceholder has the length of every "ts" the server writes.
const tsPlaceholder = "0000-00-00T00:00:00.000Z"

// lineBytes is the length of the whole response line the server writes for
// a result: {"jsonrpc":"2.0","id":"<id>","result":<result>}\n. Request ids
// never need escaping (their grammar is [A-Za-z0-9._:-]).
func lineBytes(id string, result []byte) int {
	return len(`{"jsonrpc":"2.0","id":"`) + len(id) + len(`","result":`) + len(result) + len("}\n")
}

// fillPage puts as many items from offset into r as fit both bounds: at
// most 100, and the whole encoded response line for request id at most
// 32,768 bytes. Sizes are estimated from each item's encoding and then
// confirmed on the real encoded result. It returns the number taken; 0 only
// when not even one item fits (the first page's fixed members can crowd
// them out; the cursor then continues at the same offset).
func fillPage[T any](r *pager[T], id string, items []T, offset int, next func(int) *string) (int, error) {
	rest := items[offset:]
	n := min(len(rest), pageEntries)
	sizes := make([]int, n)
	for i := range sizes {
		b, err := wire.Marshal(&rest[i])
		if err != nil {
			return 0, err
		}
		sizes[i] = len(b) + 1 // the comma
	}
	for {
		r.set([]T{}, next(offset+n))
		empty, err := r.encode()
		if err != nil {
			return 0, err
		}
		total := lineBytes(id, empty)
		k := 0
		for k < n && total+sizes[k] <= pageBytes+boolToInt(k == 0) {
			total += sizes[k]
			k++
		}
		if k < n {
			n = k // the cursor may change length: measure again with k
			continue
		}
		r.set(rest[:n], next(offset+n))
		full, err := r.encode()
		if err != nil {
			return 0, err
		}
		if lineBytes(id, full) <= pageBytes || n == 0 {
			return n, nil
		}
		n--
	}
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
