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
		"available", "no catalog", "empty", "damaged", "other source",
		"key ready", "no key", "not checked", "in use", "unused",
		"Configure its key; restart (R).",
		"Press r to fetch its model list.",
		"Enable its models; restart (R).",
		"Ready.",
		"● local/alpha  Alpha · effort low/high · selected",
		"openai/gpt-5  GPT-5 · no key: not selectable",
		"selected: local/alpha",
	)
	// The focused provider's recovery in full.
	h.Press(tea.KeyDown)
	h.WaitText("No API key is available for this provider. Configure it (api_key_env or credential_file in config.toml)")
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

func TestRefreshedShowsTheNewModels(t *testing.T) {
	fake := newFake()
	fake.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
		c := fixture()
		c.Providers[2] = ps("limited", wire.CatalogAvailable, wire.AuthReady, true, wire.RecoveryNone)
		c.Choices = append(c.Choices, wire.Choice{Provider: "limited", Model: "m1", Selectable: true}, wire.Choice{Provider: "limited", Model: "m2", Selectable: true})
		fake.SetCatalog(c)
		return bridgetest.Refreshed(p), nil
	})
	h := start(t, fake, 120, 30)
	h.loaded()
	h.focus("limited")
	h.Type("r")
	h.WaitText("limited: refreshed; new models: m1, m2.", "limited/m1", "limited/m2")
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
	h.WaitText("Selected local/beta.", "selected: local/beta", "● local/beta")
	if sel := fake.Selection(); sel.Model != "beta" {
		t.Fatalf("selection %+v", sel)
	}
}

func TestUnselectableChoiceIsNotSent(t *testing.T) {
	fake := newFake()
	h := start(t, fake, 120, 24)
	h.loaded()
	h.Press(tea.KeyTab)
	h.Press(tea.KeyDown)
	h.Press(tea.KeyDown) // openai/gpt-5: no key
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
	h.WaitText("local/alpha", "local/beta", "openai/gpt-5", "3 models")
	if s, c := fake.Calls(wire.MethodModelCatalogStatus), fake.Calls(wire.MethodModelCatalog); s != 3 || c != 3 {
		t.Fatalf("%d status and %d catalog calls for 3 choices in pages of 1", s, c)
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
	h.WaitText("local/alpha")
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
	h.WaitText("refreshing local")
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
	h.WaitText("slow has no model to choose")
	h.Press(tea.KeyEnter)
	h.WaitText("▌ slow") // the providers keep the focus
	if n := fake.Calls(wire.MethodModelSelect); n != 0 {
		t.Fatalf("%d select calls from Enter on a provider without models", n)
	}
}
