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
	"github.com/scoutdev/scout/tui/internal/pagetest"
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

	loop *pagetest.Loop
	mu   sync.Mutex
	last frame
}

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
	hs.loop = pagetest.NewLoop(hs.record)
	hs.tm = teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		// A fixed colour profile: the test output is no terminal.
		teatest.WithProgramOptions(tea.WithFilter(hs.loop.Filter), tea.WithColorProfile(colorprofile.TrueColor)))
	t.Cleanup(func() {
		_ = hs.tm.Quit()
		hs.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
		fake.Close()
	})
	// A test's own size or colour profile must come after the program's.
	if !hs.loop.Started(time.Now().Add(waitTimeout)) {
		t.Fatal("the program did not get its initial size and colour profile")
	}
	return hs
}

func (h *harness) record(m tea.Model) {
	root, ok := m.(tui.Model)
	if !ok {
		return
	}
	f := frame{view: root.View().Content, query: h.page.Query(), rows: h.page.Rows(), focused: h.page.Focused(), marked: h.page.Marked(), settled: h.page.Settled()}
	h.mu.Lock()
	h.last = f
	h.mu.Unlock()
}

// waitTimeout is generous: the machines running the tests are shared.
const waitTimeout = 15 * time.Second

// wait waits until cond holds for the frame after a message (pagetest.Loop),
// and returns that frame.
func (h *harness) wait(what string, cond func(frame) bool) frame {
	h.t.Helper()
	var f frame
	check := func() bool {
		h.mu.Lock()
		f = h.last
		h.mu.Unlock()
		return cond(f)
	}
	if !h.loop.Until(h.tm, time.Now().Add(waitTimeout), check) {
		h.t.Fatalf("timed out waiting for %s; last view:\n%s", what, ansi.Strip(f.view))
	}
	return f
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
