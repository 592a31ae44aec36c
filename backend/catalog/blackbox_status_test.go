package catalog_test

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// model.catalog.status through the binary: catalog_status in the check order
// of docs/protocol.md §7 (format, schema/provider, fingerprint, empty entries,
// entry identities), cache age never expiring a catalog, and for relevant
// providers the notices, authentication and first-rule recovery.
func TestBlackBoxCatalogStatusOrder(t *testing.T) {
	t.Parallel()
	const base = "http://127.0.0.1:9/v1"
	otherFP := `"fingerprint":"sha256:` + strings.Repeat("0", 64) + `"`
	edit := func(doc []byte, pairs ...string) []byte {
		return []byte(strings.NewReplacer(pairs...).Replace(string(doc)))
	}
	noEntries := func(doc []byte) []byte {
		s := string(doc)
		return []byte(s[:strings.Index(s, `"entries":`)] + `"entries":[]}`)
	}
	fp := func(doc []byte) string { // the document's own fingerprint member
		s := string(doc)
		i := strings.Index(s, `"fingerprint":`)
		return s[i : i+len(`"fingerprint":"sha256:`)+64+1]
	}
	cases := []struct {
		id, want string
		doc      func(valid []byte) []byte
	}{
		{"valid", wire.CatalogAvailable, func(v []byte) []byte { return v }},
		{"ancient", wire.CatalogAvailable, func(v []byte) []byte { return edit(v, "2026-11-01T00:00:00Z", "1970-01-01t00:00:00z") }},
		{"future", wire.CatalogAvailable, func(v []byte) []byte { return edit(v, "2026-11-01T00:00:00Z", "2999-12-31T23:59:59.5+05:30") }},
		{"leapsecond", wire.CatalogAvailable, func(v []byte) []byte { return edit(v, "2026-11-01T00:00:00Z", "2016-12-31T23:59:60Z") }},
		{"commafraction", wire.CatalogInvalidSchema, func(v []byte) []byte { return edit(v, "2026-11-01T00:00:00Z", "2026-11-01T00:00:00,5Z") }},
		{"offsethour24", wire.CatalogInvalidSchema, func(v []byte) []byte { return edit(v, "2026-11-01T00:00:00Z", "2026-11-01T00:00:00+24:00") }},
		{"offsetminute60", wire.CatalogInvalidSchema, func(v []byte) []byte { return edit(v, "2026-11-01T00:00:00Z", "2026-11-01T00:00:00-05:60") }},
		{"february30", wire.CatalogInvalidSchema, func(v []byte) []byte { return edit(v, "2026-11-01T00:00:00Z", "2026-02-30T00:00:00Z") }},
		{"formatfirst", wire.CatalogInvalidFormat, func(v []byte) []byte {
			return edit(v, `"scout.catalog.v1"`, `"scout.catalog.v2"`, `"provider":"formatfirst"`, `"provider":"other"`)
		}},
		{"schemabeforefp", wire.CatalogInvalidSchema, func(v []byte) []byte {
			return edit(v, `"provider":"schemabeforefp"`, `"provider":"other"`, fp(v), otherFP)
		}},
		{"fpbeforeempty", wire.CatalogIncompatibleFingerprint, func(v []byte) []byte {
			return noEntries(edit(v, fp(v), otherFP))
		}},
		{"fpbeforeids", wire.CatalogIncompatibleFingerprint, func(v []byte) []byte { return edit(v, fp(v), otherFP, `"id":"m2"`, `"id":"m"`) }},
		{"empty", wire.CatalogEmptyCache, noEntries},
		{"duplicateid", wire.CatalogInvalidSchema, func(v []byte) []byte { return edit(v, `"id":"m2"`, `"id":"m"`) }},
		{"emptyid", wire.CatalogInvalidSchema, func(v []byte) []byte { return edit(v, `"id":"m2"`, `"id":""`) }},
		{"unsafeid", wire.CatalogInvalidSchema, func(v []byte) []byte { return edit(v, `"id":"m2"`, `"id":"m 2"`) }},
	}
	var provs []prov
	for _, c := range cases {
		provs = append(provs, prov{id: c.id, typ: "ollama", base: base, enabled: []string{"m"}})
	}
	home := newHome(t, "", provs...)
	for i, c := range cases {
		mustWrite(t, cachePath(home, c.id), c.doc(writeValidCache(t, home, provs[i], "m", "m2")))
	}

	st := status(t, startBackend(t, home))
	notices := map[string]string{}
	for _, n := range *st.Notices {
		notices[n.Provider] = n.Code
	}
	for _, c := range cases {
		ps := providerStatus(t, st, c.id)
		if ps.CatalogStatus != c.want {
			t.Errorf("%s: catalog_status %s, want %s", c.id, ps.CatalogStatus, c.want)
		}
		wantNotice, wantRecovery := wire.NoticeInvalidCache, wire.RecoveryRefreshCatalog
		switch c.want {
		case wire.CatalogAvailable:
			wantNotice, wantRecovery = "", wire.RecoveryNone
		case wire.CatalogEmptyCache:
			wantNotice = wire.NoticeEmptyCache
		}
		if notices[c.id] != wantNotice || ps.Recovery != wantRecovery || !ps.Relevant || ps.Authentication != wire.AuthReady {
			t.Errorf("%s: notice %q, status %+v", c.id, notices[c.id], ps)
		}
	}
	if len(st.Choices) != 4 {
		t.Errorf("choices %+v, want m of valid, ancient, future and leapsecond", st.Choices)
	}
}

