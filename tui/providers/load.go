package providers

import (
	"context"
	"errors"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
)

// loadTimeout bounds reading every page of status and catalog: they read
// local caches only.
const loadTimeout = 30 * time.Second

// maxLoadAttempts bounds the reads of a load whose cursor went stale
// meanwhile (another fresh read or a refresh made a newer revision).
const maxLoadAttempts = 3

// catalog is one read of model.catalog.status, model.catalog.models and
// model.catalog.
type catalog struct {
	revision  string // the guard for model.select
	providers []wire.ProviderStatus
	choices   []wire.Choice
	selection *wire.Selection
	// rows are every cached model with its enabled state (nil when
	// model.catalog.models is not negotiated); keyless names the providers
	// that need no key.
	rows    []wire.ModelRow
	keyless map[string]bool
}

// loadState is the read in flight.
type loadState struct {
	seq     int
	running bool
	cancel  context.CancelFunc
	err     string // why the last read failed
	// then runs once the read in flight is shown: the outcome of a
	// refresh waits for the catalog after it.
	then func() tea.Cmd
}

func (l *loadState) abandon() {
	if l.cancel != nil {
		l.cancel()
	}
	l.running, l.then = false, nil
}

// loadedMsg is the outcome of load seq.
type loadedMsg struct {
	seq int
	cat *catalog
	err error
}

// startLoad abandons any read in flight and reads status and catalog,
// every page of both.
func (m *Model) startLoad() tea.Cmd {
	then := m.load.then // a refresh's outcome still waits for a read
	m.load.abandon()
	ctx, cancel := context.WithTimeout(context.Background(), loadTimeout)
	m.load = loadState{seq: m.load.seq + 1, running: true, cancel: cancel, then: then}
	b, seq := m.backend, m.load.seq
	parts := readParts{
		status:  bridge.Negotiated(b, wire.MethodModelCatalogStatus),
		models:  bridge.Negotiated(b, wire.MethodModelCatalogModels),
		choices: bridge.Negotiated(b, wire.MethodModelCatalog),
	}
	return tea.Batch(m.Spin(), func() tea.Msg {
		defer cancel()
		cat, err := read(ctx, b, parts)
		return loadedMsg{seq: seq, cat: cat, err: err}
	})
}

// readParts are the reads a load makes, by what was negotiated.
type readParts struct{ status, models, choices bool }

// read reads status, then every model, then the catalog (all pages of
// each). The last fresh read makes the newest revision, the one
// selections are guarded with; a cursor gone stale starts the read over.
func read(ctx context.Context, b bridge.Backend, parts readParts) (*catalog, error) {
	if !parts.status && !parts.choices {
		return nil, wire.NewError(wire.CodeUnsupportedCapability)
	}
	var err error
	for range maxLoadAttempts {
		cat := &catalog{keyless: map[string]bool{}}
		if parts.status {
			err = readStatus(ctx, b, cat)
		}
		if err == nil && parts.models {
			err = readModels(ctx, b, cat)
		}
		if err == nil && parts.choices {
			cat.choices = nil
			err = readChoices(ctx, b, cat)
		}
		if bridge.Code(err) != wire.CodeStaleRevision {
			return cat, err
		}
	}
	return nil, err
}

// readModels reads every page of model.catalog.models.
func readModels(ctx context.Context, b bridge.Backend, cat *catalog) error {
	var cursor *string
	cat.rows = []wire.ModelRow{}
	for {
		page, err := b.ModelCatalogModels(ctx, cursor)
		if err != nil {
			return err
		}
		if cursor == nil {
			cat.revision = page.Revision
			if page.Providers != nil {
				for _, k := range *page.Providers {
					cat.keyless[k.Provider] = !k.KeyRequired
				}
			}
		}
		cat.rows = append(cat.rows, page.Models...)
		if page.Cursor == nil {
			return nil
		}
		cursor = page.Cursor
	}
}

func readStatus(ctx context.Context, b bridge.Backend, cat *catalog) error {
	var cursor *string
	for {
		page, err := b.ModelCatalogStatus(ctx, cursor)
		if err != nil {
			return err
		}
		if cursor == nil {
			cat.revision = page.Revision
			if page.Providers != nil {
				cat.providers = *page.Providers
			}
			cat.selection = page.Selection.Value
		}
		cat.choices = append(cat.choices, page.Choices...)
		if page.Cursor == nil {
			return nil
		}
		cursor = page.Cursor
	}
}

func readChoices(ctx context.Context, b bridge.Backend, cat *catalog) error {
	var cursor *string
	for {
		page, err := b.ModelCatalog(ctx, cursor)
		if err != nil {
			return err
		}
		if cursor == nil {
			cat.revision = page.Revision
			cat.selection = page.Selection.Value
		}
		cat.choices = append(cat.choices, page.Choices...)
		if page.Cursor == nil {
			return nil
		}
		cursor = page.Cursor
	}
}

// handleLoaded shows a read, keeping the focus on the same provider and
// model, then runs what waited for it.
func (m *Model) handleLoaded(msg loadedMsg) tea.Cmd {
	if msg.seq != m.load.seq || !m.load.running {
		return nil
	}
	then := m.load.then
	m.load.running, m.load.then = false, nil
	if msg.err != nil {
		if errors.Is(msg.err, context.Canceled) {
			return nil
		}
		m.load.err = loadError(msg.err)
		if bridge.Code(msg.err) == wire.CodeRequestLimit {
			return tui.ReportError(msg.err)
		}
		return tui.ReportError(bridge.Explain(msg.err, "the provider catalog could not be read"))
	}
	m.adopt(msg.cat)
	if then != nil {
		return then()
	}
	return nil
}

// adopt makes cat the catalog shown, keeping the focus on the same
// provider and model (the one just enabled, after a restart, included).
func (m *Model) adopt(cat *catalog) {
	p, _ := m.focusedProvider()
	r, hadRow := m.focusedRow()
	if t := m.enable.focus; t != nil { // the model enabled before the restart
		p.Provider, r.Model, hadRow = t.Provider, t.Model, true
		m.enable.focus = nil
	}
	m.cat, m.load.err = cat, ""
	if i := slices.IndexFunc(cat.providers, func(ps wire.ProviderStatus) bool { return ps.Provider == p.Provider }); i >= 0 {
		m.pcursor = i
	}
	m.pcursor = clamp(m.pcursor, len(cat.providers))
	if i := slices.IndexFunc(m.rows(), func(x wire.ModelRow) bool { return x.Model == r.Model }); i >= 0 && hadRow {
		m.mcursor = i
	}
	m.mcursor = clamp(m.mcursor, len(m.rows()))
	m.scrollModels()
}

// models returns the model ids of provider's choices in cat (the enabled
// models the provider's cache lists).
func models(cat *catalog, provider string) []string {
	if cat == nil {
		return nil
	}
	var ids []string
	for _, c := range cat.choices {
		if c.Provider == provider {
			ids = append(ids, c.Model)
		}
	}
	return ids
}
