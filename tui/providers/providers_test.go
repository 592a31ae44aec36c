package providers_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/internal/pagetest"
)

func TestTableShowsEveryStateInWords(t *testing.T) {
	h := start(t, newFake(), 160, 30)
	h.loaded()
	h.WaitText(
		"provider  catalog      key           enabled   last refresh, or what to do",
		"local     available    no key needed 2 of 3    Ready.",
		"openai    no catalog   no key        —         Configure its key; restart (R).",
		"limited   no catalog   key ready     —         Press r to fetch its model list.",
		"spare     available    not checked   0 of 1    Enable a model: Enter, space.",
		"empty", "damaged", "other source",
		"Models of local · 2 of 3 enabled · selected: local/alpha",
		"● [x] alpha  Alpha · efforts low/high · selected",
		"[x] beta",
		"[ ] gamma  Gamma · efforts medium",
	)
	// The focused provider's recovery in full, naming config.toml.
	h.Press(tea.KeyDown)
	h.WaitText("No API key is available for this provider. Set its key variable and start scout again, or set api_key_env or", testConfigFile+" and restart (R).",
		"Models of openai", "No model to show for openai: no model list was fetched yet; press r to fetch it.")
	h.Press(tea.KeyDown)
	h.WaitText("Press r to fetch this provider's model list.")
}

// focus moves the provider cursor to id (the fixture's order).
func (h *harness) focus(id string) {
	h.t.Helper()
	for i, p := range statuses {
		if p.Provider == id {
			for range i {
				h.Press(tea.KeyDown)
			}
			return
		}
	}
	h.t.Fatalf("no provider %s", id)
}

func TestEveryRefreshReasonIsToldInWords(t *testing.T) {
	for reason, want := range map[string]string{
		wire.ReasonAuthenticationUnavailable: "no API key is available for it",
		wire.ReasonAuthenticationRejected:    "the provider rejected the API key",
		wire.ReasonConfigurationInvalid:      "its configuration is invalid",
		wire.ReasonRemoteUnavailable:         "could not be reached",
		wire.ReasonRemoteTimeout:             "did not answer in time",
		wire.ReasonRateLimited:               "the provider is rate limiting; try again later",
		wire.ReasonEmptyCatalog:              "lists no models",
		wire.ReasonInvalidCatalog:            "not a model list scout can read",
		wire.ReasonCatalogLimit:              "over scout's bounds",
		wire.ReasonCacheWriteFailed:          "could not be saved in scout's home",
	} {
		t.Run(reason, func(t *testing.T) {
			fake := newFake()
			fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
				return bridgetest.Failed(p, reason, "retry_later"), nil
			})
			h := start(t, fake, 200, 30)
			h.loaded()
			h.focus("limited")
			h.Type("r")
			h.WaitText("limited: refresh failed: ", want)
			h.Wait("the reload", func(f pagetest.Frame) bool {
				return fake.Calls(wire.MethodModelCatalogStatus) == 2 && !st(f).busy
			})
		})
	}
}

// Every refresh outcome changes its provider's row, next to the cached
// status (which a failed refresh leaves as it was), until the next
// refresh of it or a restart: a 401 says the key was rejected in the key
// column, a 429 "rate limited · try later" instead of "press r".
func TestEveryRefreshOutcomeChangesTheRow(t *testing.T) {
	cases := map[string]string{
		wire.ReasonAuthenticationUnavailable: "limited   no catalog   no key        —         no key · set it, restart",
		wire.ReasonAuthenticationRejected:    "limited   no catalog   key rejected  —         key rejected · check it",
		wire.ReasonConfigurationInvalid:      "limited   no catalog   key ready     —         bad endpoint · fix config",
		wire.ReasonRemoteUnavailable:         "limited   no catalog   key ready     —         unreachable · try later",
		wire.ReasonRemoteTimeout:             "limited   no catalog   key ready     —         timed out · try later",
		wire.ReasonRateLimited:               "limited   no catalog   key ready     —         rate limited · try later",
		wire.ReasonEmptyCatalog:              "limited   no catalog   key ready     —         lists no models",
		wire.ReasonInvalidCatalog:            "limited   no catalog   key ready     —         unreadable answer",
		wire.ReasonCatalogLimit:              "limited   no catalog   key ready     —         list over scout's bounds",
		wire.ReasonCacheWriteFailed:          "limited   no catalog   key ready     —         not saved · check home",
		"":                                   "limited   available    key ready     1 of 1    refreshed",
	}
	for reason, row := range cases {
		t.Run("reason "+reason, func(t *testing.T) {
			fake := newFake()
			fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
				if reason == "" {
					c := fixture()
					c.Providers[2] = ps("limited", wire.CatalogAvailable, wire.AuthReady, true, wire.RecoveryNone)
					c.Models = append(c.Models, wire.ModelRow{Provider: "limited", Model: "m1", Enabled: true, Listed: true})
					c.Choices = append(c.Choices, wire.Choice{Provider: "limited", Model: "m1", Selectable: true})
					fake.SetCatalog(c)
					return bridgetest.Refreshed(p), nil
				}
				return bridgetest.Failed(p, reason, "retry_later"), nil
			})
			h := start(t, fake, 140, 30)
			h.loaded()
			h.focus("limited")
			h.Type("r")
			h.WaitText(row)
			h.loaded()
			h.Press(tea.KeyDown) // the focus moves on; the row keeps its outcome
			h.WaitText(row)
			h.Type("R")
			h.WaitText("The backend was restarted")
			f := h.loaded()
			if strings.Contains(f.Plain(), row) {
				t.Errorf("the outcome outlived the restart:\n%s", f.Plain())
			}
		})
	}
}

