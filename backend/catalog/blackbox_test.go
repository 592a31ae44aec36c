package catalog_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/asuser"
	"github.com/scoutdev/scout/internal/scouttest"
)

// Unused providers with broken caches each get their own catalog_status,
// not_checked authentication and no notice, while a valid enabled custom
// choice stays available and selectable.
func TestUnusedBrokenCachesLeaveCustomChoice(t *testing.T) {
	t.Parallel()
	base := "http://127.0.0.1:9/v1"
	custom := prov{id: "custom", typ: "openai-compatible", base: base, enabled: []string{"my-model"}, keyEnv: testKeyEnv}
	unused := []prov{
		{id: "missing", typ: "openai", base: base, keyEnv: "SCOUT_TEST_UNSET_KEY"},
		{id: "empty", typ: "openai", base: base, keyEnv: "SCOUT_TEST_UNSET_KEY"},
		{id: "badjson", typ: "anthropic", base: base, keyEnv: "SCOUT_TEST_UNSET_KEY"},
		{id: "badschema", typ: "ollama", base: base},
		{id: "otherfp", typ: "openai", base: base, keyEnv: "SCOUT_TEST_UNSET_KEY"},
	}
	home := newHome(t, "", append(unused, custom)...)
	writeValidCache(t, home, custom, "my-model", "other-model")
	emptyDoc := strings.Replace(string(writeValidCache(t, home, unused[1], "x")), `"entries":[`, `"entries":[],"x":[`, 1)
	mustWrite(t, cachePath(home, "empty"), []byte(strings.Replace(emptyDoc, `,"x":[{"id":"x","name":"Name of x","efforts":["low","high"],"context_window":0}]`, "", 1)))
	mustWrite(t, cachePath(home, "badjson"), []byte(`{"format":"scout.catalog.v1","provider":`))
	mustWrite(t, cachePath(home, "badschema"), []byte(`{"format":"scout.catalog.v1","provider":"badschema","entries":"none"}`))
	moved := unused[4]
	moved.base = "http://127.0.0.1:10/v1"
	mustWrite(t, cachePath(home, "otherfp"), writeValidCache(t, t.TempDir(), moved, "x"))

	p := startBackend(t, home)
	st := status(t, p)
	want := map[string]string{
		"missing": wire.CatalogMissingCache, "empty": wire.CatalogEmptyCache, "badjson": wire.CatalogInvalidFormat,
		"badschema": wire.CatalogInvalidSchema, "otherfp": wire.CatalogIncompatibleFingerprint,
	}
	for id, cs := range want {
		ps := providerStatus(t, st, id)
		if ps.CatalogStatus != cs || ps.Authentication != wire.AuthNotChecked || ps.Relevant || ps.Recovery != wire.RecoveryRefreshCatalog {
			t.Errorf("%s = %+v, want catalog_status %s, not_checked", id, ps, cs)
		}
	}
	if ps := providerStatus(t, st, "custom"); ps != (wire.ProviderStatus{Provider: "custom", CatalogStatus: wire.CatalogAvailable, Authentication: wire.AuthReady, Relevant: true, Recovery: wire.RecoveryNone}) {
		t.Errorf("custom = %+v", ps)
	}
	if (*st.Providers)[0].Provider != "custom" {
		t.Errorf("relevant provider not first: %+v", (*st.Providers)[0])
	}
	if len(*st.Notices) != 0 {
		t.Errorf("notices = %+v, want none", *st.Notices)
	}
	wantChoice := wire.Choice{Provider: "custom", Model: "my-model", Name: "Name of my-model", Efforts: []string{"low", "high"}, Selectable: true}
	if len(st.Choices) != 1 || !equalChoice(st.Choices[0], wantChoice) || st.ConfigurationReload != "restart_child" {
		t.Errorf("status choices = %+v", st.Choices)
	}
	cat := catalogPage(t, p, nil)
	if len(cat.Choices) != 1 || !equalChoice(cat.Choices[0], wantChoice) || len(*cat.Notices) != 0 || cat.Cursor != nil {
		t.Fatalf("catalog = %+v", cat)
	}
	var sel wire.SelectResult
	p.MustCall(wire.MethodModelSelect, map[string]any{"provider": "custom", "model": "my-model", "effort": "high", "revision": cat.Revision}, &sel)
	if sel.Selection.Model != "my-model" || *sel.Selection.Effort != "high" || sel.Revision != cat.Revision {
		t.Fatalf("select = %+v", sel)
	}
}

