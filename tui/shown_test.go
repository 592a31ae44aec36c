package tui_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/internal/pagetest"
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
	h := pagetest.Start(t, fake, pagetest.Options{Pages: []tui.Page{a, b}, Active: 1, Width: 60, Height: 10})
	tm := h.TM
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		h.Wait(what, func(pagetest.Frame) bool { return cond() })
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
	out := h.Outcome()
	if !out.Cancelled || b.escs.Load() != 1 {
		t.Fatalf("outcome %+v after %d captured Escs, want the second Esc to quit", out, b.escs.Load())
	}
}
