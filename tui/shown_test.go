package tui_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
)

// recorder is a page that counts the ShownMsgs it gets and, while busy,
// takes Esc.
type recorder struct {
	*tui.Placeholder
	shown, escs *atomic.Int32
	busy        bool
}

func newRecorder(title string) recorder {
	return recorder{Placeholder: tui.NewPlaceholder(title, title+" page"), shown: new(atomic.Int32), escs: new(atomic.Int32), busy: true}
}

func (r recorder) Update(msg tea.Msg) (tui.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case tui.ShownMsg:
		r.shown.Add(1)
	case tea.KeyPressMsg:
		if msg.String() == "esc" {
			r.escs.Add(1)
			r.busy = false
		}
	}
	return r, nil
}

func (r recorder) View() string {
	return fmt.Sprintf("%s shown %d", r.Title(), r.shown.Load())
}

func (r recorder) CapturesKey(msg tea.KeyPressMsg) bool { return r.busy && msg.String() == "esc" }

func TestShownGoesToTheActivePageAndCapturedEscToo(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{})
	a, b := newRecorder("A"), newRecorder("B")
	m := tui.New(tui.Options{Backend: fake, Pages: []tui.Page{a, b}, Active: 1})
	var view atomic.Value
	view.Store("")
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(60, 10),
		teatest.WithProgramOptions(tea.WithFilter(func(m tea.Model, msg tea.Msg) tea.Msg {
			if r, ok := m.(tui.Model); ok {
				view.Store(ansi.Strip(r.View().Content))
			}
			return msg
		})))
	t.Cleanup(fake.Close)
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; view:\n%s", what, view.Load())
			}
			tm.Send(probe{})
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("B shown at start", func() bool { return b.shown.Load() == 1 && a.shown.Load() == 0 })
	tm.Send(tea.KeyPressMsg{Code: '1', Mod: tea.ModAlt})
	waitFor("A shown", func() bool { return a.shown.Load() == 1 })
	tm.Send(tea.KeyPressMsg{Code: '1', Mod: tea.ModAlt}) // already shown: nothing
	tm.Send(tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModCtrl})
	waitFor("B shown again", func() bool { return b.shown.Load() == 2 && a.shown.Load() == 1 })
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape}) // B is busy: B takes it
	waitFor("B's Esc", func() bool { return b.escs.Load() == 1 })
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape}) // B is no longer busy: quit
	out := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(tui.Model).Outcome()
	if !out.Cancelled || b.escs.Load() != 1 {
		t.Fatalf("outcome %+v after %d captured Escs, want the second Esc to quit", out, b.escs.Load())
	}
}