func equalChoice(a, b wire.Choice) bool {
	return a.Provider == b.Provider && a.Model == b.Model && a.Name == b.Name && slices.Equal(a.Efforts, b.Efforts) && a.Selectable == b.Selectable
}

// refreshResultMembers are exactly the members of a model.refresh result.
var refreshResultMembers = []string{"catalog_error", "catalog_revision", "configuration_reload", "outcome", "provider", "reason", "recovery", "selection_unchanged", "ts"}

// checkRefresh checks a refresh response's exact shape and outcome and that
// it leaks no URL or key, and returns it decoded.
func checkRefresh(t *testing.T, m scouttest.Msg, before []scouttest.Msg, outcome, reason string) wire.RefreshResult {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("refresh: error %s", m.Error.Data.Code)
	}
	var members map[string]jsontext.Value
	m.Decode(t, &members)
	var names []string
	for k := range members {
		names = append(names, k)
	}
	sort.Strings(names)
	if !slices.Equal(names, refreshResultMembers) {
		t.Errorf("refresh result members %v", names)
	}
	var res wire.RefreshResult
	m.Decode(t, &res)
	gotReason := ""
	if res.Reason != nil {
		gotReason = *res.Reason
	}
	if res.Outcome != outcome || gotReason != reason || res.ConfigurationReload != "restart_child" || !res.SelectionUnchanged {
		t.Errorf("refresh = %s", m.Raw)
	}
	started := false
	for _, b := range before {
		started = started || b.Method == wire.NotifyCommandStarted
	}
	if !started {
		t.Error("no rpc.command.started before the refresh result")
	}
	for _, leak := range []string{"127.0.0.1", "http", "test-key", "/"} {
		if bytes.Contains(m.Raw, []byte(leak)) {
			t.Errorf("refresh result contains %q: %s", leak, m.Raw)
		}
	}
	return res
}

func TestRefreshRateLimitedAndRejected(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	limited := prov{id: "limited", typ: "openai", base: fake.Add("limited", fakeprovider.RateLimited), keyEnv: testKeyEnv, enabled: []string{"m"}}
	rejected := prov{id: "rejected", typ: "anthropic", base: fake.Add("rejected", fakeprovider.Scenario{Key: "another-key", Models: fakeprovider.Models("m")}), keyEnv: testKeyEnv}
	home := newHome(t, "", limited, rejected)
	p := startBackend(t, home)
	earlier := status(t, p)

	m, before := refresh(t, p, "limited")
	res := checkRefresh(t, m, before, wire.OutcomeFailed, wire.ReasonRateLimited)
	if res.Recovery != "retry_later" || res.CatalogRevision == nil || res.CatalogError != nil {
		t.Errorf("rate limited: %s", m.Raw)
	}
	// A failed refresh still made the earlier revision stale; the rescan's
	// revision is the current one.
	if m := p.Call(wire.MethodModelSelect, map[string]any{"provider": "limited", "model": "m", "effort": nil, "revision": earlier.Revision}); m.Code() != wire.CodeSelectionStale {
		t.Errorf("select with the revision before a failed refresh: %s", m.Raw)
	}
	if m := p.Call(wire.MethodModelSelect, map[string]any{"provider": "limited", "model": "m", "effort": nil, "revision": *res.CatalogRevision}); m.Code() != wire.CodeSelectionInvalid {
		t.Errorf("select a model without a cache with the rescan's revision: %s", m.Raw)
	}
	m, before = refresh(t, p, "rejected")
	res = checkRefresh(t, m, before, wire.OutcomeFailed, wire.ReasonAuthenticationRejected)
	if res.Recovery != "configure_authentication" {
		t.Errorf("rejected: %s", m.Raw)
	}
	if reqs := fake.Requests("rejected"); len(reqs) != 1 || reqs[0].APIKey != "test-key" || reqs[0].APIVersion == "" {
		t.Errorf("anthropic request: %+v", reqs)
	}
	if m := p.Call(wire.MethodModelRefresh, map[string]any{"provider": "unknown"}); m.Code() != wire.CodeInvalidParams {
		t.Errorf("unknown provider: %s", m.Raw)
	}
	if m := p.Call(wire.MethodModelRefresh, map[string]any{"provider": "limited", "force": true}); m.Code() != wire.CodeInvalidParams {
		t.Errorf("unknown member: %s", m.Raw)
	}
	if _, err := os.Stat(filepath.Join(home, "catalog", "limited.json")); !os.IsNotExist(err) {
		t.Errorf("a failed refresh wrote a cache: %v", err)
	}
}

