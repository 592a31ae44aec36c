package bridge

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/internal/display"
)

// diagnosticPrefix starts every line the backend writes on stderr for a
// person to read (a broken config.toml, a home that cannot be opened);
// other lines (a panic's trace) are not shown.
const diagnosticPrefix = wire.DiagnosticPrefix

// saidElsewhere are the starts of diagnostics that are not shown: a
// refresh's outcome, which the Providers page words itself, and the
// server's internal failures, whose call answers with an error the page
// shows (a method that failed, a panic, encoding, reading, writing).
// Compiled on the first diagnostic, not at every process start (issue 17).
var saidElsewhere = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(catalog: refresh |panic in |encoding a |output closed|reading input|[a-z]+(\.[a-z_]+)+ failed: )`)
})

// Bounds of what Diagnostics keeps: lines queued for the root (further
// ones are dropped until it catches up) and the bytes of one line.
const (
	diagnosticQueue = 16
	diagnosticBytes = 1024
)

// Diagnostics is an io.Writer for the backend child's stderr (next to the
// backend log) that hands the backend's diagnostics to the status line:
// the protocol has no message for them, and a broken config.toml, which
// empties the workspace, must not look like an empty project.
type Diagnostics struct {
	mu      sync.Mutex
	partial []byte
	lines   chan DiagnosticMsg
	home    string // the backend home, to name its files in full
}

// NameFilesIn makes the diagnostics name the backend home's files (which
// the backend names by role, config.toml: line 3: ...) by their path in
// home, so a diagnostic that asks for a fix says which file to edit.
func (d *Diagnostics) NameFilesIn(home string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.home = home
}

// homeFiles are the files of the backend home its diagnostics name by role.
var homeFiles = []string{"config.toml", "enabled.json", "trusted.json", "state.json"}

// NameHomeFiles returns a backend diagnostic with the home file it starts
// with ("config.toml: ...", "enabled.json is ...") named by its path in
// home; other text, or an empty home, is returned as it is.
func NameHomeFiles(text, home string) string {
	if home == "" {
		return text
	}
	for _, f := range homeFiles {
		if rest, ok := strings.CutPrefix(text, f); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, " ")) {
			return filepath.Join(home, f) + rest
		}
	}
	return text
}

// NewDiagnostics returns an empty Diagnostics.
func NewDiagnostics() *Diagnostics {
	return &Diagnostics{lines: make(chan DiagnosticMsg, diagnosticQueue)}
}

// Write splits p into lines and queues the diagnostics among them.
func (d *Diagnostics) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	rest := p
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			if room := diagnosticBytes - len(d.partial); room > 0 {
				d.partial = append(d.partial, rest[:min(len(rest), room)]...)
			}
			return len(p), nil
		}
		line := append(d.partial, rest[:min(i, max(diagnosticBytes-len(d.partial), 0))]...)
		d.partial, rest = nil, rest[i+1:]
		if text, ok := strings.CutPrefix(string(line), diagnosticPrefix); ok && text != "" && !saidElsewhere().MatchString(text) {
			select {
			case d.lines <- DiagnosticMsg{Text: display.Clean(NameHomeFiles(text, d.home)), Unserved: strings.HasSuffix(text, wire.UnservedNote)}:
			default: // the root is behind: drop it
			}
		}
	}
}

// DiagnosticMsg is one diagnostic of the backend, in its own words.
type DiagnosticMsg struct {
	Text string
	// Unserved is set when the backend serves nothing of the workspace
	// (a broken config.toml, a workspace or home it cannot open): Text
	// says why, and no listing is to be taken for an empty project.
	Unserved bool
}

// ListenDiagnostics waits for the next diagnostic; the root re-arms it
// after each one. With no Diagnostics (a picker whose child's stderr is
// not read, as in tests) there is nothing to wait for.
func ListenDiagnostics(d *Diagnostics) tea.Cmd {
	if d == nil {
		return nil
	}
	return func() tea.Msg { return <-d.lines }
}

// Diagnostic returns, from the backend child's stderr, the first
// diagnostic in the backend's words whose text starts with prefix ("":
// any), without prefix and without the note that it serves nothing of the
// workspace ("" when there is none). The one-shot commands give it as the
// reason of their one line: `scout sessions --json` when the stores are
// unavailable (a broken config.toml, a home it cannot determine), `scout
// trust` when adoption failed.
func Diagnostic(stderr, prefix string) string {
	for line := range strings.SplitSeq(stderr, "\n") {
		if text, ok := strings.CutPrefix(line, diagnosticPrefix+prefix); ok && text != "" {
			return display.Clean(strings.TrimSuffix(text, wire.UnservedNote))
		}
	}
	return ""
}

// Unserved returns, from the backend child's stderr, why it serves
// nothing of the workspace: the reason of its first diagnostic that says
// so ("" when none does). `scout filter` reads it once the child exited.
func Unserved(stderr string) string {
	for line := range strings.SplitSeq(stderr, "\n") {
		if text, ok := strings.CutPrefix(line, diagnosticPrefix); ok && strings.HasSuffix(text, wire.UnservedNote) {
			return display.Clean(strings.TrimSuffix(text, wire.UnservedNote))
		}
	}
	return ""
}
