package rank

import (
	"bytes"
	"encoding/binary"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// index is a block of paths prepared for matching: folded text, rune
// classes and a rune bitmask per path, and the paths themselves, in
// arenas the index owns (the strings it was given are not kept: a
// million paths cost no string headers and pin no caller's buffers).
// Every path has its place in the byte arena data. An ASCII path (the
// usual case; rune index = byte offset) is its folded bytes there, then
// its rune classes, then, only when it has capitals, the path as given:
// a path without capitals is its own folded bytes. Any other path is its
// bytes there, and is decoded into the rune arenas with each rune's byte
// offset.
type index struct {
	ents []entry
	data []byte

	// first bounds the one-rune term of each folded ASCII byte over the
	// block's ASCII paths: the best firstBest cell (firstScoreIn, lead
	// penalty in) of that byte in any of them, noMatch where none holds
	// it; nil when not kept (Filter's reused index). A path's first-rune
	// score is at most first[c] less its unmatched bytes, so a keystroke
	// can leave it unscored without reading it (Ranker.last).
	first *[utf8.RuneSelf]int32

	rstart []int32 // other paths: first rune in the rune arenas, by path (nil while there are none)
	rorig  []rune  // other paths: original runes
	rfold  []rune  // other paths: runes as a fuzzy term reads them (fuzzyFold, normalized)
	rcls   []uint8 // other paths: rune classes
	roff   []int32 // other paths: byte offset of each rune
}

// entry locates one path in the arenas.
type entry struct {
	mask  uint64 // runeMask of the folded path
	start int32  // the path's first byte in data
	n     int32  // runes
	bytes int32  // bytes (sahilm's unmatched term counts bytes)
	base  uint16 // the base name's first rune, or noBase
	ascii bool
	caps  bool // ASCII with capitals: the path as given follows its classes
}

// noBase marks a base name past what entry.base holds.
const noBase = math.MaxUint16

// folded returns ASCII path e's folded bytes.
func (x *index) folded(e *entry) []byte {
	return x.data[e.start : e.start+e.n]
}

// classes returns ASCII path e's rune classes.
func (x *index) classes(e *entry) []uint8 {
	return x.data[e.start+e.n : e.start+2*e.n]
}

// text returns path e's bytes as given.
func (x *index) text(e *entry) []byte {
	switch {
	case e.caps:
		return x.data[e.start+2*e.n : e.start+3*e.n]
	case e.ascii:
		return x.data[e.start : e.start+e.n]
	}
	return x.data[e.start : e.start+e.bytes]
}

// bytesFor returns ASCII path e as a term of case mode sensitive reads it.
func (x *index) bytesFor(e *entry, sensitive bool) []byte {
	if sensitive {
		return x.text(e)
	}
	return x.folded(e)
}

// path returns path j. The string shares the arena, which is never
// written again once the index is published (table.go).
func (x *index) path(j int) string {
	t := x.text(&x.ents[j])
	return unsafe.String(unsafe.SliceData(t), len(t))
}

// runeSpan returns where non-ASCII path j's runes lie in the rune arenas.
func (x *index) runeSpan(j int) (a, b int32) {
	a = x.rstart[j]
	return a, a + x.ents[j].n
}

// baseOf returns the index of the first rune of path j's base name.
func (x *index) baseOf(j int) int32 {
	e := &x.ents[j]
	if e.base != noBase {
		return int32(e.base)
	}
	if e.ascii {
		return int32(bytes.LastIndexByte(x.folded(e), '/') + 1)
	}
	a, b := x.runeSpan(j)
	return int32(lastIndex(x.rorig[a:b], '/') + 1)
}

// baseField is the entry.base of a base name starting at rune i.
func baseField(i int) uint16 {
	return uint16(min(i, noBase))
}

// indexChunk is how many paths one worker prepares at a time in newIndex.
const indexChunk = 4096

// newIndex prepares paths, copying them, in an arena of its own.
func newIndex(paths []string) *index {
	x, size := placed(paths)
	x.fill(paths, make([]byte, size))
	return x
}

// placed returns an index of paths with every path given its place
// (placeAll) but no arena yet, and the size of that arena.
func placed(paths []string) (*index, int32) {
	x := &index{ents: make([]entry, len(paths))}
	return x, x.placeAll(0, paths, 0)
}

// fill prepares paths, which x placed, in data, the arena of the size
// placed gave: ASCII paths in parallel, each at its own place, and the
// rare others afterwards, in order.
func (x *index) fill(paths []string, data []byte) {
	x.data = data
	chunks := (len(paths) + indexChunk - 1) / indexChunk
	others := make([][]int, chunks)
	forChunks(chunks, func(c int) {
		for i := c * indexChunk; i < min((c+1)*indexChunk, len(paths)); i++ {
			if !x.ents[i].ascii {
				others[c] = append(others[c], i)
				continue
			}
			x.prepareASCII(i, paths[i])
		}
	})
	for _, is := range others {
		for _, i := range is {
			x.addRunes(i, paths[i])
		}
	}
	x.summarize()
}

// summarize fills x.first from x's ASCII paths.
func (x *index) summarize() {
	m := new([utf8.RuneSelf]int32)
	for c := range m {
		m[c] = noMatch
	}
	for j := range x.ents {
		e := &x.ents[j]
		if !e.ascii || e.n == 0 {
			continue
		}
		t, cls := x.folded(e), x.classes(e)
		cls = cls[:len(t)]
		m[t[0]&0x7f] = max(m[t[0]&0x7f], firstScoreIn[uint16(cls[0])|clsPathStart])
		for i := 1; i < len(t); i++ {
			v := firstScoreIn[cls[i]] - min(int32(i)*baseLeadPerByte, baseLeadMax)
			m[t[i]&0x7f] = max(m[t[i]&0x7f], v)
		}
	}
	x.first = m
}

// placeAll gives paths, as paths from, their places in data from start
// on (shape and start of their entries) and returns where the last ends.
func (x *index) placeAll(from int, paths []string, start int32) int32 {
	for k, p := range paths {
		caps, ascii := shape(p)
		x.ents[from+k] = entry{start: start, ascii: ascii, caps: caps}
		switch n := int32(len(p)); {
		case caps:
			start += 3 * n
		case ascii:
			start += 2 * n
		default:
			start += n
		}
	}
	return start
}

// shape reports whether p is ASCII with capitals (A-Z) and whether it is
// ASCII, eight bytes at a time.
func shape(p string) (caps, ascii bool) {
	b := bytesOf(p)
	var high, upper uint64
	i := 0
	for ; i+8 <= len(p); i += 8 {
		x := binary.LittleEndian.Uint64(b[i : i+8])
		high |= x
		h := x & low7s // foldASCII's test for A..Z
		upper |= (h + (0x80-'A')*lsbs) &^ (h + (0x7f-'Z')*lsbs)
	}
	for ; i < len(p); i++ {
		high |= uint64(p[i])
		if 'A' <= p[i] && p[i] <= 'Z' {
			upper |= 0x80
		}
	}
	ascii = high&(0x80*lsbs) == 0
	return ascii && upper&(0x80*lsbs) != 0, ascii
}

// reset makes x an index of paths, reusing its arenas: for one-shot
// rankings that prepare one chunk after another (Filter).
func (x *index) reset(paths []string) {
	x.ents = slices.Grow(x.ents[:0], len(paths))[:len(paths)]
	total := int(x.placeAll(0, paths, 0))
	x.data = slices.Grow(x.data[:0], total)[:total]
	if x.rstart != nil {
		x.rstart = slices.Grow(x.rstart[:0], len(paths))[:len(paths)]
	}
	x.rorig, x.rfold, x.rcls, x.roff = x.rorig[:0], x.rfold[:0], x.rcls[:0], x.roff[:0]
	x.first = nil
	for i, p := range paths {
		x.prepare(i, p)
	}
}

// prepare prepares path p as path i, at the place placeAll gave it.
func (x *index) prepare(i int, p string) {
	if x.ents[i].ascii {
		x.prepareASCII(i, p)
	} else {
		x.addRunes(i, p)
	}
}

// prepareASCII prepares ASCII path p as path i at its place in data.
func (x *index) prepareASCII(i int, p string) {
	e := &x.ents[i]
	n := int32(len(p))
	e.n, e.bytes = n, n
	mask, _ := prepareASCII(x.folded(e), x.classes(e), p)
	e.mask, e.base = mask, baseField(strings.LastIndexByte(p, '/')+1)
	if e.caps {
		copy(x.text(e), p)
	}
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
	if cur == kindSlash {
		c |= clsSlash
	}
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
	cls[0] &= notEnd
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
	if dot := strings.LastIndexByte(p[base:], '.'); dot > 0 && base+dot < n-1 {
		cls[n-1] &^= clsWordEnd // an extension is no word of the name
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

// addRunes prepares non-ASCII path p as path i: its bytes at its place
// in data, its runes at the end of the rune arenas.
func (x *index) addRunes(i int, p string) {
	e := &x.ents[i]
	e.bytes = int32(len(p))
	copy(x.text(e), p)
	if x.rstart == nil {
		x.rstart = make([]int32, len(x.ents))
	}
	start := int32(len(x.rorig))
	x.rstart[i] = start
	for off, r := range p {
		x.rorig, x.rfold = append(x.rorig, r), append(x.rfold, normalizeRune(fuzzyFold(r)))
		x.roff = append(x.roff, int32(off))
		e.mask |= foldMask(r)
	}
	e.n = int32(len(x.rorig)) - start
	e.base = baseField(lastIndex(x.rorig[start:], '/') + 1)
	x.rcls = appendClasses(x.rcls, x.rorig[start:])
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
			cls[len(cls)-1] |= wordEnd(classAt(cls[len(cls)-1], int32(i-1)), r == '/')
		}
		cls = append(cls, c)
		prev = r
	}
	if len(t) > 0 {
		cls[len(cls)-1] |= wordEnd(classAt(cls[len(cls)-1], int32(len(t)-1)), false)
	}
	if end := namesakeEnd(t, base); end >= 0 && cls[start+end]&clsWordEnd != 0 {
		cls[start+end] |= clsNamesake
	}
	if dot := lastIndex(t[base:], '.'); dot > 0 && base+dot < len(t)-1 {
		cls[len(cls)-1] &^= clsWordEnd // an extension is no word of the name
	}
	return cls
}

// classOf returns the class bits that rune r at index i, after rune prev,
// has by itself: a slash, after a separator, camelCase hump, base name.
func classOf(prev, r rune, i, base int) uint8 {
	var c uint8
	if i > 0 && isSeparator(prev) {
		c |= clsAfterSep
	}
	if r == '/' {
		c |= clsSlash
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
func wordEnd(c uint16, slash bool) uint8 {
	switch {
	case wordStartOf[c]:
		return 0
	case slash:
		return clsWordEnd | clsDirEnd
	}
	return clsWordEnd
}

// lastIndex returns the index of the last e in t, or -1.
func lastIndex[E byte | rune](t []E, e E) int {
	for i := len(t) - 1; i >= 0; i-- {
		if t[i] == e {
			return i
		}
	}
	return -1
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