// A delayed refresh keeps status answering within 100 ms; operation.cancel is
// acknowledged, the refresh answers operation_cancelled, the cache bytes are
// unchanged, and the earlier revision is stale.
func TestRefreshCancelled(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	slow := prov{id: "slow", typ: "openai", base: fake.Add("slow", fakeprovider.Slow(time.Minute, "m", "n")), keyEnv: testKeyEnv, enabled: []string{"m"}}
	home := newHome(t, "", slow)
	old := writeValidCache(t, home, slow, "m")
	p := startBackend(t, home)
	cat := catalogPage(t, p, nil)

	p.Request("r1", wire.MethodModelRefresh, map[string]any{"provider": "slow"})
	if m := p.Next(scouttest.DefaultTimeout); m.Method != wire.NotifyCommandStarted {
		t.Fatalf("first message %s", m.Raw)
	}
	deadline := time.Now().Add(scouttest.DefaultTimeout)
	for len(fake.Requests("slow")) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	within := 0
	for i := range 5 {
		id := "s" + string(rune('0'+i))
		sent := time.Now()
		p.Request(id, wire.MethodStatus, nil)
		m, _ := p.Await(id)
		if m.Error != nil {
			t.Fatalf("status: %s", m.Raw)
		}
		if m.At.Sub(sent) <= 100*time.Millisecond {
			within++
		}
		if m.At.Sub(sent) > time.Second {
			t.Errorf("status took %v during a refresh", m.At.Sub(sent))
		}
	}
	if within < 4 { // tolerance for a noisy shared machine
		t.Errorf("only %d of 5 status answers within 100 ms", within)
	}
	// A catalog read while the refresh runs: its guard must not outlive
	// the refresh's cancellation (a cache written just before the cancel
	// was seen is not rescanned).
	during := catalogPage(t, p, nil)
	if m := p.Call(wire.MethodModelSelect, map[string]any{"provider": "slow", "model": "m", "effort": nil, "revision": cat.Revision}); m.Code() != wire.CodeBusy {
		t.Errorf("select during refresh: %s", m.Raw)
	}
	p.Request("c1", wire.MethodCancel, map[string]any{"request_id": "r1"})
	ack, _ := p.Await("c1")
	var cr wire.CancelResult
	ack.Decode(t, &cr)
	if ack.Error != nil || cr.State != "cancelling" || cr.RequestID != "r1" {
		t.Fatalf("cancel ack: %s", ack.Raw)
	}
	m, _ := p.Await("r1")
	if m.Code() != wire.CodeOperationCancelled {
		t.Fatalf("refresh after cancel: %s", m.Raw)
	}
	if got := mustRead(t, cachePath(home, "slow")); !bytes.Equal(got, old) {
		t.Fatalf("cache changed:\n%s", got)
	}
	// The cancelled worker holds the selection slot until it has returned:
	// busy until then means "retry later".
	if m := callUntilNotBusy(t, p, wire.MethodModelSelect, map[string]any{"provider": "slow", "model": "m", "effort": nil, "revision": cat.Revision}); m.Code() != wire.CodeSelectionStale {
		t.Errorf("select with a revision from before the refresh: %s", m.Raw)
	}
	if m := p.Call(wire.MethodModelSelect, map[string]any{"provider": "slow", "model": "m", "effort": nil, "revision": during.Revision}); m.Code() != wire.CodeSelectionStale {
		t.Errorf("select with a revision read during the cancelled refresh: %s", m.Raw)
	}
	if after := catalogPage(t, p, nil); after.Revision == cat.Revision || len(after.Choices) != 1 {
		t.Errorf("catalog after the cancelled refresh: %+v", after)
	}
}

