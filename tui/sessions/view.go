package sessions

import (
	"fmt"
	"strings"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/internal/display"
	"github.com/scoutdev/scout/tui/internal/page"
)

// countWidth is the room kept right of the filter for the counts.
const countWidth = 16

// maxNoteLines bounds the lines a note may take above the footer.
const maxNoteLines = 3

// View implements tui.Page: the filter line, the rows (or why there are
// none), a note about what just happened, and the footer with the
// discovery's state and counts.
func (m *Model) View() string {
	lines := []string{m.queryLine()}
	lines = append(lines, m.listLines()...)
	lines = append(lines, m.noteLines()...)
	lines = append(lines, m.footer())
	return strings.Join(lines, "\n")
}

// Cursor places the terminal's cursor in the filter (page coordinates).
func (m *Model) Cursor() (x, y int, ok bool) {
	return page.QueryCursor(m.input)
}

// Status implements tui.Page: the count for the status line.
func (m *Model) Status() string {
	switch {
	case !m.Shown():
		return ""
	case m.open.running:
		return "opening a session"
	case m.disc.running:
		return fmt.Sprintf("reading sessions (%d so far)", len(m.rows))
	case m.complete:
		return plural(len(m.rows), "session")
	}
	return ""
}

func (m *Model) queryLine() string {
	in := m.input.View()
	counts := m.styles.Count.Render(m.counts())
	return page.QueryLine(m.Width(), in, counts)
}

func (m *Model) counts() string {
	switch {
	case m.disc.running && m.input.Value() != "":
		return fmt.Sprintf("%d/%d so far", len(m.filter.shown), len(m.rows))
	case m.disc.running:
		return fmt.Sprintf("%d so far", len(m.rows))
	case !m.complete:
		return ""
	case m.input.Value() != "":
		return fmt.Sprintf("%d/%d", len(m.filter.shown), len(m.rows))
	}
	return plural(len(m.rows), "session")
}

// listHeight is the number of row lines: what the filter line, the note
// and the footer leave.
func (m *Model) listHeight() int {
	return max(m.Height()-2-len(m.noteLines()), 1)
}

