package rank

import (
	"encoding/binary"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// index is a snapshot's paths prepared once for matching: folded text,
// rune classes and a rune bitmask per path. ASCII paths (the usual case)
// live in byte arenas where rune index = byte offset, and their original
// case is read from the path strings themselves; the others are decoded
// into rune arenas with each rune's byte offset.
type index struct {
	paths []string
	ents  []entry

	fold  []byte  // ASCII paths: lower-cased bytes
	cls   []uint8 // ASCII paths: rune classes
	rorig []rune  // other paths: original runes
	rfold []rune  // other paths: lower-cased runes
	rcls  []uint8 // other paths: rune classes
	roff  []int32 // other paths: byte offset of each rune
}

// entry locates one path in the arenas.
type entry struct {
	mask  uint64 // runeMask of the folded path
	start int32  // first rune in the arena
	n     int32  // runes
	bytes int32  // bytes (sahilm's unmatched term counts bytes)
	ascii bool
}

// indexChunk is how many paths one worker prepares at a time in newIndex.
const indexChunk = 4096

// newIndex prepares paths; it does not copy the strings. ASCII paths are
// prepared in parallel, each at its own place in the byte arenas (the sum
// of the lengths before it, so a non-ASCII path leaves a hole), and the
// rare others afterwards, in order.
func newIndex(paths []string) *index {
	x := &index{paths: paths, ents: make([]entry, len(paths))}
	total := 0
	for i, p := range paths {
		x.ents[i].start = int32(total)
		total += len(p)
	}
	x.fold, x.cls = make([]byte, total), make([]uint8, total)
	chunks := (len(paths) + indexChunk - 1) / indexChunk
	others := make([][]int, chunks)
	forChunks(chunks, func(c int) {
		for i := c * indexChunk; i < min((c+1)*indexChunk, len(paths)); i++ {
			if !x.prepareASCII(i, x.ents[i].start, paths[i]) {
				others[c] = append(others[c], i)
			}
		}
	})
	for _, is := range others {
		for _, i := range is {
			x.ents[i] = x.addRunes(paths[i])
		}
	}
	return x
}

// prepare prepares path p as path i, its ASCII bytes at start in the
// byte arenas.
func (x *index) prepare(i int, start int32, p string) {
	if !x.prepareASCII(i, start, p) {
		x.ents[i] = x.addRunes(p)
	}
}

// prepareASCII prepares path p as path i at start in the byte arenas and
// reports true, or reports false when p is not ASCII.
func (x *index) prepareASCII(i int, start int32, p string) bool {
	a, b := int(start), int(start)+len(p)
	mask, ok := prepareASCII(x.fold[a:b], x.cls[a:b], p)
	if ok {
		x.ents[i] = entry{mask: mask, start: start, n: int32(len(p)), bytes: int32(len(p)), ascii: true}
	}
	return ok
}

// forChunks runs work(c) for every chunk c, on as many goroutines as
// there are processors (at most one per chunk).
func forChunks(chunks int, work func(c int)) {
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		for c := range chunks {
			work(c)
		}
		return
	}
	var next atomic.Int32
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for c := int(next.Add(1) - 1); c < chunks; c = int(next.Add(1) - 1) {
				work(c)
			}
		})
	}
	wg.Wait()
}

// Byte kinds for prepareASCII. kindEnd stands for the byte before the
// path's first and after its last.
const (
	kindOther uint8 = iota
	kindLower       // a-z
	kindUpper       // A-Z
	kindSep         // one of sahilm's separators but '/'
	kindSlash       // '/'
	kindEnd
)

var (
	kindOf [256]uint8
	foldOf [256]byte
	maskOf [256]uint64
	// classOfKinds is the class of a byte of kind cur after a byte of
	// kind prev and before one of kind next, by index prev<<6|cur<<3|next,
	// leaving out what depends on its position (path start, base name).
	classOfKinds [1 << 9]uint8
)

