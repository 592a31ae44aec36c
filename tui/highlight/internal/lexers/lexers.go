// Package lexers is chroma's lexers package (github.com/alecthomas/chroma/v2
// /lexers, MIT licence: LICENSE) with a registry that costs nothing at
// process start. chroma's registry is a package variable whose initializer
// parses the configuration of every one of its ~280 embedded XML lexers and
// compiles their content analysers: 20 to 50 ms in every scout process,
// the backend child and `scout filter` included, which never highlight.
//
// Here the XML lexers' configurations are a Go table (lexer_table.go), the
// registry is built from it on the first Match or Get, and a lexer's rules
// are read from its XML file when it first tokenises, as chroma does. The
// lexers chroma writes in Go are the same files, copied. Everything but
// this file is written by genlexers (go generate), from the chroma version
// go.mod requires; the choice of lexer for a file name is chroma's own
// (LexerRegistry.Match over the same lexers, registered in the same
// order), which tui/highlight's tests check against chroma's registry.
//
// Content analysis (chroma's Analyse) is not offered: scout chooses a
// lexer by the file's name only.
package lexers

//go:generate go run ./testdata/genlexers -o .

import (
	"embed"
	"encoding/xml"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// embedded holds chroma's XML lexers, copied by genlexers.
//
//go:embed embedded
var embedded embed.FS

// xmlLexer is one of chroma's XML lexers: its file under embedded/ and its
// configuration as chroma reads it.
type xmlLexer struct {
	file   string
	config chroma.Config
}

// goLexers are the lexers written in Go, in the order their package
// variables register them. That order is chroma's because the files are
// laid out as chroma's: every variable that calls Register depends on
// goLexers, in this file, named as the file of chroma's registry variable,
// and some on xmlLexers (lexer_table.go, just before it), so Go
// initializes them after these in their files' order, as chroma does
// after its registry (the Go specification's package initialization;
// tui/highlight's TestRegistryIsChromas checks the order).
var goLexers []chroma.Lexer

// Register adds a lexer written in Go to the registry built on first use
// and returns it (chroma's lexers.Register, for the copied files).
func Register(lexer chroma.Lexer) chroma.Lexer {
	goLexers = append(goLexers, lexer)
	return lexer
}

// registry is chroma's registry of every lexer, built on first use: the XML
// lexers in their files' order, then those written in Go, which replace an
// XML lexer of the same name, as in chroma's own.
var registry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	for i := range xmlLexers {
		x := &xmlLexers[i]
		reg.Register(chroma.MustNewLexer(&x.config, x.rules))
	}
	for _, l := range goLexers {
		reg.Register(l)
	}
	return reg
})

// xmlLexerParts are the configuration (a copy of the table's) and rules
// of the XML lexer in file, for chroma.MustNewLexer: the copied files'
// lexers made at init from an XML file (genlexers rewrites their
// MustNewXMLLexer calls), at the cost of a table look-up.
func xmlLexerParts(file string) (*chroma.Config, func() chroma.Rules) {
	i := sort.Search(len(xmlLexers), func(i int) bool { return xmlLexers[i].file >= file })
	if i == len(xmlLexers) || xmlLexers[i].file != file {
		panic("lexers: no XML lexer " + file) // a build's mistake
	}
	x := &xmlLexers[i]
	config := x.config
	return &config, x.rules
}

// remapLater is chroma.TypeRemappingLexer built on first use: its look-up
// table of every remapped word (the Lisps' builtins, a few hundred each)
// was most of what this package built at every start.
type remapLater struct {
	chroma.Lexer // the lexer remapped: its Config, registry and analyser
	mapping      chroma.TypeMapping
	once         sync.Once
	remapped     chroma.Lexer
}

// typeRemappingLexer is chroma.TypeRemappingLexer(lexer, mapping), built
// when it first tokenises (genlexers rewrites the copied files' calls).
func typeRemappingLexer(lexer chroma.Lexer, mapping chroma.TypeMapping) chroma.Lexer {
	return &remapLater{Lexer: lexer, mapping: mapping}
}

// Tokenise implements chroma.Lexer.
func (r *remapLater) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	r.once.Do(func() { r.remapped = chroma.TypeRemappingLexer(r.Lexer, r.mapping) })
	return r.remapped.Tokenise(options, text)
}

