package files

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// countWidth is the room kept right of the query for the counts.
const countWidth = 18

// View implements tui.Page: the query line, the truncation notice, then
// the list with the preview pane beside it when the terminal is wide
// enough.
func (m *Model) View() string {
	var b strings.Builder
	b.WriteString(m.queryLine())
	if n := m.notice(); n != "" {
		b.WriteByte('\n')
		b.WriteString(ansi.Truncate(m.styles.Notice.Render(n), m.width, "…"))
	}
	lw, pw := m.columns()
	list := m.listLines(lw)
	var pane []string
	if pw > 0 {
		pane = m.previewLines(pw, len(list))
	}
	for i, l := range list {
		b.WriteByte('\n')
		b.WriteString(l)
		if pane != nil {
			b.WriteString(strings.Repeat(" ", max(lw-ansi.StringWidth(l), 0)))
			b.WriteString(m.styles.Border.Render("│"))
			b.WriteString(pane[i])
		}
	}
	return b.String()
}

// Cursor places the terminal's cursor in the query line (page
// coordinates).
func (m *Model) Cursor() (x, y int, ok bool) {
	c := m.input.Cursor()
	if c == nil {
		return 0, 0, false
	}
	return c.X, c.Y, true
}

// columns splits the width between the list and the preview pane (0: no
// pane; the border takes one column).
func (m *Model) columns() (list, pane int) {
	if !m.previewShown() {
		return m.width, 0
	}
	list = m.width * 11 / 20
	return list, m.width - list - 1
}

// listHeight is the number of list rows on screen.
func (m *Model) listHeight() int {
	h := m.height - 1
	if m.notice() != "" {
		h--
	}
	return max(h, 1)
}

func (m *Model) notice() string {
	if m.snap == nil || !m.snap.truncated {
		return ""
	}
	if m.canList {
		return "⚠ not every file is listed (the scan hit its bounds); → opens a folder"
	}
	return "⚠ not every file is listed (the scan hit its bounds)"
}

func (m *Model) queryLine() string {
	in := m.input.View()
	counts := m.styles.Count.Render(m.counts())
	if m.scan.running {
		counts = m.spin.View() + " " + counts
	}
	gap := m.width - ansi.StringWidth(in) - ansi.StringWidth(counts)
	if gap < 1 {
		return ansi.Truncate(in, m.width, "")
	}
	return in + strings.Repeat(" ", gap) + counts
}

// counts is the query line's right side: matches of files, or files.
func (m *Model) counts() string {
	switch {
	case m.snap == nil && m.scan.running:
		return "scanning"
	case m.snap == nil:
		return ""
	case !m.treeMode():
		return fmt.Sprintf("%d/%d", m.rank.res.res.Total, m.snap.files)
	}
	return fmt.Sprintf("%d files", m.snap.files)
}

// Status implements tui.Page: counts and marks for the status line.
func (m *Model) Status() string {
	var parts []string
	switch {
	case m.scan.running:
		parts = append(parts, "scanning")
	case m.snap != nil:
		parts = append(parts, fmt.Sprintf("%d files", m.snap.files))
	}
	if m.snap != nil && m.snap.truncated {
		parts = append(parts, "truncated")
	}
	if len(m.marks) > 0 {
		parts = append(parts, fmt.Sprintf("%d marked", len(m.marks)))
	}
	return strings.Join(parts, " · ")
}