// Success with one enabled and one new disabled model: refreshed, a fresh
// revision, and the next catalog offers only the enabled model.
func TestRefreshSuccessOffersEnabledOnly(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	enrich := fake.Add("enrich", fakeprovider.Enrichment(`{"okp":{"models":{"enabled-model":{"name":"Enabled Model","reasoning":true,"limit":{"context":200000}}}}}`)) + "/api.json"
	okp := prov{id: "okp", typ: "openai-compatible", base: fake.Add("okp", fakeprovider.Success("enabled-model", "new-disabled-model")), keyEnv: testKeyEnv, enabled: []string{"enabled-model"}, timeout: "30s"}
	home := newHome(t, enrich, okp)
	p := startBackend(t, home)
	before := status(t, p)
	if ps := providerStatus(t, before, "okp"); ps.CatalogStatus != wire.CatalogMissingCache || len(*before.Notices) != 1 || (*before.Notices)[0].Code != wire.NoticeMissingCache {
		t.Fatalf("before: %+v %+v", ps, *before.Notices)
	}
	m, msgs := refresh(t, p, "okp")
	res := checkRefresh(t, m, msgs, wire.OutcomeRefreshed, "")
	if res.CatalogRevision == nil || *res.CatalogRevision == before.Revision || res.CatalogError != nil || res.Recovery != "reload_catalog" {
		t.Fatalf("refreshed: %s", m.Raw)
	}
	var sel wire.SelectResult
	p.MustCall(wire.MethodModelSelect, map[string]any{"provider": "okp", "model": "enabled-model", "effort": "medium", "revision": *res.CatalogRevision}, &sel)
	cat := catalogPage(t, p, nil)
	if len(cat.Choices) != 1 || cat.Choices[0].Model != "enabled-model" || cat.Choices[0].Name != "Enabled Model" ||
		!slices.Equal(cat.Choices[0].Efforts, []string{"low", "medium", "high"}) || cat.Revision == *res.CatalogRevision {
		t.Fatalf("catalog after refresh: %+v", cat)
	}
	if s := cat.Selection.Value; s == nil || s.Model != "enabled-model" || *s.Effort != "medium" {
		t.Fatalf("selection: %+v", cat.Selection)
	}
	if !bytes.Contains(mustRead(t, cachePath(home, "okp")), []byte("new-disabled-model")) {
		t.Error("the cache does not hold the disabled model")
	}
	if m := p.Call(wire.MethodModelSelect, map[string]any{"provider": "okp", "model": "new-disabled-model", "effort": nil, "revision": cat.Revision}); m.Code() != wire.CodeSelectionInvalid {
		t.Errorf("selecting a disabled model: %s", m.Raw)
	}
}

// A client negotiating only session.list and model.catalog sees no
// extensions and gets unsupported_capability for model.refresh. On a branch
// where session.list is not offered yet, initialize fails naming it and the
// test negotiates model.catalog alone.
func TestRefreshNotNegotiated(t *testing.T) {
	t.Parallel()
	home := newHome(t, "", prov{id: "p", typ: "ollama", base: "http://127.0.0.1:9"})
	p := scouttest.Start(t, scouttest.Options{Env: []string{"SCOUT_HOME=" + home}})
	init := map[string]any{"protocol_version": 1, "required_capabilities": []string{wire.MethodSessionList, wire.MethodModelCatalog}}
	m := p.Call(wire.MethodInitialize, init)
	if m.Code() == wire.CodeUnsupportedCapability {
		if !slices.Equal(m.Error.Data.Capabilities, []string{wire.MethodSessionList}) {
			t.Fatalf("initialize: %s", m.Raw)
		}
		t.Log("session.list is not offered by this build; negotiating model.catalog alone")
		m = p.Call(wire.MethodInitialize, map[string]any{"protocol_version": 1, "required_capabilities": []string{wire.MethodModelCatalog}})
	}
	if m.Error != nil || !bytes.Contains(m.Raw, []byte(`"extensions":{}`)) {
		t.Fatalf("initialize: %s", m.Raw)
	}
	if m := p.Call(wire.MethodModelRefresh, map[string]any{"provider": "p"}); m.Code() != wire.CodeUnsupportedCapability {
		t.Fatalf("model.refresh: %s", m.Raw)
	}
	catalogPage(t, p, nil)

	q := scouttest.Start(t, scouttest.Options{Env: []string{"SCOUT_HOME=" + home}})
	res := q.Initialize(wire.MethodModelRefresh)
	if res.Extensions.ModelRefresh == nil || *res.Extensions.ModelRefresh != wire.DefaultRefreshExtension {
		t.Fatalf("model.refresh extension: %+v", res.Extensions)
	}
}

