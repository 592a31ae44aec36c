package rank

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// index is a snapshot's paths prepared once for matching: folded and
// original text, rune classes and a rune bitmask per path. ASCII paths (the
// usual case) live in byte arenas where rune index = byte offset; the others
// are decoded into rune arenas with each rune's byte offset.
type index struct {
	paths []string
	ents  []entry

	orig, fold []byte  // ASCII paths: original and lower-cased bytes
	cls        []uint8 // ASCII paths: rune classes
	rorig      []rune  // other paths: original runes
	rfold      []rune  // other paths: lower-cased runes
	rcls       []uint8 // other paths: rune classes
	roff       []int32 // other paths: byte offset of each rune
}

// entry locates one path in the arenas.
type entry struct {
	mask  uint64 // runeMask of the folded path
	start int32  // first rune in the arena
	n     int32  // runes
	bytes int32  // bytes (sahilm's unmatched term counts bytes)
	ascii bool
}

// newIndex prepares paths; it does not copy the strings.
func newIndex(paths []string) *index {
	x := &index{paths: paths, ents: make([]entry, len(paths))}
	var nb, nr int
	for _, p := range paths {
		if isASCII(p) {
			nb += len(p)
		} else {
			nr += utf8.RuneCountInString(p)
		}
	}
	x.orig, x.fold, x.cls = make([]byte, 0, nb), make([]byte, 0, nb), make([]uint8, 0, nb)
	x.rorig, x.rfold = make([]rune, 0, nr), make([]rune, 0, nr)
	x.rcls, x.roff = make([]uint8, 0, nr), make([]int32, 0, nr)
	for i, p := range paths {
		if isASCII(p) {
			x.ents[i] = x.addASCII(p)
		} else {
			x.ents[i] = x.addRunes(p)
		}
	}
	return x
}

func (x *index) addASCII(p string) entry {
	e := entry{start: int32(len(x.orig)), n: int32(len(p)), bytes: int32(len(p)), ascii: true}
	x.orig = append(x.orig, p...)
	for i := range len(p) {
		c := lowerASCII(p[i])
		x.fold = append(x.fold, c)
		e.mask |= runeMask(rune(c))
	}
	x.cls = appendClasses(x.cls, x.orig[e.start:])
	return e
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

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
