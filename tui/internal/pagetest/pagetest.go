// Package pagetest drives the root model with real pages over a scripted
// backend (bridgetest.Fake) in teatest, for the pages' tests: it records a
// frame before every message the program handles (so reading it races
// with nothing), waits for frames that satisfy a condition (on the
// program's messages, never on a clock: Loop), and sends keys.
package pagetest

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
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/internal/display"
)

// Frame is what a test sees of the program at one moment: the root's view
// (with escapes), the active tab's title, and whatever the test's probe
// read from its page.
type Frame struct {
	View  string
	Tab   string
	State any
}

// Plain is the view without escapes.
func (f Frame) Plain() string { return ansi.Strip(f.View) }

// Harness runs a program.
type Harness struct {
	t testing.TB
	// TM is the running program (send it messages, read its end).
	TM *teatest.TestModel
	// Fake is the scripted backend the pages call.
	Fake *bridgetest.Fake

	probe func() any
	loop  *Loop
	mu    sync.Mutex
	last  Frame
}

// Options describe the program.
type Options struct {
	Pages  []tui.Page
	Active int
	Width  int
	Height int
	// Banner is the root's banner line (tui.Options.Banner).
	Banner string
	// Probe reads the page's state for Frame.State; it runs on the event
	// loop.
	Probe func() any
}

// Start runs the root model with opts.Pages over fake, and returns once
// the program has had its start-up messages (Loop.Started): a test's own
// size or colour profile comes after them.
func Start(t testing.TB, fake *bridgetest.Fake, opts Options) *Harness {
	t.Helper()
	h := &Harness{t: t, Fake: fake, probe: opts.Probe}
	h.loop = NewLoop(h.record)
	m := tui.New(tui.Options{Backend: fake, Pages: opts.Pages, Active: opts.Active, Banner: opts.Banner})
	h.TM = teatest.NewTestModel(t, m, teatest.WithInitialTermSize(opts.Width, opts.Height),
		// A fixed colour profile: the test output is no terminal.
		teatest.WithProgramOptions(tea.WithFilter(h.loop.Filter), tea.WithColorProfile(colorprofile.TrueColor)))
	t.Cleanup(func() {
		_ = h.TM.Quit()
		h.TM.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
		fake.Close()
	})
	if !h.loop.Started(time.Now().Add(Timeout)) {
		t.Fatal("the program did not get its initial size and colour profile")
	}
	return h
}

func (h *Harness) record(m tea.Model) {
	root, ok := m.(tui.Model)
	if !ok {
		return
	}
	f := Frame{View: root.View().Content, Tab: root.Active().Title()}
	if h.probe != nil {
		f.State = h.probe()
	}
	h.mu.Lock()
	h.last = f
	h.mu.Unlock()
}

// Timeout is generous: the machines running the tests are shared.
const Timeout = 15 * time.Second

// Wait waits until cond holds for the frame after a message, and returns
// that frame.
func (h *Harness) Wait(what string, cond func(Frame) bool) Frame {
	h.t.Helper()
	var f Frame
	if !h.loop.Until(h.TM, time.Now().Add(Timeout), func() bool { f = h.lastFrame(); return cond(f) }) {
		h.t.Fatalf("timed out waiting for %s; last view:\n%s", what, h.lastFrame().Plain())
	}
	return f
}

// Now returns the frame after every message sent so far has been handled:
// what a test checks when it asserts that a message changed nothing.
func (h *Harness) Now() Frame {
	h.t.Helper()
	return h.Wait("the program to handle what was sent", func(Frame) bool { return true })
}

// WaitMsg waits until a message for which match holds has been handled
// (Loop.Handled) and returns the frame after it.
func (h *Harness) WaitMsg(what string, match func(tea.Msg) bool) Frame {
	h.t.Helper()
	if !h.loop.Handled(h.TM, time.Now().Add(Timeout), match) {
		h.t.Fatalf("timed out waiting for %s; last view:\n%s", what, h.lastFrame().Plain())
	}
	return h.lastFrame()
}

func (h *Harness) lastFrame() Frame {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.last
}

// WaitText waits until the plain view contains every one of texts.
func (h *Harness) WaitText(texts ...string) Frame {
	h.t.Helper()
	return h.Wait("the view to show "+strings.Join(texts, ", "), func(f Frame) bool {
		plain := f.Plain()
		for _, s := range texts {
			if !strings.Contains(plain, s) {
				return false
			}
		}
		return true
	})
}

// Press sends a key press.
func (h *Harness) Press(code rune, mod ...tea.KeyMod) {
	k := tea.KeyPressMsg{Code: code}
	for _, m := range mod {
		k.Mod |= m
	}
	h.TM.Send(k)
}

// Type types s.
func (h *Harness) Type(s string) { h.TM.Type(s) }

// Outcome waits for the program to end and returns how.
func (h *Harness) Outcome() tui.Outcome {
	h.t.Helper()
	m := h.TM.FinalModel(h.t, teatest.WithFinalTimeout(Timeout))
	return m.(tui.Model).Outcome()
}

// ANSI256 renders a view as a 256-colour terminal would receive it: the
// fixed colour profile of golden files.
func ANSI256(s string) string {
	var b bytes.Buffer
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.ANSI256}
	_, _ = w.WriteString(s)
	return b.String()
}

// stillSpinner maps every frame of the spinners the pages use (bubbles'
// MiniDot) to the first, so a golden view does not depend on how many
// ticks went by.
var stillSpinner = strings.NewReplacer("⠙", "⠋", "⠹", "⠋", "⠸", "⠋", "⠼", "⠋", "⠴", "⠋", "⠦", "⠋", "⠧", "⠋", "⠇", "⠋", "⠏", "⠋")

// Golden is a view as golden files hold it: rendered for a 256-colour
// terminal, with spinners stopped at their first frame.
func Golden(view string) string { return stillSpinner.Replace(ANSI256(view)) }

// CheckFits fails the test when view is taller than hgt or a line wider
// than w.
func CheckFits(t testing.TB, view string, w, hgt int) {
	t.Helper()
	ls := strings.Split(view, "\n")
	if len(ls) > hgt {
		t.Fatalf("%d lines for a height of %d", len(ls), hgt)
	}
	for _, l := range ls {
		if display.Width(l) > w {
			t.Fatalf("line %q is wider than %d", ansi.Strip(l), w)
		}
	}
}
