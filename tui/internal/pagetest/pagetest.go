// Package pagetest drives the root model with real pages over a scripted
// backend (bridgetest.Fake) in teatest, for the pages' tests: it records a
// frame before every message the program handles (so reading it races
// with nothing), waits for frames that satisfy a condition, and sends
// keys.
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
)

// Frame is what a test sees of the program at one moment: the root's view
// (with escapes), and whatever the test's probe read from its page.
type Frame struct {
	View  string
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

// probeMsg is a message nobody handles: sending it records a fresh frame.
type probeMsg struct{}

// Start runs the root model with opts.Pages over fake.
func Start(t testing.TB, fake *bridgetest.Fake, opts Options) *Harness {
	t.Helper()
	h := &Harness{t: t, Fake: fake, probe: opts.Probe}
	m := tui.New(tui.Options{Backend: fake, Pages: opts.Pages, Active: opts.Active, Banner: opts.Banner})
	h.TM = teatest.NewTestModel(t, m, teatest.WithInitialTermSize(opts.Width, opts.Height),
		// A fixed colour profile: the test output is no terminal.
		teatest.WithProgramOptions(tea.WithFilter(h.filter), tea.WithColorProfile(colorprofile.TrueColor)))
	t.Cleanup(func() {
		_ = h.TM.Quit()
		h.TM.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
		fake.Close()
	})
	return h
}

func (h *Harness) filter(m tea.Model, msg tea.Msg) tea.Msg {
	root, ok := m.(tui.Model)
	if !ok {
		return msg
	}
	f := Frame{View: root.View().Content}
	if h.probe != nil {
		f.State = h.probe()
	}
	h.mu.Lock()
	h.last = f
	h.mu.Unlock()
	return msg
}

// Timeout is generous: the machines running the tests are shared.
const Timeout = 15 * time.Second

// Wait probes until cond holds for a frame and returns that frame.
func (h *Harness) Wait(what string, cond func(Frame) bool) Frame {
	h.t.Helper()
	deadline := time.Now().Add(Timeout)
	for {
		h.TM.Send(probeMsg{})
		time.Sleep(5 * time.Millisecond)
		h.mu.Lock()
		f := h.last
		h.mu.Unlock()
		if cond(f) {
			return f
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s; last view:\n%s", what, f.Plain())
		}
	}
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
		if ansi.StringWidth(l) > w {
			t.Fatalf("line %q is wider than %d", ansi.Strip(l), w)
		}
	}
}