// A write failure in the cache directory answers cache_write_failed and
// keeps the old cache. Root writes anywhere, so the backend runs as nobody
// with the home owned by root (readable, not writable); as another user the
// cache directory is made read-only instead.
func TestBlackBoxCacheWriteFailed(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	okp := prov{id: "okp", typ: "openai", base: fake.Add("okp", fakeprovider.Success("m", "n")), keyEnv: testKeyEnv, enabled: []string{"m"}}
	home := newHome(t, "", okp)
	old := writeValidCache(t, home, okp, "m")
	ws := t.TempDir()
	opts := scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home, testKeyEnv + "=test-key"}}
	if os.Geteuid() == 0 {
		asuser.Share(home)
		asuser.Share(ws)
		opts.Unprivileged = true
	} else if err := os.Chmod(filepath.Join(home, "catalog"), 0o555); err != nil {
		t.Fatal(err)
	}
	p := scouttest.Start(t, opts)
	p.Initialize(wire.MethodModelCatalog, wire.MethodModelRefresh)
	m, before := refresh(t, p, "okp")
	res := checkRefresh(t, m, before, wire.OutcomeFailed, wire.ReasonCacheWriteFailed)
	if res.CatalogRevision == nil || res.Recovery != "check_backend_home" {
		t.Errorf("write failure: %s", m.Raw)
	}
	if got := mustRead(t, cachePath(home, "okp")); !bytes.Equal(got, old) {
		t.Fatalf("the old cache changed:\n%s", got)
	}
	entries, _ := os.ReadDir(filepath.Join(home, "catalog"))
	if len(entries) != 1 {
		t.Errorf("catalog directory holds %d entries", len(entries))
	}
	if cat := catalogPage(t, p, nil); len(cat.Choices) != 1 {
		t.Errorf("old cache no longer served: %+v", cat)
	}
}

// A revision replaced by a newer one makes model.select answer
// selection_stale and cursors stale_revision; a cursor never issued is
// invalid_cursor, one of the other catalog method continues; pages respect
// both bounds.
func TestStaleRevisionsAndPages(t *testing.T) {
	t.Parallel()
	var ids []string
	for i := range 260 {
		ids = append(ids, strings.Repeat("m", 200)+string(rune('A'+i/26))+string(rune('a'+i%26)))
	}
	big := prov{id: "big", typ: "ollama", base: "http://127.0.0.1:9", enabled: ids}
	home := newHome(t, "", big)
	writeValidCache(t, home, big, ids...)
	p := startBackend(t, home)

	first := catalogPage(t, p, nil)
	second := catalogPage(t, p, nil)
	if m := p.Call(wire.MethodModelSelect, map[string]any{"provider": "big", "model": ids[0], "effort": nil, "revision": first.Revision}); m.Code() != wire.CodeSelectionStale {
		t.Fatalf("stale select: %s", m.Raw)
	}
	if m := p.Call(wire.MethodModelCatalog, map[string]any{"cursor": first.Cursor}); m.Code() != wire.CodeStaleRevision {
		t.Fatalf("stale cursor: %s", m.Raw)
	}
	if m := p.Call(wire.MethodModelCatalog, map[string]any{"cursor": "c1.a.100.AAAAAAAAAAAAAAAAAAAAAA"}); m.Code() != wire.CodeInvalidCursor {
		t.Fatalf("forged cursor: %s", m.Raw)
	}
	// Both methods page one snapshot: a model.catalog cursor continues in
	// model.catalog.status (status members, same choices).
	var cross wire.CatalogStatusResult
	p.MustCall(wire.MethodModelCatalogStatus, map[string]any{"cursor": second.Cursor}, &cross)
	if cross.Revision != second.Revision || len(cross.Choices) == 0 || cross.Choices[0].Model != ids[len(second.Choices)] ||
		cross.ConfigurationReload != "restart_child" || cross.Providers != nil || cross.Notices != nil || cross.Selection.Present {
		t.Fatalf("catalog cursor on status: %+v", cross)
	}
	seen := len(second.Choices)
	for cur := second.Cursor; cur != nil; {
		id := p.NextID()
		p.Request(id, wire.MethodModelCatalog, map[string]any{"cursor": *cur})
		m, _ := p.Await(id)
		if len(m.Raw)+1 > 32768 {
			t.Fatalf("page line of %d bytes", len(m.Raw)+1)
		}
		var page wire.CatalogResult
		m.Decode(t, &page)
		if len(page.Choices) > 100 || page.Revision != second.Revision || page.Notices != nil || page.Selection.Present {
			t.Fatalf("page: %d choices, revision %s", len(page.Choices), page.Revision)
		}
		seen += len(page.Choices)
		cur = page.Cursor
	}
	if seen != len(ids) {
		t.Fatalf("%d choices over all pages, want %d", seen, len(ids))
	}
	var sel wire.SelectResult
	p.MustCall(wire.MethodModelSelect, map[string]any{"provider": "big", "model": ids[0], "effort": "low", "revision": second.Revision}, &sel)
	state := mustRead(t, filepath.Join(home, "state.json"))
	if !bytes.Contains(state, []byte(ids[0])) {
		t.Fatalf("state.json: %s", state)
	}
}

