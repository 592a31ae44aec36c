package pagetest_test

import (
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/internal/pagetest"
)

func start(t *testing.T) *pagetest.Harness {
	fake := bridgetest.New(bridgetest.Options{Files: []string{"a.go"}})
	return pagetest.Start(t, fake, pagetest.Options{
		Pages: []tui.Page{tui.NewPlaceholder("Files", "files page")}, Width: 100, Height: 20,
	})
}

// TestATestsOwnSizeAndProfileStay: Bubble Tea sends the initial size and
// colour profile from goroutines of its own; once Start has returned they
// have arrived, so the size and profile a test sends right after are the
// ones the program keeps. Without the wait this fails now and then on a
// loaded machine, and nearly always on one processor, so it runs a few
// programs on one.
func TestATestsOwnSizeAndProfileStay(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for range 20 {
		h := start(t)
		h.TM.Send(tea.WindowSizeMsg{Width: 40, Height: 6})
		h.TM.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
		f := h.WaitText("files page")
		if n := strings.Count(f.View, "\n") + 1; n != 6 {
			t.Fatalf("the view has %d lines after a resize to 6:\n%s", n, f.Plain())
		}
		if strings.Contains(f.View, "38;") || strings.Contains(f.View, "48;") {
			t.Fatalf("colours after a switch to ASCII:\n%q", f.View)
		}
	}
}

// TestWaitMsgWaitsForTheMessageToBeHandled: a message sent by a command
// (here the root's own, after a key) is found, and the frame returned is
// from after it.
func TestWaitMsgWaitsForTheMessageToBeHandled(t *testing.T) {
	h := start(t)
	h.WaitText("files page")
	h.Type("?")
	f := h.WaitMsg("the help key", func(msg tea.Msg) bool {
		k, ok := msg.(tea.KeyPressMsg)
		return ok && k.String() == "?"
	})
	if !strings.Contains(f.Plain(), "suspend") {
		t.Fatalf("the frame after ? shows no help:\n%s", f.Plain())
	}
}

// TestNowIsAfterWhatWasSent: Now returns the frame after the messages
// sent before it, with no wait on a condition.
func TestNowIsAfterWhatWasSent(t *testing.T) {
	h := start(t)
	h.WaitText("files page")
	h.Press(tea.KeyRight, tea.ModCtrl)
	h.Type("?")
	if f := h.Now(); f.Tab != "Files" || !strings.Contains(f.Plain(), "suspend") {
		t.Fatalf("tab %q, view:\n%s", f.Tab, f.Plain())
	}
}
