package tui_test

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/internal/display"
	"github.com/scoutdev/scout/tui/internal/pagetest"
)

// rootHarness drives the root model with placeholder pages (pagetest).
type rootHarness struct {
	*pagetest.Harness
	t    *testing.T
	tm   *teatest.TestModel
	fake *bridgetest.Fake
}

func startRoot(t *testing.T) *rootHarness {
	t.Helper()
	return startRootWith(t, bridgetest.Options{Files: []string{"a.go"}})
}

func startRootWith(t *testing.T, opts bridgetest.Options) *rootHarness {
	t.Helper()
	fake := bridgetest.New(opts)
	h := pagetest.Start(t, fake, pagetest.Options{Pages: []tui.Page{
		tui.NewPlaceholder("Files", "files page"),
		tui.NewPlaceholder("Sessions", "sessions page"),
		tui.NewPlaceholder("Providers", "providers page"),
	}, Width: 100, Height: 20})
	return &rootHarness{Harness: h, t: t, tm: h.TM, fake: fake}
}

func (h *rootHarness) wait(what string, cond func(view, tab string) bool) {
	h.t.Helper()
	h.Wait(what, func(f pagetest.Frame) bool { return cond(f.Plain(), f.Tab) })
}

func (h *rootHarness) waitText(s string) {
	h.t.Helper()
	h.wait(s, func(v, _ string) bool { return strings.Contains(v, s) })
}

func TestTabsSwitchWithAltDigitsAndCtrlArrows(t *testing.T) {
	h := startRoot(t)
	h.waitText("files page")
	steps := []struct {
		key  tea.KeyPressMsg
		want string
	}{
		{tea.KeyPressMsg{Code: '2', Mod: tea.ModAlt}, "Sessions"},
		{tea.KeyPressMsg{Code: '3', Mod: tea.ModAlt}, "Providers"},
		{tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModCtrl}, "Files"},
		{tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModCtrl}, "Providers"},
		{tea.KeyPressMsg{Code: '1', Mod: tea.ModAlt}, "Files"},
	}
	for _, s := range steps {
		h.tm.Send(s.key)
		h.wait("tab "+s.want, func(_, tab string) bool { return tab == s.want })
	}
}

func TestHelpShowsEveryBindingAndEscClosesIt(t *testing.T) {
	h := startRoot(t)
	h.waitText("files page")
	h.tm.Type("?")
	h.waitText("go to tab")
	h.waitText("next tab")
	h.tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	h.waitText("files page")
	h.tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	m := h.tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(tui.Model)
	if !m.Outcome().Cancelled {
		t.Fatalf("outcome %+v, want cancelled", m.Outcome())
	}
}

func TestRequestLimitRestartsTheChild(t *testing.T) {
	h := startRoot(t)
	h.waitText("files page")
	h.tm.Send(tui.ErrMsg{Err: wire.NewError(wire.CodeRequestLimit)})
	h.wait("the restart", func(v, _ string) bool { return h.fake.Calls("restart") == 1 && strings.Contains(v, "● ready") })
}

func TestCrashIsShownAndOldChildrenIgnored(t *testing.T) {
	h := startRoot(t)
	h.waitText("files page")
	h.tm.Type("R") // the backend is up: R is not a binding
	h.fake.Crash()
	h.waitText("● down")
	h.waitText("the backend stopped (signal: killed); press R to restart it")
	if h.fake.Calls("restart") != 0 {
		t.Fatal("R restarted a running backend")
	}
	h.tm.Type("R")
	h.waitText("● ready")
	// An exit event of the replaced child is stale: the root decides so
	// when it handles it, so the frame after it still says ready.
	h.tm.Send(eventOfOldChild())
	if v := h.Now().Plain(); !strings.Contains(v, "● ready") {
		t.Fatalf("an event of the replaced child changed the status:\n%s", v)
	}
}

func TestRestartMsgRestartsARunningChild(t *testing.T) {
	h := startRoot(t)
	h.waitText("files page")
	h.tm.Send(tui.RestartMsg{})
	h.wait("the restart", func(v, _ string) bool { return h.fake.Calls("restart") == 1 && strings.Contains(v, "● ready") })
}

func TestHelpScrollsOnASmallTerminal(t *testing.T) {
	h := startRoot(t)
	h.waitText("files page")
	h.tm.Send(tea.WindowSizeMsg{Width: 40, Height: 6})
	h.tm.Type("?")
	h.waitText("↑/↓ more")
	h.waitText("alt+1-3")
	for range 10 {
		h.tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	}
	h.waitText("esc")
	h.wait("the top line gone", func(v, _ string) bool { return !strings.Contains(v, "alt+1-3") })
}

func TestBannerLineUnderTheTabsOnTallTerminalsOnly(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: []string{"a.go"}})
	defer fake.Close()
	var m tea.Model = tui.New(tui.Options{Backend: fake, Banner: "DEMO banner", Pages: []tui.Page{
		tui.NewPlaceholder("Files", "files page"),
	}})
	for _, tc := range []struct {
		h      int
		banner bool
	}{{20, true}, {12, true}, {11, false}, {10, false}} {
		m, _ = m.Update(tea.WindowSizeMsg{Width: 60, Height: tc.h})
		lines := strings.Split(ansi.Strip(m.(tui.Model).View().Content), "\n")
		if len(lines) != tc.h {
			t.Fatalf("height %d: the view has %d lines", tc.h, len(lines))
		}
		if got := lines[1] == "DEMO banner"; got != tc.banner {
			t.Errorf("height %d: banner shown %v, want %v; lines %q", tc.h, got, tc.banner, lines)
		}
		if !strings.Contains(strings.Join(lines, "\n"), "files page") {
			t.Errorf("height %d: the page is not shown: %q", tc.h, lines)
		}
	}
}

