package rpcclient_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/rpcclient"
)

// startHome starts a backend over home in workspace dir with the session
// and catalog capabilities.
func startHome(t *testing.T, dir, home string) *rpcclient.Client {
	t.Helper()
	exe := scouttest.Binary(t) // built first: the build is not the start's to wait for
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	c, err := rpcclient.Start(ctx, rpcclient.Options{
		Exe: exe,
		Dir: dir,
		Env: append(scouttest.Environ(), "SCOUT_HOME="+home),
		Capabilities: []string{
			wire.MethodSessionDiscover, wire.MethodSessionOpen,
			wire.MethodModelCatalog, wire.MethodModelCatalogStatus, wire.MethodModelRefresh, wire.MethodModelSelect,
			wire.MethodModelEnable, wire.MethodModelCatalogModels, wire.MethodCancel,
		},
	})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestSessionWrappers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, store := sessionstest.Home(t)
	sessionstest.MustWrite(t, store,
		sessionstest.History{ID: "here", Cwds: []string{dir}, Title: "fix the parser"},
		sessionstest.History{ID: "elsewhere", Cwds: []string{t.TempDir()}},
	)
	c := startHome(t, dir, home)
	ctx := context.Background()
	var rows []wire.SessionRow
	var cursor *string
	for {
		page, err := c.SessionDiscover(ctx, cursor)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, page.Sessions...)
		if page.Complete {
			if page.Notices.SessionsOtherDirectories != 1 {
				t.Fatalf("notices %+v, want one session elsewhere", page.Notices)
			}
			break
		}
		cursor = page.Cursor
	}
	if len(rows) != 1 || rows[0].ID != "here" || rows[0].Title != "fix the parser" {
		t.Fatalf("rows %+v", rows)
	}
	res, err := c.SessionOpen(ctx, "here", "")
	if err != nil || res.Attachment.SessionID != "here" || res.Attachment.Agent != wire.AgentScout || !res.Attachment.Saved {
		t.Fatalf("open: %+v, %v", res, err)
	}
	var we *wire.Error
	if _, err := c.SessionOpen(ctx, "elsewhere", ""); !errors.As(err, &we) || we.Code != wire.CodeCwdMismatch {
		t.Fatalf("open of another directory's session: %v, want cwd_mismatch", err)
	}
}

func TestCatalogWrappers(t *testing.T) {
	t.Parallel()
	srv, err := fakeprovider.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	home := t.TempDir()
	config := fmt.Sprintf("[enrichment]\nurl = \"\"\n\n[[providers]]\nid = \"local\"\ntype = \"openai-compatible\"\nbase_url = %q\nenabled_models = [\"alpha\"]\n",
		srv.Add("ok", fakeprovider.Success("alpha", "beta")))
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startHome(t, t.TempDir(), home)
	ctx := context.Background()
	st, err := c.ModelCatalogStatus(ctx, nil)
	// local, then the keyless built-ins ollama and lmstudio.
	if err != nil || st.Providers == nil || len(*st.Providers) != 3 || (*st.Providers)[0].CatalogStatus != wire.CatalogMissingCache {
		t.Fatalf("status: %+v, %v", st, err)
	}
	ref, err := c.ModelRefresh(ctx, "local")
	if err != nil || ref.Outcome != wire.OutcomeRefreshed {
		t.Fatalf("refresh: %+v, %v", ref, err)
	}
	var we *wire.Error
	if _, err := c.ModelSelect(ctx, "local", "alpha", nil, st.Revision); !errors.As(err, &we) || we.Code != wire.CodeSelectionStale {
		t.Fatalf("select with the revision before the refresh: %v, want selection_stale", err)
	}
	cat, err := c.ModelCatalog(ctx, nil)
	if err != nil || len(cat.Choices) != 1 || cat.Choices[0].Model != "alpha" {
		t.Fatalf("catalog: %+v, %v", cat, err)
	}
	sel, err := c.ModelSelect(ctx, "local", "alpha", nil, cat.Revision)
	if err != nil || sel.Selection.Model != "alpha" {
		t.Fatalf("select: %+v, %v", sel, err)
	}
	ms, err := c.ModelCatalogModels(ctx, nil)
	if err != nil || ms.Providers == nil || len(ms.Models) != 2 || !ms.Models[0].Enabled || ms.Models[1].Enabled || ms.Cursor != nil {
		t.Fatalf("models: %+v, %v", ms, err)
	}
	en, err := c.ModelEnable(ctx, "local", "beta", true)
	if err != nil || !en.Enabled || en.Model != "beta" || en.ConfigurationReload != wire.ConfigurationReloadRestart {
		t.Fatalf("enable: %+v, %v", en, err)
	}
	if _, err := c.ModelEnable(ctx, "local", "gamma", true); !errors.As(err, &we) || we.Code != wire.CodeInvalidParams {
		t.Fatalf("enable of a model not in the catalog: %v, want invalid_params", err)
	}
}

