package tui_test

import (
	"image/color"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/files"
	"github.com/scoutdev/scout/tui/internal/pagetest"
	"github.com/scoutdev/scout/tui/providers"
	"github.com/scoutdev/scout/tui/sessions"
)

// sgr matches a Select Graphic Rendition sequence and captures its
// parameters.
var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colours returns view's SGR sequences that set or reset a colour, and
// whether it holds an OSC sequence (which can set the terminal's colours).
func colours(view string) []string {
	var found []string
	for _, m := range sgr.FindAllStringSubmatch(view, -1) {
		for p := range strings.SplitSeq(m[1], ";") {
			p, _, _ = strings.Cut(p, ":")
			if colourParam(p) {
				found = append(found, m[0])
				break
			}
		}
	}
	if strings.Contains(view, "\x1b]") {
		found = append(found, "OSC")
	}
	return found
}

// colourParam reports whether an SGR parameter is a colour's: 30–39 and
// 90–97 foreground, 40–49 and 100–107 background, 58–59 underline.
func colourParam(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && (n >= 30 && n <= 49 || n >= 90 && n <= 97 || n >= 100 && n <= 107 || n == 58 || n == 59)
}

// TestNoColorRemovesEveryColour runs the root with the three real pages
// under a colourless profile (what NO_COLOR gives) and looks at every
// part of the interface: tabs, banner, status line, short help and full
// help, each page's query line (placeholder included), rows, highlights,
// focus and footers, on a dark and on a light background, and a dead
// backend's status. No frame may carry a colour.
func TestNoColorRemovesEveryColour(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	fake := bridgetest.New(bridgetest.Options{
		Files:    []string{"README.md", "cmd/demo/main.go", "internal/server/server.go"},
		Contents: map[string]string{"cmd/demo/main.go": "package main\n"},
		Preview:  true,
		Sessions: []wire.SessionRow{
			{ID: "s-1", Title: "Refactor the tree rows", UpdatedAt: now.Add(-time.Hour).Format(time.RFC3339), Cwd: wire.CwdVerified, Busy: true},
			{ID: "s-2", Title: "Port the old flags", UpdatedAt: now.Add(-48 * time.Hour).Format(time.RFC3339), Cwd: wire.CwdUnverified},
		},
		Catalog: bridgetest.Catalog{
			Providers: []wire.ProviderStatus{
				{Provider: "local", CatalogStatus: wire.CatalogAvailable, Authentication: wire.AuthReady, Relevant: true, Recovery: wire.RecoveryNone},
				{Provider: "openai", CatalogStatus: wire.CatalogMissingCache, Authentication: wire.AuthUnavailable, Relevant: true, Recovery: wire.RecoveryConfigureAuthentication},
			},
			Choices:   []wire.Choice{{Provider: "local", Model: "alpha", Name: "Alpha", Selectable: true}, {Provider: "openai", Model: "gpt-5", Selectable: false}},
			Selection: &wire.Selection{Provider: "local", Model: "alpha"},
			Models: []wire.ModelRow{
				{Provider: "local", Model: "alpha", Name: "Alpha", Efforts: []string{"low"}, Enabled: true, Listed: true},
				{Provider: "local", Model: "beta", Name: "beta", Efforts: []string{}, Listed: true},
			},
			Keys: []wire.ProviderKey{{Provider: "local"}, {Provider: "openai", KeyRequired: true}},
		},
	})
	h := pagetest.Start(t, fake, pagetest.Options{
		Pages: []tui.Page{
			files.New(files.Options{Backend: fake}),
			sessions.New(sessions.Options{Backend: fake, Now: func() time.Time { return now }}),
			providers.New(providers.Options{Backend: fake, Now: func() time.Time { return now }}),
		},
		Width: 100, Height: 24, Banner: "DEMO on synthetic data",
	})
	h.WaitText("3 files") // the program's own ColorProfileMsg came first
	h.TM.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
	check := func(what string, texts ...string) {
		t.Helper()
		f := h.WaitText(texts...)
		if c := colours(f.View); len(c) > 0 {
			t.Errorf("%s: colours %q without colour:\n%q", what, c, f.View)
		}
	}
	for _, bg := range []color.Color{color.Black, color.White} {
		h.TM.Send(tea.BackgroundColorMsg{Color: bg})
		h.Press('1', tea.ModAlt)
		h.TM.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
		check("the Files tree", "type to search", "cmd/", "? help", "DEMO on synthetic data", "● ready")
		h.Type("main")
		check("the Files ranking and preview", "1/3", "package main")
		h.Type("?")
		check("the Files help", "rescan", "go to tab")
		h.Type("?")
		h.Press('2', tea.ModAlt)
		check("the Sessions list", "2 sessions here", "busy", "no cwd")
		h.Type("re")
		check("the Sessions filter", "2/2", "open session")
		h.TM.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
		check("the Sessions placeholder", "filter by title")
		h.Press('3', tea.ModAlt)
		check("the Providers table", "Providers · 2", "no key needed", "no key ", "1 of 2", "selected: local/alpha")
		h.Press(tea.KeyTab)
		check("the Providers models", "● [x] alpha", "effort ‹default›", "[ ] beta")
		h.Press(tea.KeyTab)
	}
	fake.Crash()
	check("a dead backend", "● down", "restart")
}