// Relevance, authentication and recovery of model.catalog.status: a provider
// is relevant with an enabled model or when selected; authentication is
// checked only for relevant ones; recovery takes the first rule that applies.
func TestBlackBoxCatalogRelevance(t *testing.T) {
	t.Parallel()
	const base = "http://127.0.0.1:9/v1"
	provs := []prov{
		{id: "idle", typ: "ollama", base: base},                                                                     // available, unused
		{id: "idlenokey", typ: "openai", base: base, keyEnv: "SCOUT_TEST_UNSET_KEY"},                                // missing, unused
		{id: "nokey", typ: "openai", base: base, keyEnv: "SCOUT_TEST_UNSET_KEY", enabled: []string{"m"}},            // missing cache and key
		{id: "selected", typ: "anthropic", base: base, keyEnv: "SCOUT_TEST_UNSET_KEY"},                              // selected only
		{id: "ready", typ: "openai-compatible", base: base, enabled: []string{"m"}},                                 // no key needed
		{id: "keyed", typ: "openai-compatible", base: base, keyEnv: "SCOUT_TEST_UNSET_KEY", enabled: []string{"m"}}, // key configured, unset
	}
	home := newHome(t, "", provs...)
	for _, p := range []prov{provs[0], provs[3], provs[4], provs[5]} {
		writeValidCache(t, home, p, "m")
	}
	mustWrite(t, home+"/state.json", []byte(`{"format":"scout.state.v1","selection":{"provider":"selected","model":"m","effort":null}}`))
	st := status(t, startBackend(t, home))
	want := []wire.ProviderStatus{
		{Provider: "nokey", CatalogStatus: wire.CatalogMissingCache, Authentication: wire.AuthUnavailable, Relevant: true, Recovery: wire.RecoveryConfigureAuthentication},
		{Provider: "selected", CatalogStatus: wire.CatalogAvailable, Authentication: wire.AuthUnavailable, Relevant: true, Recovery: wire.RecoveryConfigureAuthentication},
		{Provider: "ready", CatalogStatus: wire.CatalogAvailable, Authentication: wire.AuthReady, Relevant: true, Recovery: wire.RecoveryNone},
		{Provider: "keyed", CatalogStatus: wire.CatalogAvailable, Authentication: wire.AuthUnavailable, Relevant: true, Recovery: wire.RecoveryConfigureAuthentication},
		{Provider: "idle", CatalogStatus: wire.CatalogAvailable, Authentication: wire.AuthNotChecked, Relevant: false, Recovery: wire.RecoveryEnableModelsAndRestart},
		{Provider: "idlenokey", CatalogStatus: wire.CatalogMissingCache, Authentication: wire.AuthNotChecked, Relevant: false, Recovery: wire.RecoveryRefreshCatalog},
		// The keyless built-ins, last; unused, so not checked either.
		{Provider: "ollama", CatalogStatus: wire.CatalogMissingCache, Authentication: wire.AuthNotChecked, Relevant: false, Recovery: wire.RecoveryRefreshCatalog},
		{Provider: "lmstudio", CatalogStatus: wire.CatalogMissingCache, Authentication: wire.AuthNotChecked, Relevant: false, Recovery: wire.RecoveryRefreshCatalog},
	}
	if len(*st.Providers) != len(want) {
		t.Fatalf("providers %+v", *st.Providers)
	}
	for i, ps := range *st.Providers {
		if ps != want[i] {
			t.Errorf("providers[%d] = %+v, want %+v", i, ps, want[i])
		}
	}
	wantNotices := []wire.CatalogNotice{
		{Code: wire.NoticeMissingCache, Provider: "nokey"}, {Code: wire.NoticeAuthenticationUnavailable, Provider: "nokey"},
		{Code: wire.NoticeAuthenticationUnavailable, Provider: "selected"},
		{Code: wire.NoticeAuthenticationUnavailable, Provider: "keyed"},
	}
	if got := *st.Notices; len(got) != len(wantNotices) {
		t.Fatalf("notices %+v", got)
	}
	for i, n := range *st.Notices {
		if n != wantNotices[i] {
			t.Errorf("notices[%d] = %+v, want %+v", i, n, wantNotices[i])
		}
	}
	if len(st.Choices) != 2 || !st.Choices[0].Selectable || st.Choices[1].Selectable {
		t.Errorf("choices %+v: ready selectable, keyed not", st.Choices)
	}
	if sel := st.Selection.Value; sel == nil || sel.Provider != "selected" {
		t.Errorf("selection %+v", st.Selection)
	}
}

