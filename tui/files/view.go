package files

import (
	"fmt"
	"strings"

	"github.com/scoutdev/scout/tui/internal/display"
	"github.com/scoutdev/scout/tui/internal/page"
	"github.com/scoutdev/scout/tui/tree"
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
		b.WriteString(display.Truncate(m.styles.Notice.Render(n), m.Width(), "…"))
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
			b.WriteString(strings.Repeat(" ", max(lw-display.Width(l), 0)))
			b.WriteString(m.styles.Border.Render("│"))
			b.WriteString(pane[i])
		}
	}
	return b.String()
}

// Cursor places the terminal's cursor in the query line (page
// coordinates).
func (m *Model) Cursor() (x, y int, ok bool) {
	return page.QueryCursor(m.input)
}

// columns splits the width between the list and the preview pane (0: no
// pane; the border takes one column).
func (m *Model) columns() (list, pane int) {
	if !m.previewShown() {
		return m.Width(), 0
	}
	list = m.Width() * 11 / 20
	return list, m.Width() - list - 1
}

// listHeight is the number of list rows on screen.
func (m *Model) listHeight() int {
	h := m.Height() - 1
	if m.notice() != "" {
		h--
	}
	return max(h, 1)
}

// notice is the line under the query for a truncated snapshot, in
// shorter words when the longer ones do not fit: what the index is doing
// when it extends the snapshot, else that not every file is listed.
func (m *Model) notice() string {
	if m.snap == nil || !m.snap.truncated {
		return ""
	}
	if m.following() {
		return m.indexNotice()
	}
	long, short := "⚠ not every file is listed (the scan hit its bounds)", "⚠ not all files listed"
	if m.canList {
		long, short = long+"; → opens a folder", short+"; → opens a folder"
	}
	if display.Width(long) > m.Width() {
		return short
	}
	return long
}

func (m *Model) queryLine() string {
	in := m.input.View()
	counts := m.styles.Count.Render(m.counts())
	if m.scan.running || m.reading() || m.indexingNow() {
		counts = m.Spinner() + " " + counts
	}
	return page.QueryLine(m.Width(), in, counts)
}

// counts is the query line's right side: matches of files, or files.
func (m *Model) counts() string {
	if m.stdin != nil {
		return m.stdinCounts()
	}
	switch {
	case m.snap == nil && m.scan.running:
		return "scanning"
	case m.snap == nil:
		return ""
	case !m.treeMode():
		return fmt.Sprintf("%d/%d", m.rank.res.res.Total, m.snap.files)
	}
	return m.counted(m.snap.files)
}