// A refresh cancelled with Esc says so on its row too.
func TestCancelledRefreshChangesTheRow(t *testing.T) {
	fake := newFake()
	fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
		<-ctx.Done()
		return wire.RefreshResult{}, ctx.Err()
	})
	h := start(t, fake, 140, 24)
	h.loaded()
	h.focus("slow")
	h.Type("r")
	h.WaitText("refreshing slow")
	h.Press(tea.KeyEscape)
	h.WaitText("slow      empty        key ready     —         refresh cancelled")
}

func TestRefreshedShowsTheNewModels(t *testing.T) {
	fake := newFake()
	fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
		c := fixture()
		c.Providers[2] = ps("limited", wire.CatalogAvailable, wire.AuthReady, true, wire.RecoveryNone)
		c.Choices = append(c.Choices, wire.Choice{Provider: "limited", Model: "m1", Selectable: true}, wire.Choice{Provider: "limited", Model: "m2", Selectable: true})
		c.Models = append(c.Models, wire.ModelRow{Provider: "limited", Model: "m1", Enabled: true, Listed: true},
			wire.ModelRow{Provider: "limited", Model: "m2", Enabled: true, Listed: true}, wire.ModelRow{Provider: "limited", Model: "m9", Listed: true})
		fake.SetCatalog(c)
		return bridgetest.Refreshed(p), nil
	})
	h := start(t, fake, 120, 30)
	h.loaded()
	h.focus("limited")
	h.Type("r")
	h.WaitText("limited: refreshed; new models: m1, m2.", "[x] m1", "[x] m2", "[ ] m9", "2 of 3")
	if n := fake.Calls(wire.MethodModelSelect); n != 0 {
		t.Fatalf("%d selections after a refresh: nothing is selected by itself", n)
	}
}

func TestRefreshedWithoutChangeAndWithCatalogError(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 120, 30)
	h.loaded()
	h.Type("r") // local: the fake's default outcome, refreshed, nothing new
	h.WaitText("local: refreshed; no change to its 2 enabled models.")
	h.loaded()
	bad := string(wire.CodeCatalogUnavailable)
	fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
		res := bridgetest.Refreshed(p)
		res.CatalogError, res.Recovery = &bad, "check_backend_home"
		return res, nil
	})
	h.Type("r")
	h.WaitText("local: refreshed, but a catalog cache in scout's home is unsafe or unreadable.")
}

func TestEscCancelsTheRefreshNotThePicker(t *testing.T) {
	fake := newFake()
	fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
		<-ctx.Done() // a provider that never answers
		return wire.RefreshResult{}, ctx.Err()
	})
	h := start(t, fake, 100, 24)
	h.loaded()
	h.focus("slow")
	h.Type("r")
	h.WaitText("refreshing slow… 0s · esc cancels")
	h.clock.add(3e9)
	h.WaitText("refreshing slow… 3s · esc cancels") // the elapsed time moves
	h.Type("j")                                     // navigation still works
	h.Press(tea.KeyEscape)
	h.WaitText("slow: refresh cancelled after 3s; its catalog is unchanged.") // plain words: no method name
	if n := fake.Calls(wire.MethodCancel); n != 1 {
		t.Fatalf("%d cancellations reached the backend", n)
	}
	h.Wait("the reload after the cancelled refresh", func(f pagetest.Frame) bool {
		return fake.Calls(wire.MethodModelCatalogStatus) == 2 && !st(f).busy
	})
	h.Press(tea.KeyEscape) // nothing to cancel: Esc quits
	if out := h.Outcome(); !out.Cancelled {
		t.Fatalf("outcome %+v", out)
	}
}