// The catalog methods' params are {"cursor":S|null}; results carry exactly
// their members (selection, notices and, for status, providers on the first
// page only); revisions count c1, c2, ...; choices is always an array.
func TestBlackBoxCatalogParamsAndMembers(t *testing.T) {
	t.Parallel()
	var ids []string
	for i := range 150 {
		ids = append(ids, "m"+strconv.Itoa(i))
	}
	big := prov{id: "big", typ: "ollama", base: "http://127.0.0.1:9/v1", enabled: ids}
	home := newHome(t, "", big)
	writeValidCache(t, home, big, ids...)
	p := startBackend(t, home)
	members := func(m scouttest.Msg) string {
		t.Helper()
		if m.Error != nil {
			t.Fatalf("error: %s", m.Raw)
		}
		var obj map[string]jsontext.Value
		m.Decode(t, &obj)
		var names []string
		for k := range obj {
			names = append(names, k)
		}
		sort.Strings(names)
		return strings.Join(names, ",")
	}
	const (
		catFirst    = "choices,cursor,notices,revision,selection,ts"
		catLater    = "choices,cursor,revision,ts"
		statusFirst = "choices,configuration_reload,cursor,notices,providers,revision,selection,ts"
		statusLater = "choices,configuration_reload,cursor,revision,ts"
	)
	n := 0
	for _, tc := range []struct {
		method string
		params any
		first  string
		later  string
	}{
		{wire.MethodModelCatalog, nil, catFirst, catLater},
		{wire.MethodModelCatalog, map[string]any{}, catFirst, catLater},
		{wire.MethodModelCatalogStatus, map[string]any{"cursor": nil}, statusFirst, statusLater},
	} {
		m := p.Call(tc.method, tc.params)
		n++
		if got := members(m); got != tc.first {
			t.Errorf("%s first page members %s", tc.method, got)
		}
		var page wire.CatalogStatusResult
		m.Decode(t, &page)
		if page.Revision != "c"+strconv.Itoa(n) || len(page.Choices) != 100 || page.Cursor == nil {
			t.Fatalf("%s: revision %s, %d choices", tc.method, page.Revision, len(page.Choices))
		}
		m = p.Call(tc.method, map[string]any{"cursor": *page.Cursor})
		if got := members(m); got != tc.later {
			t.Errorf("%s later page members %s", tc.method, got)
		}
		if !bytes.Contains(m.Raw, []byte(`"cursor":null`)) {
			t.Errorf("last page: %s", m.Raw)
		}
	}
	for name, params := range map[string]any{
		"cursor number": map[string]any{"cursor": 1},
		"cursor object": map[string]any{"cursor": map[string]any{}},
		"cursor empty":  map[string]any{"cursor": ""},
		"cursor 65":     map[string]any{"cursor": strings.Repeat("c", 65)},
		"cursor space":  map[string]any{"cursor": "c1 a"},
		"extra member":  map[string]any{"cursor": nil, "limit": 5},
	} {
		for _, method := range []string{wire.MethodModelCatalog, wire.MethodModelCatalogStatus} {
			if m := p.Call(method, params); m.Code() != wire.CodeInvalidParams {
				t.Errorf("%s %s: %s", method, name, m.Raw)
			}
		}
	}
	for _, forged := range []string{strings.Repeat("c", 64), "c3.a.100.AAAAAAAAAAAAAAAAAAAAAA", "c3"} {
		if m := p.Call(wire.MethodModelCatalogStatus, map[string]any{"cursor": forged}); m.Code() != wire.CodeInvalidCursor {
			t.Errorf("forged %q: %s", forged, m.Raw)
		}
	}

	// No providers at all (the keyless built-ins hidden): choices [] and
	// no cursor.
	q := startBackend(t, hideBuiltins(t, newHome(t, "")))
	m := q.Call(wire.MethodModelCatalogStatus, nil)
	if !bytes.Contains(m.Raw, []byte(`"choices":[],"cursor":null,"selection":null,"notices":[],"configuration_reload":"restart_child","providers":[]`)) {
		t.Errorf("empty configuration: %s", m.Raw)
	}
}