func TestUntrustedProjectConfigIsShown(t *testing.T) {
	h := startRootWith(t, bridgetest.Options{Files: []string{"a.go"}, Trust: wire.TrustUntrusted})
	h.wait("the untrusted notice", func(view, _ string) bool { return strings.Contains(view, "scout trust, then restart") })
	plain := startRoot(t)
	f := plain.WaitText("gen 1")
	if strings.Contains(f.Plain(), "scout trust") {
		t.Fatal("the trust notice is shown without a project configuration")
	}
}

// On a narrow terminal the status line of a dead backend still says how
// to restart it, rather than cutting the sentence before "press R".
func TestDownSaysPressRWhenNarrow(t *testing.T) {
	h := startRoot(t)
	h.waitText("files page")
	h.tm.Send(tea.WindowSizeMsg{Width: 40, Height: 10})
	h.fake.Crash()
	h.waitText("● down · press R to restart it")
}

// TestUnicodeCoreReportCountsByGraphemes: when the terminal reports mode
// 2027, Bubble Tea's renderer counts cells by grapheme clusters, and so
// must every page. Not parallel: the way of counting is the process's.
func TestUnicodeCoreReportCountsByGraphemes(t *testing.T) {
	t.Cleanup(func() { display.SetMethod(ansi.WcWidth) })
	fake := bridgetest.New(bridgetest.Options{Files: []string{"a.go"}})
	t.Cleanup(fake.Close)
	var m tea.Model = tui.New(tui.Options{Backend: fake, Pages: []tui.Page{tui.NewPlaceholder("Files", "files page")}})
	family := "👨\u200d👩\u200d👧"
	m, _ = m.Update(tea.ModeReportMsg{Mode: ansi.ModeSynchronizedOutput, Value: ansi.ModeReset})
	if got := display.Width(family); got != 6 {
		t.Fatalf("before a report of 2027 the family is %d cells, want 6 (by runes)", got)
	}
	m, _ = m.Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeNotRecognized})
	if got := display.Width(family); got != 6 {
		t.Fatalf("after 2027 reported unknown the family is %d cells, want 6", got)
	}
	_, _ = m.Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset})
	if got := display.Width(family); got != 2 {
		t.Fatalf("after 2027 reported the family is %d cells, want 2 (one cluster)", got)
	}
}

// With one tab (the sessions-only picker, candidates on stdin) help offers
// no key to go to another.
func TestHelpWithOneTabOffersNoTabKeys(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: []string{"a.go"}})
	h := pagetest.Start(t, fake, pagetest.Options{Pages: []tui.Page{tui.NewPlaceholder("Lines", "lines page")}, Width: 100, Height: 20})
	h.WaitText("lines page")
	h.TM.Type("?")
	f := h.WaitText("suspend")
	for _, k := range []string{"go to tab", "next tab", "previous tab"} {
		if strings.Contains(f.Plain(), k) {
			t.Errorf("help offers %q with one tab:\n%s", k, f.Plain())
		}
	}
}

// A key that asks a dead backend (a page reports tui.ErrDown) keeps the
// reason the child went down on the status line: it already says that R
// restarts it.
func TestTheCrashReasonOutlivesKeysPressedWhileDown(t *testing.T) {
	h := startRoot(t)
	h.waitText("files page")
	h.fake.Crash()
	h.waitText("the backend stopped (signal: killed); press R to restart it")
	h.tm.Send(tui.ErrMsg{Err: tui.ErrDown})
	h.tm.Send(tui.ErrMsg{Err: tui.ErrDown})
	f := h.Now()
	if !strings.Contains(f.Plain(), "signal: killed") || strings.Contains(f.Plain(), "is not running") {
		t.Fatalf("the reason gave way to the key's error:\n%s", f.Plain())
	}
}

// A child that serves nothing says so while it starts, before it answers
// initialize: a restart of a still broken configuration ends not serving,
// with R still bound, never ready.
func TestRestartIntoAnUnservedChildStaysNotServing(t *testing.T) {
	h := startRoot(t)
	h.waitText("files page")
	diag := bridge.DiagnosticMsg{Text: "config.toml: files.respect: unknown key" + wire.UnservedNote, Unserved: true}
	h.tm.Send(diag)
	h.waitText("● not serving")
	h.fake.SetRestartHook(func() { h.tm.Send(diag) })
	h.tm.Type("R")
	h.wait("the restart, not serving", func(v, _ string) bool {
		return h.fake.Calls("restart") == 1 && strings.Contains(v, "● not serving") && strings.Contains(v, "R restart backend")
	})
	if f := h.Now(); strings.Contains(f.Plain(), "● ready") || !strings.Contains(f.Plain(), "unknown key") {
		t.Fatalf("after the restart:\n%s", f.Plain())
	}
}
