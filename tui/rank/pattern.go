package rank

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// pattern is a compiled query.
type pattern struct {
	text      string
	sensitive bool       // smart case: the query has an upper-case rune
	mask      uint64     // runeMask of the folded query
	runes     []rune     // folded unless sensitive
	bytes     []byte     // runes as bytes when all are ASCII, else nil
	distinct  []rune     // the distinct runes of runes, in order
	at        [][]int32  // per distinct rune: its positions in runes
	ascii     [128]int16 // per ASCII rune: 1 + its index in distinct, or 0
}

// find returns the index in distinct of rune e, or -1.
func (p *pattern) find(e rune) int {
	if e < utf8.RuneSelf {
		return int(p.ascii[e]) - 1
	}
	for d, r := range p.distinct {
		if r == e {
			return d
		}
	}
	return -1
}

// compile prepares a non-empty query. Smart case as in fzf: a query with
// no upper-case rune matches case-insensitively, otherwise exactly.
func compile(query string) *pattern {
	p := &pattern{text: query, sensitive: strings.IndexFunc(query, unicode.IsUpper) >= 0}
	ascii := true
	for _, r := range query {
		f := unicode.ToLower(r)
		p.mask |= runeMask(f)
		if !p.sensitive {
			r = f
		}
		p.runes = append(p.runes, r)
		ascii = ascii && r < utf8.RuneSelf
	}
	p.index()
	if ascii {
		p.bytes = make([]byte, len(p.runes))
		for i, r := range p.runes {
			p.bytes[i] = byte(r)
		}
	}
	return p
}

// index lists the distinct runes and where each occurs in the query.
func (p *pattern) index() {
	for j, r := range p.runes {
		d := p.find(r)
		if d < 0 {
			d = len(p.distinct)
			p.distinct, p.at = append(p.distinct, r), append(p.at, nil)
			if r < utf8.RuneSelf {
				p.ascii[r] = int16(d + 1)
			}
		}
		p.at[d] = append(p.at[d], int32(j))
	}
}