func TestSelectionWithAStaleRevisionAsksAgain(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 160, 24)
	before := st(h.loaded()).revision
	h.Press(tea.KeyTab)
	h.Press(tea.KeyDown) // local/beta
	fake.NewRevision()   // someone else read the catalog: our guard is stale
	h.Press(tea.KeyEnter)
	h.WaitText("The catalog changed since it was read, so nothing was selected.", "press Enter to select local/beta")
	f := h.loaded()
	if st(f).revision == before {
		t.Fatal("the catalog was not read again")
	}
	if sel := fake.Selection(); sel.Model != "alpha" || fake.Calls(wire.MethodModelSelect) != 1 {
		t.Fatalf("selection %+v after %d calls: a stale selection must not be retried by itself", sel, fake.Calls(wire.MethodModelSelect))
	}
	h.Press(tea.KeyEnter)
	h.WaitText("Selected local/beta.", "selected: local/beta", "● [x] beta")
	if sel := fake.Selection(); sel.Model != "beta" {
		t.Fatalf("selection %+v", sel)
	}
}

func TestUnselectableChoiceIsNotSent(t *testing.T) {
	fake := newFake()
	fake.SetCatalog(func() bridgetest.Catalog {
		c := fixture()
		c.Models = append(c.Models, wire.ModelRow{Provider: "openai", Model: "gpt-5", Name: "GPT-5", Enabled: true, Listed: true})
		return c
	}())
	h := start(t, fake, 120, 24)
	h.loaded()
	h.focus("openai")
	h.Press(tea.KeyEnter) // its models
	h.WaitText("[x] gpt-5  GPT-5 · no key: not selectable")
	h.Press(tea.KeyEnter)
	h.WaitText("openai/gpt-5 cannot be selected: its provider has no API key.")
	if n := fake.Calls(wire.MethodModelSelect); n != 0 {
		t.Fatalf("%d select calls", n)
	}
}

func TestEveryPageIsFollowed(t *testing.T) {
	fake := newFake(func(o *bridgetest.Options) { o.CatalogPage = 1 })
	h := start(t, fake, 120, 30)
	h.loaded()
	h.WaitText("[x] alpha", "[x] beta", "[ ] gamma", "3 enabled models", "0 of 1")
	s, c, ms := fake.Calls(wire.MethodModelCatalogStatus), fake.Calls(wire.MethodModelCatalog), fake.Calls(wire.MethodModelCatalogModels)
	if s != 3 || c != 3 || ms != 4 {
		t.Fatalf("%d status, %d catalog and %d models calls for 3 choices and 4 models in pages of 1", s, c, ms)
	}
}

func TestBusyRefreshChangesNothing(t *testing.T) {
	fake := newFake()
	fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
		return wire.RefreshResult{}, wire.NewError(wire.CodeBusy)
	})
	h := start(t, fake, 140, 24)
	h.loaded()
	h.Type("r")
	h.WaitText("local: the backend is busy with another refresh or selection; press r again in a moment.")
	if n := fake.Calls(wire.MethodModelCatalogStatus); n != 1 {
		t.Fatalf("%d status reads after a refresh that was not admitted", n)
	}
}

func TestCapitalRRestartsTheBackendAndReloads(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 100, 24)
	h.loaded()
	h.Type("R")
	h.Wait("the restart and reload", func(f pagetest.Frame) bool {
		return fake.Calls("restart") == 1 && fake.Calls(wire.MethodModelCatalogStatus) == 2 && !st(f).busy
	})
	h.WaitText("The backend was restarted") // R is acknowledged
	if n := fake.Calls(wire.MethodModelRefresh) + fake.Calls(wire.MethodModelSelect); n != 0 {
		t.Fatalf("%d refreshes or selections by themselves", n)
	}
}

