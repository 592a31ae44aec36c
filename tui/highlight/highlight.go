// Package highlight colours the lines of a file for the Files page's
// preview with github.com/alecthomas/chroma/v2: the language is chosen by
// the file's name, the colours by the terminal's background (GitHub's
// light and dark styles), and each line comes back with its own SGR
// sequences, opened and closed within the line, so a pane can cut,
// scroll and frame lines one by one.
//
// The lexers are chroma's, every one of them, through a registry of our
// own (internal/lexers) that is built on first use: chroma's lexers
// package builds its registry at every process start, and every scout
// process would pay for it, the backend child and `scout filter`, which
// never highlight (docs/performance.md).
//
// Highlighting is bounded. The caller passes lines already cut to a width
// it will show (Cut), so a 64 KiB minified line costs no more than a short
// one; the text is the head of the file the preview read; and the work
// checks its context between tokens, so a preview moved past is abandoned.
// Run it in a tea.Cmd, never in Update.
package highlight

import (
	"context"
	"embed"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"

	"github.com/scoutdev/scout/tui/highlight/internal/lexers"
)

// MaxLineBytes is what Cut keeps of a line: far more than any pane is
// wide, little enough that a minified file costs a few kilobytes a line.
const MaxLineBytes = 512

// checkEvery is how many tokens are emitted between looks at the context.
const checkEvery = 256

// Cut returns s cut to at most MaxLineBytes bytes, at a rune boundary.
func Cut(s string) string {
	if len(s) <= MaxLineBytes {
		return s
	}
	i := MaxLineBytes
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// Supported reports whether a file called name has a language to
// highlight (by its name: extension or well-known file name).
func Supported(name string) bool { return lexers.Match(name) != nil }

// Lines returns lines (one file's, in order, already cut and free of
// control characters) highlighted as the language of the file called
// name, for a dark or light background. Every returned line has exactly
// the text of its input line between escape sequences, and ends with
// every attribute reset. Without a language for name the lines come back
// unchanged. Lines returns ctx's error when ctx ends first.
func Lines(ctx context.Context, name string, lines []string, dark bool) (out []string, err error) {
	lexer := lexers.Match(name)
	if lexer == nil || len(lines) == 0 {
		return lines, nil
	}
	defer func() {
		// chroma's lexers and iterators report their failures by panicking.
		if r := recover(); r != nil {
			out, err = lines, nil
		}
	}()
	it, err := chroma.Coalesce(lexer).Tokenise(nil, strings.Join(lines, "\n"))
	if err != nil {
		return lines, nil // a lexer that cannot start: shown plain
	}
	return emit(ctx, it, paletteFor(dark), len(lines))
}

// emit writes the tokens of it into n lines, each token's text wrapped in
// its type's escape sequences.
func emit(ctx context.Context, it chroma.Iterator, p *palette, n int) ([]string, error) {
	out := make([]string, 0, n)
	var b strings.Builder
	for i := 0; ; i++ {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		t := it()
		if t == chroma.EOF {
			break
		}
		sgr := p.sgr(t.Type)
		for k, part := range strings.Split(t.Value, "\n") {
			if k > 0 {
				out = append(out, b.String())
				b.Reset()
			}
			if part == "" {
				continue
			}
			if sgr == "" || strings.TrimSpace(part) == "" {
				b.WriteString(part) // blanks need no colour
				continue
			}
			b.WriteString(sgr)
			b.WriteString(part)
			b.WriteString(reset)
		}
	}
	if b.Len() > 0 || len(out) < n {
		out = append(out, b.String())
	}
	for len(out) < n {
		out = append(out, "") // trailing empty lines the lexer folded away
	}
	return out[:n], nil
}

// reset ends every attribute an SGR sequence of a palette sets.
const reset = "\x1b[m"

// palette is a chroma style turned into one SGR sequence per token type.
type palette struct {
	style *chroma.Style
	plain chroma.Colour // the style's text colour: left to the terminal

	mu    sync.Mutex
	cache map[chroma.TokenType]string
}

// styleFiles are chroma's GitHub styles (styles/README.md): parsed on
// first use, where chroma's styles package parses all of its styles at
// every process start.
//
//go:embed styles/*.xml
var styleFiles embed.FS

// Styles of each background, GitHub's pair.
var (
	darkPalette  = sync.OnceValue(func() *palette { return newPalette(loadStyle("github-dark.xml")) })
	lightPalette = sync.OnceValue(func() *palette { return newPalette(loadStyle("github.xml")) })
)

func paletteFor(dark bool) *palette {
	if dark {
		return darkPalette()
	}
	return lightPalette()
}

// loadStyle parses one of styleFiles; they are part of the binary, so a
// failure is a build's mistake.
func loadStyle(name string) *chroma.Style {
	f, err := styleFiles.Open("styles/" + name)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	s, err := chroma.NewXMLStyle(f)
	if err != nil {
		panic(err)
	}
	return s
}

func newPalette(s *chroma.Style) *palette {
	return &palette{style: s, plain: s.Get(chroma.Text).Colour, cache: map[chroma.TokenType]string{}}
}

// sgr is the escape sequence that starts a token of type t ("" for text
// drawn in the terminal's own colours).
func (p *palette) sgr(t chroma.TokenType) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.cache[t]; ok {
		return s
	}
	s := sgrOf(p.style.Get(t), p.plain)
	p.cache[t] = s
	return s
}

func sgrOf(e chroma.StyleEntry, plain chroma.Colour) string {
	var attrs []string
	if e.Bold == chroma.Yes {
		attrs = append(attrs, "1")
	}
	if e.Italic == chroma.Yes {
		attrs = append(attrs, "3")
	}
	if e.Underline == chroma.Yes {
		attrs = append(attrs, "4")
	}
	if c := e.Colour; c.IsSet() && c != plain {
		attrs = append(attrs, fmt.Sprintf("38;2;%d;%d;%d", c.Red(), c.Green(), c.Blue()))
	}
	if len(attrs) == 0 {
		return ""
	}
	return "\x1b[" + strings.Join(attrs, ";") + "m"
}