func init() {
	for c := range 256 {
		r := rune(c)
		foldOf[c] = byte(c)
		if c < utf8.RuneSelf {
			foldOf[c] = lowerASCII(byte(c))
			maskOf[c] = runeMask(rune(foldOf[c]))
		}
		switch {
		case r == '/':
			kindOf[c] = kindSlash
		case isSeparator(r):
			kindOf[c] = kindSep
		case 'a' <= r && r <= 'z':
			kindOf[c] = kindLower
		case 'A' <= r && r <= 'Z':
			kindOf[c] = kindUpper
		}
	}
	for prev := range kindEnd + 1 {
		for cur := range kindEnd {
			for next := range kindEnd + 1 {
				classOfKinds[int(prev)<<6|int(cur)<<3|int(next)] = kindsClass(prev, cur, next)
			}
		}
	}
}

// kindsClass is appendClasses's definition for a byte of kind cur between
// bytes of kinds prev and next, position aside.
func kindsClass(prev, cur, next uint8) uint8 {
	sep := func(k uint8) bool { return k == kindSep || k == kindSlash }
	var c uint8
	if sep(prev) {
		c |= clsAfterSep
	}
	if prev == kindLower && cur == kindUpper {
		c |= clsCamel
	}
	// wordEnd's rule, written out: this init may run before score.go's
	// fills wordStartOf.
	startsWord := c != 0
	switch {
	case startsWord:
	case next == kindSlash:
		c |= clsWordEnd | clsDirEnd
	case sep(next) || next == kindEnd || cur == kindLower && next == kindUpper:
		c |= clsWordEnd
	}
	return c
}

// prepareASCII writes the folded bytes and the rune classes of path p to
// fold and cls (each len(p) long) and returns its rune mask; it reports
// false, leaving them partly written, when p is not ASCII. The classes
// are exactly appendClasses's: each byte's from a table indexed by the
// kinds of it and its neighbours, then the path start and the base name.
func prepareASCII(fold, cls []uint8, p string) (uint64, bool) {
	n := len(p)
	if n == 0 {
		return 0, true
	}
	if !foldASCII(fold[:n], p) {
		return 0, false
	}
	cls = cls[:n]
	mask := maskOf[p[0]]
	// key holds the kinds of the last three bytes read, 3 bits each: the
	// class of the middle one is decided.
	key := uint(kindEnd)<<3 | uint(kindOf[p[0]])
	for i, b := range bytesOf(p)[1:] {
		key = (key<<3 | uint(kindOf[b])) & (1<<9 - 1)
		mask |= maskOf[b]
		cls[i] = classOfKinds[key]
	}
	cls[n-1] = classOfKinds[(key<<3|uint(kindEnd))&(1<<9-1)]
	const notEnd = ^(clsWordEnd | clsDirEnd) // a word's start never ends one
	cls[0] = cls[0]&notEnd | clsPathStart
	base := strings.LastIndexByte(p, '/') + 1
	if base < n {
		cls[base] = cls[base]&notEnd | clsBaseStart
		for i := base; i < n; i++ {
			cls[i] |= clsInBase
		}
	}
	if end := namesakeEndASCII(p, base); end >= 0 && cls[end]&clsWordEnd != 0 {
		cls[end] |= clsNamesake
	}
	return mask, true
}

// foldASCII writes p lower-cased to fold (len(p) long), eight bytes at a
// time, and reports whether p is ASCII.
func foldASCII(fold []byte, p string) bool {
	b := bytesOf(p)
	var high uint64
	i := 0
	for ; i+8 <= len(p); i += 8 {
		x := binary.LittleEndian.Uint64(b[i : i+8])
		high |= x
		// The high bit of each byte of upper is set where x's byte is in
		// A..Z: at least 'A' and not more than 'Z' (x's bytes are
		// below 0x80 here or the path is rejected anyway).
		h := x & low7s
		upper := (h + (0x80-'A')*lsbs) &^ (h + (0x7f-'Z')*lsbs) & (0x80 * lsbs)
		binary.LittleEndian.PutUint64(fold[i:i+8], x|upper>>2)
	}
	for ; i < len(p); i++ {
		high |= uint64(p[i])
		fold[i] = foldOf[p[i]]
	}
	return high&(0x80*lsbs) == 0
}

