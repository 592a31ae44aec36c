package files

import (
	"strconv"
	"strings"

	"github.com/scoutdev/scout/tui/internal/display"
)

// previewLines renders the preview pane: a title and the content from
// its first line shown (a file's lines numbered), h lines of at most w
// cells.
func (m *Model) previewLines(w, h int) []string {
	p := m.preview
	lines := make([]string, 0, h)
	add := func(s string) {
		if len(lines) < h {
			lines = append(lines, " "+display.Truncate(s, w-1, "…"))
		}
	}
	if p.title != "" {
		add(m.styles.PreviewTitle.Render(display.Visible(p.title)))
	}
	switch {
	case p.loading:
		add(m.styles.PreviewNote.Render("loading…"))
	case p.note != "" && len(p.lines) == 0:
		// The note is all there is (a reason, a failure): wrapped whole.
		for _, l := range display.Wrap(p.note, w-1) {
			add(m.styles.PreviewNote.Render(l))
		}
	}
	body := h - len(lines)
	if p.note != "" && len(p.lines) > 0 {
		body-- // keep the last line for the note
	}
	top := min(p.top, len(p.lines))
	end := min(len(p.lines), top+max(body, 0))
	digits := len(strconv.Itoa(len(p.lines)))
	for i := top; i < end; i++ {
		add(m.previewLine(i, digits))
	}
	if p.note != "" && len(p.lines) > 0 {
		add(m.styles.PreviewNote.Render(p.note))
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

// previewLine is line i of the pane: for a file, its number in a column
// digits wide, then the text, highlighted once the colouring is in.
func (m *Model) previewLine(i, digits int) string {
	p := m.preview
	text := m.styles.PreviewBody.Render(p.lines[i])
	if p.colour.lines != nil {
		text = p.colour.lines[i]
	}
	if !p.file {
		return text
	}
	n := strconv.Itoa(i + 1)
	return m.styles.LineNumber.Render(strings.Repeat(" ", digits-len(n))+n) + " " + text
}