// listLines renders the visible rows, or a sentence when there are none.
func (m *Model) listLines(w int) []string {
	h := m.listHeight()
	lines := make([]string, 0, h)
	if m.rowCount() == 0 {
		lines = append(lines, "  "+m.styles.Empty.Render(m.emptyText()))
	}
	for i := m.offset; i < min(m.offset+h, m.rowCount()); i++ {
		lines = append(lines, m.row(i, w))
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

func (m *Model) emptyText() string {
	switch {
	case m.snap == nil && m.scan.running:
		return "scanning…"
	case m.snap == nil && m.scan.err != "":
		return "no snapshot: " + m.scan.err
	case m.snap == nil:
		return "no snapshot; ctrl+r scans"
	case !m.treeMode():
		return "no match"
	}
	return "no files here"
}

// row renders row i in w cells: the focus gutter, the mark, then the path.
func (m *Model) row(i, w int) string {
	focused := i == m.cursor
	st := m.styles.Row
	if focused {
		st = m.styles.Focused
	}
	gutter, mark := " ", " "
	if focused {
		gutter = m.styles.Gutter.Render("▌")
	}
	var p string
	if m.treeMode() {
		r := m.tree.rows[i]
		p = r.path
		body := m.treeRow(r, st, w-2)
		if m.marked[p] {
			mark = m.styles.Mark.Render("•")
		}
		return pad(gutter+mark+body, w, st.Plain, focused)
	}
	v := m.rank.res
	p = v.path(i)
	if m.marked[p] {
		mark = m.styles.Mark.Render("•")
	}
	return pad(gutter+mark+renderPath(p, v.res.Matches[i].Positions, w-2, st), w, st.Plain, focused)
}

// pad fills the focused row to the full width so its background reads as
// one bar.
func pad(s string, w int, st lipgloss.Style, focused bool) string {
	n := w - ansi.StringWidth(s)
	if !focused || n <= 0 {
		return s
	}
	return s + st.Render(strings.Repeat(" ", n))
}

func (m *Model) treeRow(r treeRow, st PathStyles, w int) string {
	indent := strings.Repeat("  ", r.depth)
	icon := "  "
	name := st.Plain.Render(r.name)
	if r.dir {
		icon = "▸ "
		if r.open {
			icon = "▾ "
		}
		name = st.Base.Render(r.name + "/")
	}
	line := st.Plain.Render(indent) + st.Icon.Render(icon) + name
	return ansi.Truncate(line, w, "…")
}

// renderPath renders path p in at most w cells: the directory part in
// st.Dir, the base name in st.Base, and the runes at the byte offsets pos
// in the matching Match style. A path too long keeps its end (the base
// name) and loses its beginning to "…".
func renderPath(p string, pos []int, w int, st PathStyles) string {
	if w <= 0 {
		return ""
	}
	start, lead := 0, ""
	if ansi.StringWidth(p) > w {
		start, lead = cutLeft(p, w-1), "…"
	}
	baseAt := strings.LastIndexByte(p, '/') + 1
	styles := [4]lipgloss.Style{st.Dir, st.Base, st.DirMatch, st.BaseMatch}
	var b strings.Builder
	if lead != "" {
		b.WriteString(st.Dir.Render(lead))
	}
	for len(pos) > 0 && pos[0] < start {
		pos = pos[1:]
	}
	runStart, runClass := start, -1
	for i := range p[start:] {
		i += start
		class := 0
		if i >= baseAt {
			class = 1
		}
		if len(pos) > 0 && pos[0] == i {
			class += 2
			pos = pos[1:]
		}
		if class != runClass {
			if runClass >= 0 {
				b.WriteString(styles[runClass].Render(p[runStart:i]))
			}
			runStart, runClass = i, class
		}
	}
	if runClass >= 0 {
		b.WriteString(styles[runClass].Render(p[runStart:]))
	}
	return b.String()
}

// cutLeft returns the byte offset from which p's tail fits in w cells.
func cutLeft(p string, w int) int {
	width := 0
	i := len(p)
	for i > 0 {
		j := i - 1
		for j > 0 && !isRuneStart(p[j]) {
			j--
		}
		rw := ansi.StringWidth(p[j:i])
		if width+rw > w {
			break
		}
		width += rw
		i = j
	}
	return i
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// previewLines renders the preview pane: a title and the content, h lines
// of at most w cells.
func (m *Model) previewLines(w, h int) []string {
	p := m.preview
	lines := make([]string, 0, h)
	add := func(s string) {
		if len(lines) < h {
			lines = append(lines, " "+ansi.Truncate(s, w-1, "…"))
		}
	}
	if p.title != "" {
		add(m.styles.PreviewTitle.Render(p.title))
	}
	switch {
	case p.loading:
		add(m.styles.PreviewNote.Render("loading…"))
	case p.note != "" && len(p.lines) == 0:
		add(m.styles.PreviewNote.Render(p.note))
	}
	body := h - len(lines)
	if p.note != "" && len(p.lines) > 0 {
		body-- // keep the last line for the note
	}
	for _, l := range p.lines[:min(len(p.lines), max(body, 0))] {
		add(m.styles.PreviewBody.Render(l))
	}
	if p.note != "" && len(p.lines) > 0 {
		add(m.styles.PreviewNote.Render(p.note))
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}