func (x *index) addRunes(p string) entry {
	e := entry{start: int32(len(x.rorig)), bytes: int32(len(p))}
	for off, r := range p {
		f := unicode.ToLower(r)
		x.rorig, x.rfold = append(x.rorig, r), append(x.rfold, f)
		x.roff = append(x.roff, int32(off))
		e.mask |= runeMask(f)
	}
	e.n = int32(len(x.rorig)) - e.start
	x.rcls = appendClasses(x.rcls, x.rorig[e.start:])
	return e
}

// baseStart is the rune index where the base name starts: after the last
// slash.
func baseStart[E byte | rune](t []E) int {
	for i := len(t) - 1; i >= 0; i-- {
		if t[i] == '/' {
			return i + 1
		}
	}
	return 0
}

// appendClasses appends the rune class of every rune of path t.
func appendClasses[E byte | rune](cls []uint8, t []E) []uint8 {
	start, base := len(cls), baseStart(t)
	var prev rune
	for i, e := range t {
		r := rune(e)
		c := classOf(prev, r, i, base)
		if i > 0 && (c&clsCamel != 0 || isSeparator(r)) {
			cls[len(cls)-1] |= wordEnd(cls[len(cls)-1], r == '/')
		}
		cls = append(cls, c)
		prev = r
	}
	if len(t) > 0 {
		cls[len(cls)-1] |= wordEnd(cls[len(cls)-1], false)
	}
	if end := namesakeEnd(t, base); end >= 0 && cls[start+end]&clsWordEnd != 0 {
		cls[start+end] |= clsNamesake
	}
	return cls
}

// classOf returns the class bits that rune r at index i, after rune prev,
// has by itself: path start, after a separator, camelCase hump, base name.
func classOf(prev, r rune, i, base int) uint8 {
	var c uint8
	switch {
	case i == 0:
		c |= clsPathStart
	case isSeparator(prev):
		c |= clsAfterSep
	}
	if unicode.IsLower(prev) && unicode.IsUpper(r) {
		c |= clsCamel
	}
	if i == base {
		c |= clsBaseStart
	}
	if i >= base {
		c |= clsInBase
	}
	return c
}

// wordEnd returns the class bits for the last rune of a word, of class c,
// followed by a slash or not. A one-rune word gets none: a single typed rune
// says nothing about wanting the whole word, and a chain of one-letter
// directories would otherwise outscore any base name.
func wordEnd(c uint8, slash bool) uint8 {
	switch {
	case wordStartOf[c]:
		return 0
	case slash:
		return clsWordEnd | clsDirEnd
	}
	return clsWordEnd
}

// namesakeEnd returns the index of the last rune of the base name's stem
// (up to its first dot) when the stem equals the parent directory's name,
// else -1.
func namesakeEnd[E byte | rune](t []E, base int) int {
	if base < 2 {
		return -1
	}
	dir := t[baseStart(t[:base-1]) : base-1]
	stem := t[base:]
	if dot := slices.Index(stem, '.'); dot >= 0 {
		stem = stem[:dot]
	}
	if len(stem) == 0 || !slices.Equal(stem, dir) {
		return -1
	}
	return base + len(stem) - 1
}

// namesakeEndASCII is namesakeEnd for an ASCII path.
func namesakeEndASCII(p string, base int) int {
	if base < 2 {
		return -1
	}
	dir := p[strings.LastIndexByte(p[:base-1], '/')+1 : base-1]
	stem := p[base:]
	if dot := strings.IndexByte(stem, '.'); dot >= 0 {
		stem = stem[:dot]
	}
	if len(stem) == 0 || stem != dir {
		return -1
	}
	return base + len(stem) - 1
}

// isSeparator reports whether r is one of sahilm's separators.
func isSeparator(r rune) bool {
	switch r {
	case '/', '-', '_', ' ', '.', '\\':
		return true
	}
	return false
}

// runeMask maps a folded rune to one bit of a 64-bit set: letters and
// digits get their own bit, other ASCII shares the rest, and every
// non-ASCII rune shares the top bit. A path can match only if its mask
// covers the query's.
func runeMask(r rune) uint64 {
	switch {
	case 'a' <= r && r <= 'z':
		return 1 << (r - 'a')
	case '0' <= r && r <= '9':
		return 1 << (26 + r - '0')
	case r < utf8.RuneSelf:
		return 1 << (36 + r%27)
	}
	return 1 << 63
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
