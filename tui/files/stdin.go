package files

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

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
// each take grows the candidates, and a new ranker over all of them is
// built in a Cmd (rank.New), then the query is ranked again. Builds do not
// overlap, and one starts no sooner after the last than that one took, so
// a fast producer's million lines cost a few builds and a slow one's
// lines are shown as they come.

// stdinState is the page's input when it picks lines.
type stdinState struct {
	src      *Lines
	all      []string // every line read so far (appended only)
	done     bool     // the input ended
	err      string   // why reading failed
	building bool     // a ranker build is in flight
	waiting  bool     // the next build waits for the last one's pause
	built    int      // lines in the snapshot shown
	paths    bool     // the first line names a file of the project: preview by default
	starting bool     // the backend was asked to start, for a preview
}

// linesMsg is a batch of lines taken from the input.
type linesMsg struct {
	batch []string
	done  bool
	err   error
}

// builtMsg is a snapshot of the first n lines, built in took.
type builtMsg struct {
	snap *snapshot
	n    int
	took time.Duration
}

// buildTickMsg starts the build that waited for the last one's pause.
type buildTickMsg struct{}

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
	if len(s.all) == 0 && len(msg.batch) > 0 {
		_, s.paths = projectPath(msg.batch[0])
	}
	s.all = append(s.all, msg.batch...)
	s.done = msg.done
	if msg.err != nil {
		s.err = msg.err.Error()
	}
	cmds := []tea.Cmd{m.build()}
	if !msg.done {
		cmds = append(cmds, m.listenLines())
	} else if msg.err != nil {
		cmds = append(cmds, tui.ReportError(msg.err))
	}
	return tea.Batch(cmds...)
}

// build starts a ranker over every line read, unless one is in flight or
// waiting, or nothing new was read.
func (m *Model) build() tea.Cmd {
	s := m.stdin
	if s.building || s.waiting || len(s.all) == s.built && m.snap != nil {
		return nil
	}
	s.building = true
	lines := s.all
	return func() tea.Msg {
		start := time.Now()
		snap := &snapshot{ranker: rank.New(lines), files: len(lines)}
		return builtMsg{snap: snap, n: len(lines), took: time.Since(start)}
	}
}

func (m *Model) handleBuilt(msg builtMsg) tea.Cmd {
	s := m.stdin
	s.building, s.built = false, msg.n
	m.snap = msg.snap
	cmds := []tea.Cmd{m.startRank(), m.settled(), m.moved()}
	if len(s.all) > s.built {
		s.waiting = true
		cmds = append(cmds, tea.Tick(msg.took, func(time.Time) tea.Msg { return buildTickMsg{} }))
	}
	return tea.Batch(cmds...)
}

func (m *Model) handleBuildTick() tea.Cmd {
	m.stdin.waiting = false
	return m.build()
}

// reading reports whether input is still being read or built.
func (m *Model) reading() bool {
	s := m.stdin
	return s != nil && (!s.done || s.building || s.waiting)
}

// stdinCounts is the query line's right side over the input: matches of
// lines read (those being read included).
func (m *Model) stdinCounts() string {
	s := m.stdin
	if m.rank.res == nil {
		return fmt.Sprintf("%d lines", len(s.all))
	}
	return fmt.Sprintf("%d/%d", m.rank.res.res.Total, len(s.all))
}

// stdinStatus is the status line's part over the input.
func (m *Model) stdinStatus() string {
	parts := []string{fmt.Sprintf("%d lines", len(m.stdin.all))}
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
	case len(s.all) == 0 && !s.done:
		return "reading standard input…"
	case len(s.all) == 0:
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