func TestLoadErrorSaysWhatToDo(t *testing.T) {
	fake := newFake()
	fake.SetCatalogError(wire.NewError(wire.CodeCatalogUnavailable))
	h := start(t, fake, 120, 24)
	h.WaitText("A catalog cache in scout's home is unsafe or unreadable", "Ctrl-R")
	fake.SetCatalogError(nil)
	h.Press('r', tea.ModCtrl)
	h.loaded()
	h.WaitText("[x] alpha")
}

func TestRestartMsgDuringARefreshAbandonsIt(t *testing.T) {
	fake := newFake()
	fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
		<-ctx.Done()
		return wire.RefreshResult{}, ctx.Err()
	})
	h := start(t, fake, 120, 24)
	h.loaded()
	h.Type("r")
	h.WaitText("refreshing local")
	h.TM.Send(tui.RestartMsg{})
	h.WaitText("The backend was restarted, so the refresh of local was abandoned.")
	h.loaded()
}

func TestGoldenViews(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {40, 10}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			fake := newFake()
			fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
				return bridgetest.Failed(p, wire.ReasonRateLimited, "retry_later"), nil
			})
			h := start(t, fake, size.w, size.h)
			h.loaded()
			h.focus("limited")
			h.Type("r")
			h.WaitText("limited: refresh")
			f := h.loaded()
			pagetest.CheckFits(t, f.View, size.w, size.h)
			golden.RequireEqual(t, pagetest.Golden(f.View))
		})
	}
}

func TestNoColorKeepsEveryDistinction(t *testing.T) {
	h := start(t, newFake(), 100, 24)
	h.loaded()
	h.TM.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
	f := h.Wait("a colourless frame", func(f pagetest.Frame) bool { return !strings.Contains(f.View, "38;") })
	if strings.Contains(f.View, "48;") || !strings.Contains(f.View, "\x1b[7m") {
		t.Fatalf("without colour the focused row must be reversed, with no colour at all:\n%q", f.View)
	}
}

func TestADeadBackendIsSaidAndRRestartsIt(t *testing.T) {
	fake := newFake()
	fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
		<-ctx.Done()
		return wire.RefreshResult{}, ctx.Err()
	})
	h := start(t, fake, 120, 24)
	h.loaded()
	h.Type("r")
	// The refresh is in flight at the backend before it dies: the page
	// shows "refreshing" as soon as r is pressed, before its call is made,
	// and a call made after the crash fails at once with the exit (another
	// message, and a race with the exit's own news).
	h.Wait("the refresh at the backend", func(f pagetest.Frame) bool {
		return strings.Contains(f.View, "refreshing local") && fake.Calls(wire.MethodModelRefresh) == 1
	})
	fake.Crash()
	h.WaitText("The backend stopped, so the refresh of local was abandoned.", "● down")
	h.Type("R") // the root's R, the page's is off while the child is down
	h.Wait("the restart", func(f pagetest.Frame) bool {
		return fake.Calls("restart") == 1 && fake.Calls(wire.MethodModelCatalogStatus) == 2 && !st(f).busy
	})
}

func TestTinyTerminals(t *testing.T) {
	h := start(t, newFake(), 80, 24)
	h.loaded()
	h.Press(tea.KeyTab)
	for _, w := range []int{1, 5, 20, 40} {
		h.TM.Send(tea.WindowSizeMsg{Width: w, Height: 3})
		f := h.Wait("a tiny size", func(f pagetest.Frame) bool { return strings.Count(f.View, "\n") == 2 })
		pagetest.CheckFits(t, f.View, w, 3)
	}
}

// A tab first shown after the child died says the backend is down and
// that R restarts it (not "Ctrl-R to try again", which cannot work), then
// reads the catalog once it is restarted.
func TestFirstShownWhileDownSaysRRestarts(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 100, 24, 0)
	h.WaitText("files page")
	fake.Crash()
	h.WaitText("● down")
	h.Press('3', tea.ModAlt)
	f := h.WaitText("Press R to restart")
	if strings.Contains(f.View, "Ctrl-R") || strings.Contains(f.View, "could not be read") {
		t.Fatalf("a dead backend's page offers Ctrl-R or hides why:\n%s", f.View)
	}
	if n := fake.Calls(wire.MethodModelCatalogStatus); n != 0 {
		t.Fatalf("%d status calls to a dead backend", n)
	}
	h.Type("R")
	h.loaded()
}

