package rank

/*
Algorithm
---------

A query matches a path when its runes appear in the path in order (a
subsequence), exactly as github.com/sahilm/fuzzy decides it. What this file
adds is which occurrence counts and how much it is worth.

Base: sahilm's score. For every matched rune sahilm adds a bonus when it is
the first rune of the path (10), follows a separator "/-_ .\" (20) or is the
upper-case hump of a camelCase word (20), and 5 when it is adjacent to the
previous match; it subtracts 5 per byte before the first match (at most 15)
and 1 per unmatched byte of the path. These terms stay, with sahilm's values,
so a scout score is sahilm's score of the same alignment plus the layer below.
TestBaseIsSahilm pins that against the real library.

sahilm's weaknesses, and the fixes:

  - It commits every query rune to its first good position as it scans, so
    "server.go" over "net/http/server.go" may start in "http" and lose the
    contiguous base name. Here the alignment is chosen by dynamic
    programming over all occurrences (a Smith-Waterman variant like fzf's
    FuzzyMatchV2: no omissions, no mismatches), and the positions reported
    for highlighting are exactly the ones that earned the score.

  - Its adjacency bonus doubles along a run (5, 15, 35, 75, ...), so one long
    run anywhere, even mid-word, swamps every other signal. Here adjacency is
    a flat 5; instead a run that began at a word start earns the word-start
    bonus on every rune (fzf's consecutive-chunk rule), and gaps cost an
    affine penalty, so contiguous word prefixes beat scattered acronyms.

  - It rewards only the start of the whole path. Paths are read from the
    base name: its first rune earns a bonus, a query matched wholly inside
    it earns another, and so does a whole word, more when the word is a
    whole directory name or the stem of a file named after its directory.
    So a match inside the base name beats one spread over directories,
    while a query that spans directories ("cmdgo") finds them.

    "server.go" over "net/http/server.go":

        net/http/server.go
                 *********   one run, at the base name's start

The dynamic program is sparse. Row j lists the positions where query rune j
occurs, limited to those that can still be part of a full match (after the
first greedy occurrence of the rune before it, before the last greedy
occurrence of the rune after it), and at each the best score of the query up
to j matched there, split by whether the run ending there began at a word
start (which decides whether the next adjacent rune earns the run bonus). A
cell is reached from the previous row's cell one position back (adjacent) or
across a gap; the best gap predecessor is a running maximum over the
previous row, so a row costs the occurrences of two runes, not the path's
length. Ties prefer the adjacent predecessor and the later position, which
keeps highlights tight and towards the base name. The same recurrences are
replayed backwards for the few matches whose positions are shown; scoreOf
recomputes any alignment's score term by term, and the tests hold the
dynamic program to exhaustive search and to scoreOf.

A row depends only on the query runes up to its own. So while the user
types, each match keeps the last row of its alignment, and the next
keystroke adds one row to it (the occurrences of the new rune, scored from
the kept row) instead of aligning the query again; only matches of the
shorter query are visited at all.

Paths whose query rune positions exceed maxCells fall back to the greedy
alignment (first occurrence forwards, then the shortest window backwards, as
fzf's V1), scored by scoreOf; paths and queries of ordinary size never do.
*/

import "math"

// sahilm/fuzzy's scoring terms (its constants are unexported; these are the
// same values under the same names).
const (
	baseFirstChar   = 10 // firstCharMatchBonus: the path's first rune
	baseSeparator   = 20 // matchFollowingSeparatorBonus: after one of "/-_ .\"
	baseCamel       = 20 // camelCaseMatchBonus: upper case after lower case
	baseAdjacent    = 5  // adjacentMatchBonus, flat here (sahilm doubles it along a run)
	baseLeadPerByte = 5  // unmatchedLeadingCharPenalty, per byte before the first match
	baseLeadMax     = 15 // maxUnmatchedLeadingCharPenalty
	// sahilm also subtracts one point per unmatched byte of the path; Rank
	// adds that term (it depends only on the lengths).
)

