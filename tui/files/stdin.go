package files

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/rank"
)

// The page over standard input (Options.Lines): the lines read are the
// candidates, in input order under an empty query and ranked under any
// other, as they stream in. There is no tree, no scan and, unless a line
// names a file of the project to preview, no backend: the first preview
// of such a line starts the child (bridge.Lazy, through bridge.Restart)
// and goes through project.list/read like any other.
//
// Lines are read by Lines' goroutine and taken by a self-re-arming Cmd;
// each take is added to the page's one ranker in a Cmd (rank.New for the
// first, then (*rank.Ranker).Add, whose cost is the batch's and which
// keeps the cached rankings of earlier queries valid), then the query is
// ranked again. Additions do not overlap: what is read meanwhile waits
// for the next one, so a fast producer's million lines arrive in a few
// large batches and a slow one's lines are shown as they come.

// stdinState is the page's input when it picks lines.
type stdinState struct {
	src      *Lines
	pending  []string // read, not yet added to the ranker
	read     int      // lines read so far
	done     bool     // the input ended
	err      string   // why reading failed
	adding   bool     // an addition to the ranker is in flight
	paths    bool     // the first line names a file of the project: preview by default
	starting bool     // the backend was asked to start, for a preview
}

// linesMsg is a batch of lines taken from the input.
type linesMsg struct {
	batch []string
	done  bool
	err   error
}

// firstLines bounds the first ranker: a few screens of rows, ready at
// once however much was read before the page took its first lines (a
// file on standard input is read faster than a terminal starts).
const firstLines = 1000

// addedMsg is the snapshot of the input once a batch was added to it.
type addedMsg struct{ snap *snapshot }

// listenLines waits for the next batch of lines.
func (m *Model) listenLines() tea.Cmd {
	src := m.stdin.src
	return func() tea.Msg {
		batch, done, err := src.Take()
		return linesMsg{batch: batch, done: done, err: err}
	}
}

func (m *Model) handleLines(msg linesMsg) tea.Cmd {
	s := m.stdin
	if s.read == 0 && len(msg.batch) > 0 {
		_, s.paths = projectPath(msg.batch[0])
	}
	s.pending = append(s.pending, msg.batch...)
	s.read += len(msg.batch)
	s.done = msg.done
	if msg.err != nil {
		s.err = msg.err.Error()
	}
	cmds := []tea.Cmd{m.add()}
	if !msg.done {
		cmds = append(cmds, m.listenLines())
	} else if msg.err != nil {
		cmds = append(cmds, tui.ReportError(msg.err))
	}
	return tea.Batch(cmds...)
}

// add hands the lines read since the last addition to the ranker (a new
// one for the first lines, or for none at the end of an empty input),
// unless an addition is in flight.
func (m *Model) add() tea.Cmd {
	s := m.stdin
	if s.adding || len(s.pending) == 0 && (m.snap != nil || !s.done) {
		return nil
	}
	s.adding = true
	batch, snap := s.pending, m.snap
	if snap == nil && len(batch) > firstLines {
		// Rows first: what was read meanwhile follows with Add.
		batch = batch[:firstLines:firstLines]
	}
	s.pending = s.pending[len(batch):]
	return func() tea.Msg {
		if snap == nil {
			return addedMsg{snap: &snapshot{ranker: rank.New(batch)}}
		}
		snap.ranker.Add(batch)
		return addedMsg{snap: snap}
	}
}

func (m *Model) handleAdded(msg addedMsg) tea.Cmd {
	m.stdin.adding = false
	m.snap = msg.snap
	m.snap.files = m.snap.ranker.Len()
	return tea.Batch(m.startRank(), m.settled(), m.moved(), m.add())
}

// reading reports whether input is still being read or built.
func (m *Model) reading() bool {
	s := m.stdin
	return s != nil && (!s.done || s.adding || len(s.pending) > 0)
}

// stdinCounts is the query line's right side over the input: matches of
// lines read (those being read included).
func (m *Model) stdinCounts() string {
	s := m.stdin
	if m.rank.res == nil {
		return plural(s.read, "line")
	}
	return fmt.Sprintf("%d/%d", m.rank.res.res.Total, s.read)
}

// stdinStatus is the status line's part over the input.
func (m *Model) stdinStatus() string {
	parts := []string{plural(m.stdin.read, "line")}
	if !m.stdin.done {
		parts = append(parts, "reading")
	}
	if len(m.marks) > 0 {
		parts = append(parts, fmt.Sprintf("%d marked", len(m.marks)))
	}
	return strings.Join(parts, " · ")
}

func (m *Model) stdinEmptyText() string {
	s := m.stdin
	switch {
	case s.err != "":
		return s.err
	case s.read == 0 && !s.done:
		return "reading standard input…"
	case s.read == 0:
		return "no input: standard input had no lines"
	case m.snap == nil:
		return "reading standard input…"
	}
	return "no match"
}

// projectPath returns the path a line names relative to the workspace
// (the current directory), when it names a file or folder there: a
// relative path that stays inside (./ and the like cleaned away), or an
// absolute one under the current directory. Only the file's existence is
// looked at (Lstat), to decide whether a preview is worth the backend;
// what the preview shows comes through the backend and its policy.
func projectPath(line string) (string, bool) {
	p := filepath.Clean(line)
	if filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", false
		}
		if p, err = filepath.Rel(wd, p); err != nil {
			return "", false
		}
	}
	if !filepath.IsLocal(p) {
		return "", false
	}
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() && !fi.IsDir() {
		return "", false
	}
	return filepath.ToSlash(p), true
}

// renderLine renders an input line like a path (renderPath), with its
// control, escape and bidirectional characters made visible and the
// match positions moved with them.
func renderLine(b *strings.Builder, line string, pos []int, w int, pp pathPaint) {
	var out strings.Builder
	moved := make([]int, 0, len(pos))
	for i, r := range line {
		if len(pos) > 0 && pos[0] == i {
			moved = append(moved, out.Len())
			pos = pos[1:]
		}
		out.WriteString(sanitize(string(r)))
	}
	renderPath(b, out.String(), moved, w, pp)
}

// noPreviewNote is the pane of an input line that names no file.
const noPreviewNote = "no preview: this line names no file of the project"

// previewInput prepares the pane of input line p before the backend runs:
// a line that names a file of the project starts the backend (once);
// its RestartedMsg starts the preview over.
func (m *Model) previewInput(p string) tea.Cmd {
	t, ok := projectPath(p)
	if !ok {
		m.preview.note = noPreviewNote
		return nil
	}
	m.preview.target, m.preview.title, m.preview.loading = t, t, true
	if m.stdin.starting {
		return nil
	}
	m.stdin.starting = true
	return bridge.Restart(m.backend)
}