// Enter on a provider without a model to choose stays on it and says why,
// instead of moving to another provider's model, which a second Enter
// would then select.
func TestEnterOnAProviderWithoutModelsStays(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 120, 24)
	h.loaded()
	h.focus("slow")
	h.Press(tea.KeyEnter)
	h.WaitText("slow has no model list to show: its fetched model list is empty; press r to fetch it again.")
	h.Press(tea.KeyEnter)
	h.WaitText("▌ slow") // the providers keep the focus
	if n := fake.Calls(wire.MethodModelSelect); n != 0 {
		t.Fatalf("%d select calls from Enter on a provider without models", n)
	}
}

// Space on a model enables it (one model per key press, model.enable with
// the opposite of its state); the page then restarts the backend itself,
// which applies the change, and the reload keeps the focus on that model.
func TestEnableKeyRestartsAndKeepsTheFocus(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 120, 24)
	h.loaded()
	h.Press(tea.KeyEnter) // local's models
	h.Press(tea.KeyDown)
	h.Press(tea.KeyDown) // gamma, not enabled
	h.WaitText("▌   [ ] gamma")
	h.Type(" ")
	h.WaitText("Enabled local/gamma; the backend was restarted to apply it.", "▌   [x] gamma", "3 of 3")
	f := h.loaded()
	if fake.Calls(wire.MethodModelEnable) != 1 || fake.Calls("restart") != 1 || !fake.Enabled("local", "gamma") {
		t.Fatalf("%d enable calls, %d restarts, enabled %v", fake.Calls(wire.MethodModelEnable), fake.Calls("restart"), fake.Enabled("local", "gamma"))
	}
	if !strings.Contains(f.Plain(), "4 enabled models") {
		t.Errorf("the new child's choices are not shown:\n%s", f.Plain())
	}
	h.Type(" ") // and off again: still one call per press
	h.WaitText("Disabled local/gamma; the backend was restarted to apply it.", "▌   [ ] gamma", "2 of 3")
	if n := fake.Calls(wire.MethodModelEnable); n != 2 {
		t.Fatalf("%d enable calls for two presses", n)
	}
	if n := fake.Calls(wire.MethodModelSelect); n != 0 {
		t.Fatalf("%d selections: enabling selects nothing", n)
	}
}

// Space on a provider does nothing: it acts on the focused model only.
func TestEnableActsOnModelsOnly(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 120, 24)
	h.loaded()
	h.Type(" ")
	h.Type("j")
	h.WaitText("▌ openai")
	if n := fake.Calls(wire.MethodModelEnable); n != 0 {
		t.Fatalf("%d enable calls from space on a provider", n)
	}
}

// ←/→ choose the focused model's effort among its efforts (and none, its
// default); Enter selects it with that effort.
func TestEffortChoice(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 140, 24)
	h.loaded()
	h.Press(tea.KeyEnter) // on the selected alpha
	h.WaitText("▌ ● [x] alpha  Alpha · effort ‹default› of low/high · selected")
	h.Press(tea.KeyRight)
	h.WaitText("effort ‹low› of low/high")
	h.Press(tea.KeyRight)
	h.WaitText("effort ‹high› of low/high")
	h.Press(tea.KeyEnter)
	h.WaitText("Selected local/alpha (effort high).", "selected: local/alpha (high)")
	if sel := fake.Selection(); sel == nil || sel.Effort == nil || *sel.Effort != "high" {
		t.Fatalf("selection %+v", sel)
	}
	h.Press(tea.KeyRight) // wraps to the default
	h.WaitText("effort ‹default› of low/high")
	h.Press(tea.KeyLeft)
	h.WaitText("effort ‹high› of low/high")
	h.Press(tea.KeyDown) // beta has no efforts
	h.Press(tea.KeyRight)
	h.WaitText("local/beta has no efforts to choose from")
	h.Press(tea.KeyUp)
	h.WaitText("▌ ● [x] alpha  Alpha · effort ‹high› of low/high") // kept per model
}

// A model that is not enabled cannot be selected: Enter says how to
// enable it instead of sending anything.
func TestSelectingADisabledModelSaysHow(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 160, 24)
	h.loaded()
	h.Press(tea.KeyEnter)
	h.Press(tea.KeyDown)
	h.Press(tea.KeyDown) // gamma
	h.Press(tea.KeyEnter)
	h.WaitText("local/gamma is not enabled: press space to enable it")
	if n := fake.Calls(wire.MethodModelSelect); n != 0 {
		t.Fatalf("%d select calls", n)
	}
}