// The catalog wrappers page one snapshot across both methods (a
// model.catalog.status cursor continues in ModelCatalog), and cancelling
// ModelRefresh's context cancels the refresh in the backend: the call
// returns the context's error, nothing is written, and the next refresh is
// admitted.
func TestCatalogWrappersPagesAndCancel(t *testing.T) {
	t.Parallel()
	srv, err := fakeprovider.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	models := make([]fakeprovider.Model, 150)
	enabled := ""
	for i := range models {
		models[i].ID = fmt.Sprintf("m%03d", i)
		enabled += fmt.Sprintf("%q, ", models[i].ID)
	}
	config := fmt.Sprintf("[enrichment]\nurl = \"\"\n\n"+
		"[[providers]]\nid = \"many\"\ntype = \"openai-compatible\"\nbase_url = %q\nenabled_models = [%s]\n\n"+
		"[[providers]]\nid = \"hang\"\ntype = \"openai-compatible\"\nbase_url = %q\n",
		srv.Add("many", fakeprovider.Scenario{Models: models}), enabled, srv.Add("hang", fakeprovider.Hanging))
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startHome(t, t.TempDir(), home)
	ctx := context.Background()
	if ref, err := c.ModelRefresh(ctx, "many"); err != nil || ref.Outcome != wire.OutcomeRefreshed {
		t.Fatalf("refresh: %+v, %v", ref, err)
	}
	first, err := c.ModelCatalogStatus(ctx, nil)
	if err != nil || len(first.Choices) != 100 || first.Cursor == nil {
		t.Fatalf("first page: %d choices, cursor %v, %v", len(first.Choices), first.Cursor, err)
	}
	rest, err := c.ModelCatalog(ctx, first.Cursor)
	if err != nil || rest.Revision != first.Revision || len(rest.Choices) != 50 || rest.Cursor != nil || rest.Choices[0].Model != "m100" {
		t.Fatalf("second page through the other method: %+v, %v", rest, err)
	}

	cctx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() { _, err := c.ModelRefresh(cctx, "hang"); errc <- err }()
	deadline := time.Now().Add(scouttest.DefaultTimeout)
	for len(srv.Requests("hang")) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled refresh: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(home, "catalog", "hang.json")); !os.IsNotExist(err) {
		t.Errorf("a cancelled refresh wrote its cache: %v", err)
	}
	var stale *wire.Error
	if _, err := c.ModelCatalog(ctx, first.Cursor); !errors.As(err, &stale) || stale.Code != wire.CodeStaleRevision {
		t.Errorf("cursor after an admitted refresh: %v, want stale_revision", err)
	}
	for {
		ref, err := c.ModelRefresh(ctx, "many")
		var we *wire.Error
		if errors.As(err, &we) && we.Code == wire.CodeBusy && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond) // the cancelled worker is still returning
			continue
		}
		if err != nil || ref.Outcome != wire.OutcomeRefreshed {
			t.Fatalf("refresh after a cancelled one: %+v, %v", ref, err)
		}
		break
	}
}