// An oversized or unsafe cache fails the catalog calls; a refresh's rescan
// then reports catalog_error with a null revision.
func TestUnreadableCachesFailCalls(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	okp := prov{id: "okp", typ: "openai", base: fake.Add("okp", fakeprovider.Success("m")), keyEnv: testKeyEnv, enabled: []string{"m"}}
	huge := prov{id: "huge", typ: "ollama", base: "http://127.0.0.1:9"}
	home := newHome(t, "", okp, huge)
	mustWrite(t, cachePath(home, "huge"), make([]byte, 1<<20+1))
	p := startBackend(t, home)
	if m := p.Call(wire.MethodModelCatalogStatus, nil); m.Code() != wire.CodeCatalogLimit {
		t.Fatalf("status over an oversized cache: %s", m.Raw)
	}
	m, before := refresh(t, p, "okp")
	res := checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	if res.CatalogRevision != nil || res.CatalogError == nil || *res.CatalogError != "catalog_limit" || res.Recovery != "check_backend_home" {
		t.Fatalf("rescan: %s", m.Raw)
	}
	if err := os.Remove(cachePath(home, "huge")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(cachePath(home, "okp"), cachePath(home, "huge")); err != nil {
		t.Fatal(err)
	}
	if m := p.Call(wire.MethodModelCatalog, nil); m.Code() != wire.CodeCatalogUnavailable {
		t.Fatalf("catalog over a symlinked cache: %s", m.Raw)
	}
}

// The catalog keeps the providers the child started with: a provider of a
// .scout/config.toml trusted during the child's life appears only in the
// next child, which applies the trusted file before initialize answers.
func TestTrustedProjectProvidersNeedRestart(t *testing.T) {
	t.Parallel()
	user := prov{id: "user", typ: "ollama", base: "http://127.0.0.1:9", enabled: []string{"m"}}
	project := prov{id: "project", typ: "ollama", base: "http://127.0.0.1:9", enabled: []string{"m"}}
	home := newHome(t, "", user)
	ws := t.TempDir()
	mustWrite(t, filepath.Join(ws, ".scout", "config.toml"), []byte(project.toml()))
	writeValidCache(t, home, project, "m")
	ids := func(st wire.CatalogStatusResult) []string {
		var out []string
		for _, ps := range *st.Providers {
			out = append(out, ps.Provider)
		}
		return out
	}
	p := scouttest.Start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}})
	p.Initialize(wire.MethodWorkspaceTrust, wire.MethodModelCatalogStatus)
	// The keyless built-ins come after every configured provider.
	if got := ids(status(t, p)); !slices.Equal(got, []string{"user", "ollama", "lmstudio"}) {
		t.Fatalf("untrusted workspace: providers %v", got)
	}
	var tr wire.TrustResult
	p.MustCall(wire.MethodWorkspaceTrust, nil, &tr)
	if tr.Trust != wire.TrustTrusted || tr.ConfigurationReload != wire.ConfigurationReloadRestart {
		t.Fatalf("workspace.trust: %+v", tr)
	}
	if got := ids(status(t, p)); !slices.Equal(got, []string{"user", "ollama", "lmstudio"}) {
		t.Fatalf("the running child adopted providers: %v", got)
	}
	q := scouttest.Start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}})
	q.Initialize(wire.MethodModelCatalog, wire.MethodModelCatalogStatus)
	st := status(t, q)
	if got := ids(st); !slices.Equal(got, []string{"user", "project", "ollama", "lmstudio"}) {
		t.Fatalf("restarted child: providers %v", got)
	}
	if len(st.Choices) != 1 || st.Choices[0].Provider != "project" {
		t.Fatalf("restarted child: choices %+v", st.Choices)
	}
}