// Status implements tui.Page: counts and marks for the status line.
func (m *Model) Status() string {
	if m.stdin != nil {
		return m.stdinStatus()
	}
	var parts []string
	switch {
	case m.scan.running:
		parts = append(parts, "scanning")
	case m.snap != nil:
		parts = append(parts, m.counted(m.snap.files))
	}
	switch {
	case m.snap == nil || !m.snap.truncated || (m.following() && m.idx.complete):
	case m.indexingNow():
		parts = append(parts, "indexing")
	case m.idx.stopped:
		parts = append(parts, "index stopped at the ceiling")
	default:
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
		// Wrapped, never cut: it may be the reason nothing is listed.
		for _, l := range strings.Split(display.WrapWords(m.emptyText(), max(w-2, 1), ""), "\n") {
			lines = append(lines, "  "+m.styles.Empty.Render(l))
		}
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
	if m.stdin != nil {
		return m.stdinEmptyText()
	}
	switch {
	case m.unserved != "" && !m.scan.running:
		return "nothing can be listed: " + m.unserved + ". Fix it, then press R to restart the backend."
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
	pp := m.paints.row
	if focused {
		pp = m.paints.focused
	}
	var b strings.Builder
	p := m.rowPath(i)
	if focused {
		m.paints.gutter.Add(&b, "▌")
	} else {
		b.WriteByte(' ')
	}
	if m.marked[p] {
		m.paints.mark.Add(&b, "•")
	} else {
		b.WriteByte(' ')
	}
	switch {
	case m.treeMode():
		m.treeRow(&b, m.tree.Rows()[i], pp, w-2)
	case m.stdin != nil:
		renderLine(&b, p, m.rank.res.res.Matches[i].Positions, w-2, pp)
	default:
		renderPath(&b, p, m.rank.res.res.Matches[i].Positions, w-2, pp)
	}
	if n := w - display.Width(b.String()); focused && n > 0 {
		// The focused row's background reads as one bar.
		pp.plain.Add(&b, strings.Repeat(" ", n))
	}
	return b.String()
}

func (m *Model) rowPath(i int) string {
	if m.treeMode() {
		return m.tree.Rows()[i].Path
	}
	return m.rank.res.path(i)
}

// treeRow renders a tree row in at most w cells: indentation, the folder
// arrow, the name (a folder's emphasised, with a slash).
func (m *Model) treeRow(b *strings.Builder, r tree.Row, pp pathPaint, w int) {
	indent := strings.Repeat("  ", r.Depth)
	icon, name, np := "  ", r.Name, pp.plain
	if r.Dir {
		icon, name, np = "▸ ", r.Name+"/", pp.base
		if r.Expanded {
			icon = "▾ "
		}
	}
	name = display.Visible(name)
	if len(indent)+2+display.Width(name) > w {
		name = display.Truncate(indent+icon+name, w, "…")
		indent, icon = "", ""
		if w <= 0 {
			return
		}
	}
	pp.plain.Add(b, indent)
	pp.icon.Add(b, icon)
	np.Add(b, name)
}

// renderPath renders path p in at most w cells: the directory part
// dimmed, the base name emphasised, and the runes at the byte offsets pos
// highlighted. A path too long keeps its end (the base name) and loses its
// beginning to "…", unless every match would go with it: then the window
// ends with the path component of the last match, so the row still shows
// why it matched, and "…" stands for what is cut on either side.
func renderPath(b *strings.Builder, p string, pos []int, w int, pp pathPaint) {
	if w <= 0 {
		return
	}
	p = display.Visible(p)
	start, end := pathWindow(p, pos, w)
	if start > 0 {
		pp.dir.Add(b, "…")
	}
	baseAt := strings.LastIndexByte(p, '/') + 1
	paints := [4]display.Paint{pp.dir, pp.base, pp.dirMatch, pp.baseMatch}
	for len(pos) > 0 && pos[0] < start {
		pos = pos[1:]
	}
	runStart, runClass := start, -1
	for i := range p[start:end] {
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
				paints[runClass].Add(b, p[runStart:i])
			}
			runStart, runClass = i, class
		}
	}
	if runClass >= 0 {
		paints[runClass].Add(b, p[runStart:end])
	}
	if end < len(p) {
		pp.dir.Add(b, "…")
	}
}

// pathWindow returns the bytes [start, end) of p that renderPath draws in
// w cells (w > 0), leaving a cell for each "…" it needs: the tail when p
// is too long, or, when no match would be left in the tail, the stretch
// ending with the last match's path component.
func pathWindow(p string, pos []int, w int) (start, end int) {
	if display.Width(p) <= w {
		return 0, len(p)
	}
	start = cutLeft(p, w-1)
	if len(pos) == 0 || pos[len(pos)-1] >= start || w < 3 {
		return start, len(p)
	}
	last := pos[len(pos)-1]
	end = len(p)
	if slash := strings.IndexByte(p[last:], '/'); slash >= 0 {
		end = last + slash
	}
	if display.Width(p[last:end]) > w-2 {
		end = last + 1
		for end < len(p) && !isRuneStart(p[end]) {
			end++
		}
	}
	start = cutLeft(p[:end], w-2)
	if start > 0 {
		return start, end
	}
	// The head fits: give the cells the left "…" would have had to more of
	// what follows the match.
	return 0, cutRight(p, w-1)
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
		rw := display.Width(p[j:i])
		if width+rw > w {
			break
		}
		width += rw
		i = j
	}
	return i
}

// cutRight returns the byte offset up to which p's head fits in w cells.
func cutRight(p string, w int) int {
	width := 0
	i := 0
	for i < len(p) {
		j := i + 1
		for j < len(p) && !isRuneStart(p[j]) {
			j++
		}
		rw := display.Width(p[i:j])
		if width+rw > w {
			break
		}
		width += rw
		i = j
	}
	return i
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