// rules reads the lexer's rules from its XML file, as chroma's XML lexers
// do on first use. The files are part of the binary: a failure is a
// build's mistake, and chroma's lexers report theirs by panicking.
func (x *xmlLexer) rules() chroma.Rules {
	f, err := embedded.Open("embedded/" + x.file)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	var lexer struct {
		chroma.Config
		Rules chroma.Rules `xml:"rules"`
	}
	if err := xml.NewDecoder(f).Decode(&lexer); err != nil {
		panic(err)
	}
	return lexer.Rules
}

// All is every registered lexer (chroma's GlobalLexerRegistry.Lexers).
func All() chroma.Lexers { return registry().Lexers }

// Get is the lexer called name (by name or alias, as chroma's lexers.Get),
// or nil.
func Get(name string) chroma.Lexer { return registry().Get(name) }

// Match is the lexer for a file called filename (chroma's lexers.Match), or
// nil. It is chroma's LexerRegistry.Match: the same passes over the same
// lexers and globs in the same order, sorted the same way, each glob
// tested as filepath.Match would (globs, below). chroma's runs
// filepath.Match on every glob of every lexer, and again with each of 13
// backup suffixes appended, about 10,000 calls (2.4 ms a name on the
// project's VM, BenchmarkMatch) for every file previewed.
func Match(filename string) chroma.Lexer {
	name := filepath.Base(filename)
	all := globs()
	if l := matchGlobs(all.filenames, name); l != nil {
		return l
	}
	return matchGlobs(all.aliases, name)
}

// ignoredSuffixes are chroma's (registry.go, unexported): a file called
// as a glob says with one of these after it is matched by that glob too.
var ignoredSuffixes = [...]string{
	// Editor backups
	"~", ".bak", ".old", ".orig",
	// Debian and derivatives apt/dpkg/ucf backups
	".dpkg-dist", ".dpkg-old", ".ucf-dist", ".ucf-new", ".ucf-old",
	// Red Hat and derivatives rpm backups
	".rpmnew", ".rpmorig", ".rpmsave",
	// Build system input/template files
	".in",
}

// glob is one file glob of a lexer, as Match tests it. Most are "*" and
// a literal, which '*' matches exactly when the name ends in that
// literal (a '*' matches any run of bytes but the separator, and a base
// name has none), or a literal alone; the rest go to filepath.Match.
type glob struct {
	lexer   chroma.Lexer
	pattern string
	lit     string // the literal, when the glob is one with or without a leading '*'
	simple  bool   // lit is the whole test
	star    bool   // lit follows a '*'
}

// match reports whether filepath.Match(g.pattern+suf, name) would. A
// malformed glob panics, as in chroma.
func (g *glob) match(name, suf string) bool {
	if !g.simple {
		ok, err := filepath.Match(g.pattern+suf, name)
		if err != nil {
			panic(err)
		}
		return ok
	}
	rest, ok := strings.CutSuffix(name, suf)
	if !ok {
		return false
	}
	if g.star {
		return strings.HasSuffix(rest, g.lit)
	}
	return rest == g.lit
}

// lexerGlobs are every lexer's globs in the registry's order: Filenames
// for Match's first pass, AliasFilenames for its second.
type lexerGlobs struct{ filenames, aliases []glob }

// globs are the registry's globs, made on first use.
var globs = sync.OnceValue(func() lexerGlobs {
	var g lexerGlobs
	for _, l := range registry().Lexers {
		c := l.Config()
		g.filenames = appendGlobs(g.filenames, l, c.Filenames)
		g.aliases = appendGlobs(g.aliases, l, c.AliasFilenames)
	}
	return g
})

func appendGlobs(gs []glob, l chroma.Lexer, patterns []string) []glob {
	for _, p := range patterns {
		lit, star := strings.CutPrefix(p, "*")
		gs = append(gs, glob{lexer: l, pattern: p, lit: lit, star: star, simple: !strings.ContainsAny(lit, `*?[\`)})
	}
	return gs
}

// matchGlobs is one of LexerRegistry.Match's two passes.
func matchGlobs(gs []glob, name string) chroma.Lexer {
	var matched chroma.PrioritisedLexers
	for i := range gs {
		g := &gs[i]
		if g.match(name, "") {
			matched = append(matched, g.lexer)
			continue
		}
		for _, suf := range &ignoredSuffixes {
			if g.match(name, suf) {
				matched = append(matched, g.lexer)
				break
			}
		}
	}
	if len(matched) == 0 {
		return nil
	}
	sort.Sort(matched)
	return matched[0]
}

// MatchMimeType is the lexer for a MIME type (chroma's lexers.MatchMimeType),
// or nil.
func MatchMimeType(mimeType string) chroma.Lexer { return registry().MatchMimeType(mimeType) }
