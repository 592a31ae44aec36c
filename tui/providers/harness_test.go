package providers_test

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/internal/pagetest"
	"github.com/scoutdev/scout/tui/providers"
)

func ps(id, cat, auth string, relevant bool, recovery string) wire.ProviderStatus {
	return wire.ProviderStatus{Provider: id, CatalogStatus: cat, Authentication: auth, Relevant: relevant, Recovery: recovery}
}

// statuses has one provider in each state the table words.
var statuses = []wire.ProviderStatus{
	ps("local", wire.CatalogAvailable, wire.AuthReady, true, wire.RecoveryNone),
	ps("openai", wire.CatalogMissingCache, wire.AuthUnavailable, true, wire.RecoveryConfigureAuthentication),
	ps("limited", wire.CatalogMissingCache, wire.AuthReady, true, wire.RecoveryRefreshCatalog),
	ps("slow", wire.CatalogEmptyCache, wire.AuthReady, true, wire.RecoveryRefreshCatalog),
	ps("broken", wire.CatalogInvalidFormat, wire.AuthReady, true, wire.RecoveryRefreshCatalog),
	ps("moved", wire.CatalogIncompatibleFingerprint, wire.AuthReady, true, wire.RecoveryRefreshCatalog),
	ps("spare", wire.CatalogAvailable, wire.AuthNotChecked, false, wire.RecoveryEnableModelsAndRestart),
}

var choices = []wire.Choice{
	{Provider: "local", Model: "alpha", Name: "Alpha", Efforts: []string{"low", "high"}, Selectable: true},
	{Provider: "local", Model: "beta", Name: "beta", Selectable: true},
	{Provider: "openai", Model: "gpt-5", Name: "GPT-5", Selectable: false},
}

// rows are every model of the valid caches (model.catalog.models): local
// lists alpha, beta (enabled) and gamma (not), spare lists one model
// nobody enabled.
var rows = []wire.ModelRow{
	{Provider: "local", Model: "alpha", Name: "Alpha", Efforts: []string{"low", "high"}, Enabled: true, Listed: true},
	{Provider: "local", Model: "beta", Name: "beta", Efforts: []string{}, Enabled: true, Listed: true},
	{Provider: "local", Model: "gamma", Name: "Gamma", Efforts: []string{"medium"}, Listed: true},
	{Provider: "spare", Model: "extra", Name: "extra", Efforts: []string{}, Listed: true},
}

// keys: local is keyless (an ollama, say), the others need a key.
var keys = []wire.ProviderKey{
	{Provider: "local"}, {Provider: "openai", KeyRequired: true}, {Provider: "limited", KeyRequired: true},
	{Provider: "slow", KeyRequired: true}, {Provider: "broken", KeyRequired: true}, {Provider: "moved", KeyRequired: true},
	{Provider: "spare", KeyRequired: true},
}

func fixture() bridgetest.Catalog {
	return bridgetest.Catalog{
		Providers: slices.Clone(statuses), Choices: slices.Clone(choices), Selection: &wire.Selection{Provider: "local", Model: "alpha"},
		Models: slices.Clone(rows), Keys: slices.Clone(keys),
	}
}

// testConfigFile is the config.toml the page names.
const testConfigFile = "/home/u/.local/share/scout/config.toml"

// state is what the probe reads from the page.
type state struct {
	revision string
	busy     bool
}

// clock is a test clock: a fixed time plus an offset the test moves.
type clock struct{ off atomic.Int64 }

var epoch = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

func (c *clock) now() time.Time      { return epoch.Add(time.Duration(c.off.Load())) }
func (c *clock) add(d time.Duration) { c.off.Add(int64(d)) }

type harness struct {
	*pagetest.Harness
	t     *testing.T
	clock *clock
}

func newFake(opts ...func(*bridgetest.Options)) *bridgetest.Fake {
	o := bridgetest.Options{Catalog: fixture()}
	for _, f := range opts {
		f(&o)
	}
	return bridgetest.New(o)
}

// start runs the picker on the Providers tab (or on tab active) over fake.
func start(t *testing.T, fake *bridgetest.Fake, w, h int, active ...int) *harness {
	t.Helper()
	tab := 2
	if len(active) > 0 {
		tab = active[0]
	}
	c := &clock{}
	page := providers.New(providers.Options{Backend: fake, Now: c.now, ConfigFile: testConfigFile})
	hs := &harness{t: t, clock: c}
	hs.Harness = pagetest.Start(t, fake, pagetest.Options{
		Pages: []tui.Page{
			tui.NewPlaceholder("Files", "files page"),
			tui.NewPlaceholder("Sessions", "sessions page"),
			page,
		},
		Active: tab, Width: w, Height: h,
		Probe: func() any { return state{revision: page.Revision(), busy: page.Busy()} },
	})
	return hs
}

func st(f pagetest.Frame) state { s, _ := f.State.(state); return s }

// loaded waits until the catalog is shown and nothing is in flight.
func (h *harness) loaded() pagetest.Frame {
	h.t.Helper()
	return h.Wait("the catalog", func(f pagetest.Frame) bool { return st(f).revision != "" && !st(f).busy })
}
