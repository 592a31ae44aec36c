package files

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/highlight"
	"github.com/scoutdev/scout/tui/internal/display"
)

// previewDelay is how long the focus must rest on a row before its preview
// is fetched: moving through the list costs no backend calls.
const previewDelay = 60 * time.Millisecond

// previewBytes is how much of a file is read for the preview: far more
// than a pane shows, far less than the protocol's 128 KiB bound.
const previewBytes = 16 << 10

// previewMinWidth is the terminal width from which the preview pane is
// shown beside the list.
const previewMinWidth = 80

// previewPref is whether the preview pane is shown: from previewMinWidth
// until Alt-P is pressed (auto), then as Alt-P last asked, whatever the
// width (on, off), so the key always does what it says.
type previewPref int

const (
	previewAuto previewPref = iota
	previewOn
	previewOff
)

// preview is the preview pane's state.
type preview struct {
	path    string // the row shown (or being fetched)
	target  string // the project path it names (the row's own but for input lines)
	rev     int    // the focus revision the pane belongs to
	cancel  context.CancelFunc
	loading bool
	title   string
	lines   []string // sanitized content lines, cut for highlighting
	note    string   // binary, truncated, unavailable, an error
	file    bool     // lines are a file's (numbered), not a folder's listing
	top     int      // the first line shown (Shift-↑/↓ scroll)
	colour  colouring
}

// previewTickMsg fires previewDelay after the focus moved.
type previewTickMsg struct{ rev int }

// previewMsg is a fetched preview.
type previewMsg struct {
	epoch, rev int
	path       string
	fetched    map[string]*folder
	dir        *folder
	read       *wire.ReadResult
	err        error
}

// previewCmd walks to p and reads it (a file) or lists it (a folder).
func previewCmd(ctx context.Context, w *walker, epoch, rev int, p string) tea.Cmd {
	return func() tea.Msg {
		msg := previewMsg{epoch: epoch, rev: rev, path: p}
		msg.dir, msg.read, msg.err = fetchPreview(ctx, w, p)
		if msg.err != nil && retryable(msg.err) && len(w.known) > 0 {
			w.known = nil // ids may have expired: once more from fresh listings
			msg.dir, msg.read, msg.err = fetchPreview(ctx, w, p)
		}
		msg.fetched = w.fetched
		return msg
	}
}

func fetchPreview(ctx context.Context, w *walker, p string) (*folder, *wire.ReadResult, error) {
	e, err := w.resolve(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	if e.Type == wire.TypeDir {
		f, err := w.folder(ctx, p, e.ID)
		return f, nil, err
	}
	res, err := w.b.ProjectRead(ctx, e.ID, previewBytes)
	if err != nil {
		return nil, nil, err
	}
	if res.Generation != w.gen {
		return nil, nil, errStale
	}
	return nil, &res, nil
}

// fill sets the pane's content from msg.
func (p *preview) fill(msg previewMsg) {
	p.loading, p.lines, p.note, p.file, p.top = false, nil, "", false, 0
	p.colour = colouring{}
	switch {
	case errors.Is(msg.err, errGone):
		// Listed by the scan but not by the folder's listing, which
		// leaves out what it could not serve (docs/protocol.md §4).
		p.note = "no preview: the backend does not serve this file (removed since, a hard link, or unreadable)"
	case msg.err != nil:
		p.note = "preview failed: " + bridge.Describe(msg.err)
	case msg.dir != nil:
		for _, e := range msg.dir.entries {
			name := e.Name
			if e.Type == wire.TypeDir {
				name += "/"
			}
			p.lines = append(p.lines, name)
		}
		if len(p.lines) == 0 {
			p.note = "empty folder"
		}
	case msg.read.Binary:
		p.note = fmt.Sprintf("binary file, %d bytes", msg.read.Size)
	case msg.read.Size == 0:
		p.note = "empty file"
	default:
		p.lines, p.file = contentLines(msg.read.Content), true
		if msg.read.Truncated {
			p.note = fmt.Sprintf("first %d of %d bytes", len(msg.read.Content), msg.read.Size)
		}
	}
}

// tabWidth is how many columns a tab takes in the preview.
const tabWidth = 4

// contentLines splits file content into display lines with tabs expanded
// and every control, escape and bidirectional formatting character made
// visible, so a file can never drive the terminal, each cut to
// highlight.MaxLineBytes (no pane is wider; a minified line costs no more
// than a short one, to highlight and to draw).
func contentLines(s string) []string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = highlight.Cut(sanitize(highlight.Cut(strings.TrimSuffix(l, "\r"))))
	}
	return lines
}

func sanitize(s string) string {
	var b strings.Builder
	// A tab stops at the next multiple of tabWidth columns, counted in
	// display width (a wide character takes two, a combining mark none):
	// col is the width up to seg, where the text since the last tab starts.
	col, seg := 0, 0
	for _, r := range s {
		switch {
		case r == '\t':
			col += display.Width(b.String()[seg:])
			n := tabWidth - col%tabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
			seg = b.Len()
		case r == 0x7f:
			b.WriteString("^?")
		case r < 0x20:
			b.WriteRune('^')
			b.WriteRune('@' + r)
		case (r >= 0x80 && r < 0xa0) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029':
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
