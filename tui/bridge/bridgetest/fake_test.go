package bridgetest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
)

var _ bridge.Backend = (*bridgetest.Fake)(nil)

func code(err error) wire.Code { return bridge.Code(err) }

func TestDiscoverCursorsAreSingleUse(t *testing.T) {
	rows := []wire.SessionRow{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	f := bridgetest.New(bridgetest.Options{Sessions: rows, SessionPage: 2})
	ctx := context.Background()
	p1, err := f.SessionDiscover(ctx, nil)
	if err != nil || len(p1.Sessions) != 2 || p1.Complete || p1.Cursor == nil {
		t.Fatalf("first page %+v, %v", p1, err)
	}
	p2, err := f.SessionDiscover(ctx, p1.Cursor)
	if err != nil || len(p2.Sessions) != 1 || !p2.Complete || p2.Cursor != nil {
		t.Fatalf("second page %+v, %v", p2, err)
	}
	if _, err := f.SessionDiscover(ctx, p1.Cursor); code(err) != wire.CodeStaleRevision {
		t.Fatalf("reused cursor: %v, want stale_revision", err)
	}
	if _, err := f.SessionOpen(ctx, "b", wire.AgentScout); err != nil || f.Attached() != "b" {
		t.Fatalf("open: %v, attached %q", err, f.Attached())
	}
	if _, err := f.SessionOpen(ctx, "zz", wire.AgentScout); code(err) != wire.CodeNotFound {
		t.Fatalf("open of an unknown id: %v", err)
	}
}

func TestCatalogRevisionsGuardSelection(t *testing.T) {
	f := bridgetest.New(bridgetest.Options{CatalogPage: 1, Catalog: bridgetest.Catalog{
		Providers: []wire.ProviderStatus{{Provider: "p", CatalogStatus: wire.CatalogAvailable}},
		Choices:   []wire.Choice{{Provider: "p", Model: "m1", Selectable: true}, {Provider: "p", Model: "m2", Selectable: true}},
	}})
	ctx := context.Background()
	st, err := f.ModelCatalogStatus(ctx, nil)
	if err != nil || st.Providers == nil || len(st.Choices) != 1 || st.Cursor == nil {
		t.Fatalf("status %+v, %v", st, err)
	}
	if _, err := f.ModelCatalogStatus(ctx, st.Cursor); err != nil {
		t.Fatal(err)
	}
	f.NewRevision()
	if _, err := f.ModelCatalog(ctx, st.Cursor); code(err) != wire.CodeStaleRevision {
		t.Fatalf("stale status cursor given to model.catalog: %v", err)
	}
	forged := strings.Replace(*st.Cursor, ".s.", ".x.", 1)
	if _, err := f.ModelCatalog(ctx, &forged); code(err) != wire.CodeInvalidCursor {
		t.Fatalf("forged cursor: %v", err)
	}
	if _, err := f.ModelSelect(ctx, "p", "m1", nil, st.Revision); code(err) != wire.CodeSelectionStale {
		t.Fatalf("stale guard: %v", err)
	}
	res, err := f.ModelRefresh(ctx, "p")
	if err != nil || res.CatalogRevision == nil {
		t.Fatalf("refresh %+v, %v", res, err)
	}
	if _, err := f.ModelSelect(ctx, "p", "m2", nil, *res.CatalogRevision); err != nil || f.Selection().Model != "m2" {
		t.Fatalf("select with the rescan's revision: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	f.SetRefresh(func(ctx context.Context, n int, p string) (wire.RefreshResult, error) {
		cancel()
		<-ctx.Done()
		return wire.RefreshResult{}, ctx.Err()
	})
	if _, err := f.ModelRefresh(cctx, "p"); !errors.Is(err, context.Canceled) || f.Calls(wire.MethodCancel) != 1 {
		t.Fatalf("cancelled refresh: %v, %d cancels", err, f.Calls(wire.MethodCancel))
	}
}