// scout's path-aware layer. The values were tuned against fzf's ranks over
// the Go source tree (testdata/fzf_ranks.txt); quality_test.go fails when a
// change makes any intended file rank worse than fzf ranks it. Each holds
// over a range (roughly half to double), not just at the value chosen.
const (
	// layerWordRun is added to every rune that continues a run begun at a
	// word start, so such a rune earns what the word start earned
	// (adjacent + run = separator): "server" typed over "server.go" is
	// worth more than the same letters picked from six directories.
	layerWordRun = baseSeparator - baseAdjacent

	// layerGapStart and layerGapExtend make a gap of n runes cost
	// start + (n-1)*extend. A word-start bonus (20) is cancelled by a gap of
	// about eight runes, the length of a typical path component, as in fzf.
	layerGapStart  = 6
	layerGapExtend = 2

	// layerBaseStart is added when the base name's first rune is matched,
	// the start sahilm does not see.
	layerBaseStart = 10

	// layerAllInBase is added once when the whole query matched inside the
	// base name: "netip" over net/netip/netip.go beats net/ip.go's "net" +
	// "ip", which sahilm's path-start terms (+10, no leading penalty) and
	// two whole words would otherwise prefer. It is one bonus for the
	// alignment, not one per rune: a per-rune base-name bonus made
	// os/exec.go's "exec" beat the directory os/exec/ for "os/exec".
	layerAllInBase = 45

	// layerWholeWord is added when a run covers a whole word: it began at a
	// word start and reaches the word's last rune (before a separator, a
	// camelCase hump or the end of the path).
	layerWholeWord = 15

	// layerWholeDir is added on top of layerWholeWord when the whole word
	// ends a directory name: a query that spans components names
	// directories ("cmdgo" is cmd/go/, not the letters of cmds.go).
	layerWholeDir = 20

	// layerNamesake is added on top of layerWholeWord when the whole word
	// ends the stem of a file named after its directory (unsafe/unsafe.go,
	// Button/Button.tsx): by a convention of most ecosystems that file is
	// the directory's main one, so it beats math/unsafe.go for "unsafe".
	layerNamesake = 10

	// layerCross is added to a gap that crosses a slash: an alignment
	// that leaves one component for another. A piece of the query in a
	// directory of its own can earn that component's whole-word and
	// whole-directory bonuses; crossing costs as much, so the same runes
	// split over components pay at least a gap per extra piece against
	// them contiguous in one component ("ssagen" is
	// cmd/compile/internal/ssagen/, not ssa/_gen/), while a split that
	// reaches into the base name still earns the base name's bonuses.
	layerCross = layerWholeWord + layerWholeDir
)

// Rune classes, computed once per path in New from the path's original
// case, one byte each. A ninth bit, clsPathStart, is added for the rune at
// index 0 where the tables are read (classAt).
const (
	clsSlash     uint8 = 1 << iota // the rune is a slash
	clsAfterSep                    // follows one of sahilm's separators
	clsCamel                       // upper case after lower case
	clsBaseStart                   // first rune of the base name
	clsInBase                      // inside the base name
	clsWordEnd                     // last rune of a word: a separator, hump or the end follows
	clsDirEnd                      // last rune of a directory name: a slash follows
	clsNamesake                    // last rune of a stem equal to its directory's name

	clsPathStart uint16 = 1 << 8 // first rune of the path
	clsCount            = 1 << 9
)

// classAt is the class of rune i, of stored class c, as the tables read
// it.
func classAt(c uint8, i int32) uint16 {
	if i == 0 {
		return uint16(c) | clsPathStart
	}
	return uint16(c)
}

// maxCells bounds the cells of one alignment (query rune positions in a
// path). 64Ki cells, 768 KiB per worker, are far beyond a real path and
// query (a 256-byte path and a 256-rune query of the same letter); beyond
// that the greedy fallback keeps memory bounded.
const maxCells = 1 << 16

// noMatch is the score of a path the query does not match.
const noMatch = math.MinInt32

// neg marks an impossible cell: below any real score (a path of n runes
// scores above -3n, so any path under 100 MiB) and far enough above the
// int32 minimum that adding small terms to it cannot wrap.
const neg = -1 << 29

var (
	// bonusOf is the bonus of a matched rune by run state (1: its run began
	// at a word start) and class.
	bonusOf [2][clsCount]int32
	// wordStartOf reports whether a class starts a word (a run from here
	// earns layerWordRun on each following rune).
	wordStartOf [clsCount]bool
	// inBaseBonus is first's base-name term for a class; noBaseBonus
	// leaves it out.
	inBaseBonus, noBaseBonus [clsCount]int32
	// firstScoreIn and firstScoreNo are firstRowBest's cell score by
	// class, lead penalty aside, with the base-name bonus and without
	// (firstBest).
	firstScoreIn, firstScoreNo [clsCount]int32
	// gainAdjacent and gainGap bound what a rune of a stored class (not
	// the path's first) adds to the best cell of the row before: adjacent
	// to a cell of it (the adjacency and run bonuses and the rune's best
	// bonus), or across a gap (which costs at least layerGapStart).
	gainAdjacent, gainGap [1 << 8]int32
)