// Enabled models missing from the fetched list are named, with the file
// to edit, and shown among the models as not in the list; space on one
// says why it cannot be disabled here.
func TestEnabledButMissingNotice(t *testing.T) {
	c := fixture()
	c.Models = append(c.Models, wire.ModelRow{Provider: "local", Model: "m3", Name: "m3", Efforts: []string{}, Enabled: true})
	fake := bridgetest.New(bridgetest.Options{Catalog: c})
	h := start(t, fake, 160, 30)
	h.loaded()
	h.WaitText("m3 is enabled but not in local's fetched list, so not offered; remove it from enabled_models in "+testConfigFile,
		"[x] m3  not in the fetched list", "2 of 3")
	h.Press(tea.KeyEnter)
	for range 3 {
		h.Press(tea.KeyDown)
	}
	h.Type(" ")
	h.WaitText("m3 is not in local's fetched list, so it cannot be disabled here")
	if n := fake.Calls(wire.MethodModelEnable); n != 0 {
		t.Fatalf("%d enable calls for a model that is not listed", n)
	}
}

// A refused model.enable changes nothing and says why.
func TestEnableRefused(t *testing.T) {
	fake := newFake()
	fake.SetEnable(func(ctx context.Context, n int, p, m string, on bool) (wire.EnableResult, error) {
		return wire.EnableResult{}, wire.NewError(wire.CodeBusy)
	})
	h := start(t, fake, 160, 24)
	h.loaded()
	h.Press(tea.KeyEnter)
	h.Type(" ")
	h.WaitText("Nothing was changed: the backend is busy with a refresh or a selection; press space again in a moment.")
	if fake.Calls("restart") != 0 {
		t.Fatal("a refused change restarted the backend")
	}
}

// At 40×10 the models of a provider, their enabled marks, the selection
// and the effort of the focused one still read.
func TestGoldenNarrowModels(t *testing.T) {
	h := start(t, newFake(), 40, 10)
	h.loaded()
	h.Press(tea.KeyEnter)
	h.Press(tea.KeyRight)
	f := h.WaitText("effort ‹low›")
	pagetest.CheckFits(t, f.View, 40, 10)
	golden.RequireEqual(t, pagetest.Golden(f.View))
}

// A backend without model.catalog.models and model.enable still shows the
// enabled models (its choices), and space says which file to edit.
func TestWithoutTheModelList(t *testing.T) {
	fake := newFake(func(o *bridgetest.Options) {
		o.Without = []string{wire.MethodModelCatalogModels, wire.MethodModelEnable}
	})
	h := start(t, fake, 160, 24)
	h.loaded()
	h.Press(tea.KeyEnter)
	f := h.WaitText("● [x] alpha", "[x] beta")
	if strings.Contains(f.Plain(), "gamma") {
		t.Fatalf("a model that is not a choice is shown:\n%s", f.Plain())
	}
	h.Type(" ")
	h.WaitText("This backend does not offer enabling models: add alpha to enabled_models in " + testConfigFile)
}

// Help offers only keys that act now: while the child is down the keys
// that ask the backend (r, ctrl+r, enter) are left out of the help line
// and of ?, and R (the root's restart) is in; they are back once it runs.
func TestHelpWhileDownOffersOnlyRestart(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 160, 30)
	h.loaded()
	h.WaitText("refresh focused provider")
	fake.Crash()
	f := h.WaitText("● down", "R restart backend")
	if strings.Contains(f.View, "refresh focused provider") {
		t.Fatalf("the help line offers r while the backend is down:\n%s", f.View)
	}
	h.Type("?")
	f = h.WaitText("restart backend", "suspend")
	for _, k := range []string{"refresh focused provider", "reload catalog", "models / select"} {
		if strings.Contains(f.View, k) {
			t.Errorf("? offers %q while the backend is down:\n%s", k, f.View)
		}
	}
	h.Press(tea.KeyEscape)
	h.Type("R")
	h.loaded()
	h.WaitText("refresh focused provider", "The backend was restarted")
	// Down again: what the child did before it died goes with it.
	fake.Crash()
	f = h.WaitText("● down")
	if strings.Contains(f.View, "The backend was restarted") {
		t.Fatalf("the dead child's restart note is still shown:\n%s", f.View)
	}
}
