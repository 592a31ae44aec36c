// Package display holds the small text helpers the Sessions and Providers
// pages share: making text from the backend safe to put on a terminal,
// painting styles cheaply, and fitting a highlighted line into a width.
package display

import (
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/backend/fsguard"
)

// method is how the terminal counts the cells of text, as Bubble Tea's
// renderer counts them: by runes (wcwidth) until the terminal reports
// Unicode core mode 2027, then by grapheme clusters. Every page measures
// with it, so that a line laid out to fit is a line the renderer and the
// terminal see fit: a name like "👨‍👩‍👧.go" is 2 cells as a cluster and 6
// as runes, which is what tmux draws.
var method atomic.Uint32 // an ansi.Method; the zero value is ansi.WcWidth

// SetMethod makes m the way every page counts cells. The root model calls
// it when the terminal reports mode 2027, as the renderer switches then.
func SetMethod(m ansi.Method) { method.Store(uint32(m)) }

// Method is the way cells are counted now.
func Method() ansi.Method { return ansi.Method(method.Load()) }

// Width is s's width in cells, escape sequences left out.
func Width(s string) int { return Method().StringWidth(s) }

// Truncate cuts s to at most w cells, tail included when it is cut.
func Truncate(s string, w int, tail string) string { return Method().Truncate(s, w, tail) }

// WrapWords wraps s at w cells, at spaces and the breakpoints, cutting
// words longer than w (ansi.Wrap).
func WrapWords(s string, w int, breakpoints string) string { return Method().Wrap(s, w, breakpoints) }

// Clean returns s with every rune that could move the cursor, change the
// terminal's state or reorder text replaced by U+FFFD: C0 controls (a tab
// becomes a space), DEL, C1 controls and the bidirectional formatting
// characters (fsguard.UnsafeRune), the line and paragraph separators
// (U+2028, U+2029), and invalid UTF-8. The backend already removes them from titles; the frontend
// never trusts that alone.
func Clean(s string) string {
	if !needsCleaning(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case unsafe(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsCleaning(s string) bool {
	for _, r := range s {
		if r == '\t' || unsafe(r) {
			return true
		}
	}
	return false
}

// unsafe is fsguard.UnsafeRune (the one definition of the characters
// scout never shows, which the backend removes from titles and model
// names) plus the replacement character of invalid UTF-8.
func unsafe(r rune) bool { return fsguard.UnsafeRune(r) || r == utf8.RuneError || breaksLine(r) }

// breaksLine reports the Unicode line and paragraph separators: not
// controls (a file may be named with them), but a terminal may end the
// line there or draw nothing, so they are never drawn as they are.
func breaksLine(r rune) bool { return r == '\u2028' || r == '\u2029' }

// Visible returns name (a path or a name the backend allowed) with each
// line or paragraph separator replaced by U+FFFD, which takes the same
// three bytes: byte offsets into name (match positions) stay valid.
func Visible(name string) string {
	if !strings.ContainsAny(name, "\u2028\u2029") {
		return name
	}
	return strings.Map(func(r rune) rune {
		if breaksLine(r) {
			return utf8.RuneError
		}
		return r
	}, name)
}

// Paint is a style reduced to the escape sequences around its text: rows
// are drawn many times per frame, and lipgloss.Style.Render measures,
// aligns and pads on every call.
type Paint struct{ Pre, Post string }

// PaintOf reduces st to its escape sequences.
func PaintOf(st lipgloss.Style) Paint {
	r := st.Render("x")
	i := strings.Index(r, "x")
	return Paint{r[:i], r[i+1:]}
}

// Render paints s.
func (p Paint) Render(s string) string { return p.Pre + s + p.Post }

// Add writes s painted to b: for rows drawn many times per frame, where
// lipgloss.Style.Render would measure, align and pad on every call.
func (p Paint) Add(b *strings.Builder, s string) {
	b.WriteString(p.Pre)
	b.WriteString(s)
	b.WriteString(p.Post)
}

// Highlight fits s into w cells (cutting its end with "…") and paints it
// with plain, except the bytes at pos (ascending byte offsets of runes),
// which get match. It returns the painted text and its width in cells.
func Highlight(s string, pos []int, w int, plain, match Paint) (string, int) {
	if w <= 0 {
		return "", 0
	}
	cut := s
	if Width(s) > w {
		cut = Truncate(s, w-1, "")
	}
	var b strings.Builder
	inMatch, started := false, false
	for i, r := range cut {
		m := len(pos) > 0 && pos[0] == i
		for len(pos) > 0 && pos[0] <= i {
			pos = pos[1:]
		}
		if !started || m != inMatch {
			if started {
				b.WriteString(paintOf(inMatch, plain, match).Post)
			}
			b.WriteString(paintOf(m, plain, match).Pre)
			inMatch, started = m, true
		}
		b.WriteRune(r)
	}
	if started {
		b.WriteString(paintOf(inMatch, plain, match).Post)
	}
	width := Width(cut)
	if cut != s {
		b.WriteString(plain.Render("…"))
		width++
	}
	return b.String(), width
}

func paintOf(m bool, plain, match Paint) Paint {
	if m {
		return match
	}
	return plain
}

// Wrap breaks text into lines of at most w cells at spaces (a word longer
// than w is cut), for sentences shown in narrow areas.
func Wrap(text string, w int) []string {
	if w <= 0 {
		return nil
	}
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = word
			case Width(line)+1+Width(word) <= w:
				line += " " + word
			default:
				lines = append(lines, Truncate(line, w, "…"))
				line = word
			}
		}
		lines = append(lines, Truncate(line, w, "…"))
	}
	return lines
}

// Capitalize returns s with its first rune in upper case, for a phrase
// that starts a sentence.
func Capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// Lower returns s with its first rune in lower case, for a sentence used
// as a phrase.
func Lower(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// Pad returns s followed by spaces up to w cells (s as is when wider).
func Pad(s string, w int) string {
	return s + strings.Repeat(" ", max(w-Width(s), 0))
}