func init() {
	for c := range clsCount {
		k := uint16(c)
		bonusOf[0][c] = sahilmBonus(k) + baseNameBonus(k)
		bonusOf[1][c] = bonusOf[0][c] + wholeBonus(k)
		wordStartOf[c] = k&(clsPathStart|uint16(clsAfterSep|clsCamel|clsBaseStart)) != 0
		if k&uint16(clsInBase) != 0 {
			inBaseBonus[c] = layerAllInBase
		}
		st := 0
		if wordStartOf[c] {
			st = 1
		}
		firstScoreIn[c] = bonusOf[st][c] + inBaseBonus[c]
		firstScoreNo[c] = bonusOf[st][c] + noBaseBonus[c]
		if c < len(gainAdjacent) {
			gainAdjacent[c] = baseAdjacent + layerWordRun + max(bonusOf[0][c], bonusOf[1][c])
			gainGap[c] = max(bonusOf[0][c], bonusOf[1][c]) - layerGapStart
		}
	}
}

// sahilmBonus is sahilm's bonus for matching a rune of class c.
func sahilmBonus(c uint16) int32 {
	var b int32
	if c&clsPathStart != 0 {
		b += baseFirstChar
	}
	if c&uint16(clsAfterSep) != 0 {
		b += baseSeparator
	}
	if c&uint16(clsCamel) != 0 {
		b += baseCamel
	}
	return b
}

// baseNameBonus is the layer's bonus for matching a rune of class c.
func baseNameBonus(c uint16) int32 {
	if c&uint16(clsBaseStart) != 0 {
		return layerBaseStart
	}
	return 0
}

// wholeBonus is the layer's bonus for a rune of class c matched by a run
// that began at a word start, so it completes a whole word if c ends one.
func wholeBonus(c uint16) int32 {
	if c&uint16(clsWordEnd) == 0 {
		return 0
	}
	b := int32(layerWholeWord)
	if c&uint16(clsDirEnd) != 0 {
		b += layerWholeDir
	}
	if c&uint16(clsNamesake) != 0 {
		b += layerNamesake
	}
	return b
}

// leadPenalty is sahilm's penalty for the bytes before the first match,
// at rune i. off maps runes to byte offsets; nil means they are the same
// (ASCII).
func leadPenalty(i int, off []int32) int32 {
	b := i
	if off != nil {
		b = int(off[i])
	}
	return -int32(min(b*baseLeadPerByte, baseLeadMax))
}

// first holds the terms decided by where the first query rune matched: at
// rune i of class c.
func first(i int, c uint16, off []int32) int32 {
	v := leadPenalty(i, off)
	if c&uint16(clsInBase) != 0 {
		v += layerAllInBase
	}
	return v
}

// gapCost is the penalty for n unmatched runes between two matches.
func gapCost(n int) int32 {
	return int32(layerGapStart + (n-1)*layerGapExtend)
}

// crossCost is the penalty for the gap between matches at runes p and i
// of a path with rune classes cls: gapCost, and layerCross when a slash
// lies between them.
func crossCost(cls []uint8, p, i int32) int32 {
	c := gapCost(int(i - p - 1))
	for k := p + 1; k < i; k++ {
		if cls[k]&clsSlash != 0 {
			return c + layerCross
		}
	}
	return c
}

// scoreOf is the alignment score of matched rune positions pos (ascending
// rune indices) in a path with rune classes cls. Rank adds sahilm's
// unmatched-bytes term, which depends only on the lengths.
func scoreOf(cls []uint8, off []int32, pos []int32) int32 {
	base, layer := scoreParts(cls, off, pos)
	return base + layer
}

// scoreParts is the reference scorer, written term by term: sahilm's terms
// and the layer's for one alignment. The dynamic program must find the
// alignment that maximises their sum; the tests hold it to that, and the
// base part to the sahilm library's own score.
func scoreParts(cls []uint8, off []int32, pos []int32) (base, layer int32) {
	run := false // the current run began at (or passed) a word start
	for k, p := range pos {
		c := classAt(cls[p], p)
		switch {
		case k == 0:
			base += leadPenalty(int(p), off)
			layer += first(int(p), c, off) - leadPenalty(int(p), off)
			run = wordStartOf[c]
		case p == pos[k-1]+1:
			base += baseAdjacent
			if run {
				layer += layerWordRun
			}
			run = run || wordStartOf[c]
		default:
			layer -= crossCost(cls, pos[k-1], p)
			run = wordStartOf[c]
		}
		base += sahilmBonus(c)
		layer += baseNameBonus(c)
		if run {
			layer += wholeBonus(c)
		}
	}
	return base, layer
}