func (m *Model) listLines() []string {
	h := m.listHeight()
	lines := make([]string, 0, h)
	if len(m.filter.shown) == 0 {
		for _, l := range display.Wrap(m.emptyText(), max(m.Width()-2, 1)) {
			st := m.styles.Empty
			if m.disc.err != "" {
				st = m.styles.Error
			}
			lines = append(lines, "  "+st.Render(l))
		}
	}
	for i := m.offset; i < min(m.offset+h, len(m.filter.shown)); i++ {
		lines = append(lines, m.row(i))
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

// emptyText says why no row is shown.
func (m *Model) emptyText() string {
	switch {
	case m.disc.err != "":
		return m.disc.err
	case m.disc.running:
		return "Looking for this directory's sessions…"
	case !m.complete:
		return ""
	case len(m.rows) == 0:
		return "No saved sessions for this directory."
	}
	return "no match"
}

// row draws shown row i: gutter, the agent's tag, title with its matches,
// then the markers and the relative time at the right edge.
func (m *Model) row(i int) string {
	s := m.filter.shown[i]
	r := m.rows[s.row]
	p := m.paints[btoi(!m.complete)][btoi(i == m.cursor)]
	var b strings.Builder
	if i == m.cursor {
		b.WriteString(m.gutter.Render("▌"))
		b.WriteString(p.plain.Render(" "))
	} else {
		b.WriteString("  ")
	}
	b.WriteString(m.tag(r, p))
	right, rw := m.rightSide(r, p)
	tw := max(m.Width()-2-m.tagCells()-rw-1, 0)
	var title string
	var w int
	if r.Title == "" {
		title, w = display.Highlight("(untitled)", nil, tw, p.time, p.time)
	} else {
		title, w = display.Highlight(r.Title, s.pos, tw, p.title, p.match)
	}
	b.WriteString(title)
	b.WriteString(p.plain.Render(strings.Repeat(" ", max(m.Width()-2-m.tagCells()-w-rw, 0))))
	b.WriteString(right)
	return b.String()
}

// minTagWidth is the narrowest page that shows the agent tags: below it
// the title keeps the room.
const minTagWidth = 30

// tagCells is the width of the tag column: the widest tag of the rows and
// a space, or nothing on a page too narrow for a title beside it.
func (m *Model) tagCells() int {
	if m.Width() < minTagWidth {
		return 0
	}
	return m.tagWidth
}

// tag is row r's agent tag padded to the tag column.
func (m *Model) tag(r wire.SessionRow, p rowPaint) string {
	cells := m.tagCells()
	if cells == 0 {
		return ""
	}
	agent := rowAgent(r)
	t := agentTag(agent)
	paint, ok := p.tags[agent]
	if !ok {
		paint = p.plain
	}
	return paint.Render(t) + p.plain.Render(strings.Repeat(" ", max(cells-len(t), 1)))
}

// rightSide is a row's markers and relative time, and its width.
func (m *Model) rightSide(r wire.SessionRow, p rowPaint) (string, int) {
	var parts []string
	var plain []string
	if r.Busy {
		parts, plain = append(parts, p.busy.Render("busy")), append(plain, "busy")
	}
	if r.Cwd == wire.CwdUnverified {
		parts, plain = append(parts, p.noCwd.Render("no cwd")), append(plain, "no cwd")
	}
	t := relTime(m.now(), r.UpdatedAt)
	parts, plain = append(parts, p.time.Render(fmt.Sprintf("%8s", t))), append(plain, fmt.Sprintf("%8s", t))
	sep := p.plain.Render(" ")
	return strings.Join(parts, sep), display.Width(strings.Join(plain, " "))
}

// noteLines is the note, wrapped, at most maxNoteLines lines.
func (m *Model) noteLines() []string {
	if m.note == "" {
		return nil
	}
	st := m.styles.Note
	if m.noteBad {
		st = m.styles.Error
	}
	lines := display.Wrap(m.note, max(m.Width()-2, 1))
	if len(lines) > maxNoteLines {
		lines = lines[:maxNoteLines]
		lines[maxNoteLines-1] = display.Truncate(lines[maxNoteLines-1]+" …", max(m.Width()-2, 1), "…")
	}
	for i, l := range lines {
		lines[i] = "  " + st.Render(l)
	}
	return lines
}

// footer is discovery's state: the spinner and the progress in words while
// it runs (the rows are provisional), else the counts, sessions in other
// directories and omitted invalid ones included. Shorter words are used
// under 60 columns and wherever the longer ones would be cut.
func (m *Model) footer() string {
	line := m.footerLine(m.Width() < 60)
	if display.Width(line) > m.Width() {
		line = m.footerLine(true)
	}
	return display.Truncate(line, m.Width(), "…")
}

func (m *Model) footerLine(narrow bool) string {
	var parts []string
	switch {
	case m.open.running:
		parts = append(parts, m.Spinner()+" opening "+m.open.title+"…")
	case m.disc.running && narrow:
		parts = append(parts, m.Spinner()+" "+progressText(m.disc.progress), "provisional")
	case m.disc.running:
		parts = append(parts, m.Spinner()+" "+progressText(m.disc.progress), "rows are provisional until complete")
	case m.complete && narrow:
		parts = append(parts, fmt.Sprintf("%d here", len(m.rows)))
	case m.complete:
		parts = append(parts, plural(len(m.rows), "session")+" here")
	case m.disc.err != "":
		parts = append(parts, "discovery stopped")
	case !m.Shown():
		return ""
	}
	if m.complete {
		n := m.notices
		if narrow {
			parts = append(parts, fmt.Sprintf("%d elsewhere", n.SessionsOtherDirectories), fmt.Sprintf("%d invalid", n.SessionsOmittedInvalid))
		} else {
			parts = append(parts, fmt.Sprintf("%d in other directories", n.SessionsOtherDirectories),
				fmt.Sprintf("%d omitted (malformed or unreadable)", n.SessionsOmittedInvalid))
		}
		switch {
		case n.SessionsOmittedOversized == 0:
		case narrow:
			parts = append(parts, fmt.Sprintf("%d too large", n.SessionsOmittedOversized))
		default:
			parts = append(parts, fmt.Sprintf("%d too large to read (a record over 8 MiB)", n.SessionsOmittedOversized))
		}
	}
	return m.styles.Footer.Render(strings.Join(parts, " · "))
}

// relTime is how long ago ts was, in a few cells ("" when unreadable).
func relTime(now time.Time, ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	case now.Year() == t.Year():
		return t.Local().Format("Jan 2")
	}
	return t.Local().Format("2006-01-02")
}

// displayTitle is a title as a sentence names it.
func displayTitle(t string) string {
	if t == "" {
		return "(untitled)"
	}
	return display.Truncate(t, 40, "…")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
