package files_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/files"
)

// fixture is a small but realistic project.
var fixture = []string{
	"README.md",
	"cmd/scout/main.go",
	"cmd/scout/root.go",
	"docs/main.md",
	"go.mod",
	"internal/server/http.go",
	"internal/server/http_test.go",
	"internal/server/main_test.go",
	"pkg/maintenance/manager.go",
	"vendor/github.com/acme/lib/main.go",
	"web/src/app.tsx",
	"web/src/main.ts",
}

var fixtureContents = map[string]string{
	"cmd/scout/main.go": "package main\n\nfunc main() {\n\trun()\n}\n",
	"README.md":         "# scout\n\nA picker.\n",
	"docs/main.md":      "# main\n\nNotes about main.\n",
}

// frame is what a test can see of the program: taken on the event loop
// (a filter sees the model before each message), so reading it races with
// nothing.
type frame struct {
	view    string
	query   string
	rows    []string
	focused string
	marked  []string
	settled bool
}

// harness drives the root model with a Files page over a fake backend.
type harness struct {
	t    *testing.T
	tm   *teatest.TestModel
	fake *bridgetest.Fake
	page *files.Model

	mu   sync.Mutex
	last frame
	seen int
}

// probe is a message nobody handles: sending it makes the filter record a
// fresh frame.
type probe struct{}

func start(t *testing.T, fake *bridgetest.Fake, opts files.Options, w, h int) *harness {
	t.Helper()
	return startWith(t, fake, fake, opts, w, h)
}

// startWith is start with b as the backend of the root and the page (fake,
// closed at the end, may be what b starts).
func startWith(t *testing.T, b bridge.Backend, fake *bridgetest.Fake, opts files.Options, w, h int) *harness {
	t.Helper()
	opts.Backend = b
	hs := &harness{t: t, fake: fake, page: files.New(opts)}
	m := tui.New(tui.Options{Backend: b, Pages: []tui.Page{
		hs.page,
		tui.NewPlaceholder("Sessions", "sessions page"),
		tui.NewPlaceholder("Providers", "providers page"),
	}})
	hs.tm = teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		// A fixed colour profile: the test output is no terminal.
		teatest.WithProgramOptions(tea.WithFilter(hs.filter), tea.WithColorProfile(colorprofile.TrueColor)))
	t.Cleanup(func() {
		_ = hs.tm.Quit()
		hs.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
		fake.Close()
	})
	return hs
}

func (h *harness) filter(m tea.Model, msg tea.Msg) tea.Msg {
	root, ok := m.(tui.Model)
	if !ok {
		return msg
	}
	f := frame{view: root.View().Content, query: h.page.Query(), rows: h.page.Rows(), focused: h.page.Focused(), marked: h.page.Marked(), settled: h.page.Settled()}
	h.mu.Lock()
	h.last = f
	h.seen++
	h.mu.Unlock()
	return msg
}

// waitTimeout is generous: the machines running the tests are shared.
const waitTimeout = 15 * time.Second

// wait probes until cond holds for a frame, and returns that frame.
func (h *harness) wait(what string, cond func(frame) bool) frame {
	h.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		h.tm.Send(probe{})
		time.Sleep(5 * time.Millisecond)
		h.mu.Lock()
		f := h.last
		h.mu.Unlock()
		if cond(f) {
			return f
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s; last view:\n%s", what, ansi.Strip(f.view))
		}
	}
}

// waitText waits until the plain view contains s.
func (h *harness) waitText(s string) frame {
	h.t.Helper()
	return h.wait("the view to show "+s, func(f frame) bool { return strings.Contains(ansi.Strip(f.view), s) })
}

func (h *harness) typeText(s string) { h.tm.Type(s) }

func (h *harness) press(code rune) { h.tm.Send(tea.KeyPressMsg{Code: code}) }

func (h *harness) pressMod(code rune, mod tea.KeyMod) {
	h.tm.Send(tea.KeyPressMsg{Code: code, Mod: mod})
}

// outcome quits nothing itself: it waits for the program to end and
// returns how.
func (h *harness) outcome() tui.Outcome {
	h.t.Helper()
	m := h.tm.FinalModel(h.t, teatest.WithFinalTimeout(waitTimeout))
	return m.(tui.Model).Outcome()
}

// settled waits until no scan runs and the ranking matches the query.
func (h *harness) settled(query string) frame {
	h.t.Helper()
	return h.wait("the page to settle on "+query, func(f frame) bool { return f.query == query && f.settled })
}

// ansi256 renders a view as a 256-colour terminal would receive it: the
// fixed colour profile of the golden files.
func ansi256(s string) string { return withProfile(s, colorprofile.ANSI256) }

// withProfile renders a view as a terminal of profile p would receive it.
func withProfile(s string, p colorprofile.Profile) string {
	var b bytes.Buffer
	w := &colorprofile.Writer{Forward: &b, Profile: p}
	_, _ = w.WriteString(s)
	return b.String()
}

// lines returns the plain lines of a view.
func lines(view string) []string { return strings.Split(ansi.Strip(view), "\n") }
