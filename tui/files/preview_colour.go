package files

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/tui/highlight"
)

// A file's preview is drawn plain as soon as it is read, then coloured
// (tui/highlight, in a Cmd: a lexer can take milliseconds) when its
// language is known, the terminal has colours and the focus is still on
// it. A change of background colours it again; NO_COLOR never colours.

// colouring is the highlighting of the preview's lines.
type colouring struct {
	lines   []string // the pane's lines highlighted (nil: drawn plain)
	dark    bool     // the background they were highlighted for
	pending bool     // a highlighting is on its way
	cancel  context.CancelFunc
}

// colourMsg is the highlighted lines of the preview of focus revision
// rev, for a dark or light background.
type colourMsg struct {
	rev   int
	dark  bool
	lines []string
}

// colourPreview starts highlighting the pane's file when that applies
// and it is not highlighted for the current background yet.
func (m *Model) colourPreview() tea.Cmd {
	p := &m.preview
	if m.NoColor() || !p.file || len(p.lines) == 0 || !highlight.Supported(p.target) {
		p.colour = colouring{}
		return nil
	}
	if p.colour.lines != nil && p.colour.dark == m.IsDark() {
		return nil
	}
	if p.colour.cancel != nil {
		p.colour.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.colour.cancel, p.colour.pending = cancel, true
	rev, dark, name, lines := p.rev, m.IsDark(), p.target, p.lines
	return func() tea.Msg {
		defer cancel()
		out, err := highlight.Lines(ctx, name, lines, dark)
		if err != nil {
			out = nil // cancelled: moved on, or coloured again
		}
		return colourMsg{rev: rev, dark: dark, lines: out}
	}
}

func (m *Model) handleColour(msg colourMsg) {
	p := &m.preview
	if msg.rev != p.rev || msg.dark != m.IsDark() || m.NoColor() || !p.colour.pending {
		return // an older file or background: a newer colouring is on its way
	}
	p.colour.pending = false
	if len(msg.lines) == len(p.lines) {
		p.colour.lines, p.colour.dark = msg.lines, msg.dark
	}
}

// stop abandons the pane's fetch and colouring in flight.
func (p *preview) stop() {
	for _, c := range []context.CancelFunc{p.cancel, p.colour.cancel} {
		if c != nil {
			c()
		}
	}
}

// scrollPreview moves the pane's first line by d lines, within the file.
func (m *Model) scrollPreview(d int) {
	p := &m.preview
	p.top = max(min(p.top+d, len(p.lines)-m.previewBody()), 0)
}

// previewBody is how many content lines the pane shows at once.
func (m *Model) previewBody() int {
	h := m.listHeight()
	if m.preview.title != "" {
		h--
	}
	if m.preview.note != "" && len(m.preview.lines) > 0 {
		h--
	}
	return max(h, 1)
}

// previewStep is how far a preview scroll key moves: a line, or a page
// of body lines.
func previewStep(k KeyMap, msg tea.KeyPressMsg, page int) int {
	switch {
	case key.Matches(msg, k.PreviewUp):
		return -1
	case key.Matches(msg, k.PreviewDown):
		return 1
	case key.Matches(msg, k.PreviewPageUp):
		return -page
	}
	return page
}
