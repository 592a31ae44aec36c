package wire

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// roundTrip encodes v, decodes the bytes strictly into a fresh value of the
// same type, and re-encodes: both encodings must be equal and one line.
func roundTrip(t *testing.T, v any) string {
	t.Helper()
	b, err := Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	if strings.ContainsAny(string(b), "\n\r") {
		t.Fatalf("%T encodes with a raw newline: %s", v, b)
	}
	fresh := reflect.New(reflect.TypeOf(v).Elem()).Interface()
	if err := UnmarshalStrict(b, fresh); err != nil {
		t.Fatalf("unmarshal %T: %v\n%s", v, err, b)
	}
	b2, err := Marshal(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(b2) {
		t.Fatalf("%T does not round-trip:\n%s\n%s", v, b, b2)
	}
	return string(b)
}

func sp(s string) *string     { return &s }
func ip(i int) *int           { return &i }
func vp(i int) *VersionNumber { v := VersionNumber(i); return &v }

func TestRoundTrips(t *testing.T) {
	t.Parallel()
	effort := "high"
	sel := &Selection{Provider: "openai", Model: "gpt-5", Effort: &effort}
	notices := []CatalogNotice{{Code: NoticeMissingCache, Provider: "x"}}
	providers := []ProviderStatus{{Provider: "x", CatalogStatus: CatalogMissingCache, Authentication: AuthNotChecked, Relevant: false, Recovery: RecoveryRefreshCatalog}}
	row := SessionRow{ID: "s1", Title: "t", CreatedAt: "2026-11-29T18:27:15.123Z", UpdatedAt: "2026-11-29T18:27:15.123Z", Cwd: CwdVerified, Busy: true, Records: 3}
	values := []any{
		&InitializeParams{ProtocolVersion: vp(1), Client: &ClientInfo{Name: "c", Version: "1"}, RequiredCapabilities: []string{MethodProjectFiles}},
		&InitializeResult{ProtocolVersion: 1, Server: ServerInfo{Name: "scout", Version: "0.1.0"}, Capabilities: AllCapabilities, Negotiated: []string{}, Limits: DefaultLimits,
			Extensions: Extensions{SessionDiscover: &DefaultDiscoverExtension, ModelRefresh: &DefaultRefreshExtension, ProjectFiles: &DefaultFilesExtension, ProjectList: &DefaultListExtension},
			Workspace:  Workspace{Generation: 1, Trust: TrustNoLocalConfig}, Stamp: Stamp{TS: "t"}},
		&StatusResult{State: StateReady, Generation: 2, Active: []ActiveRequest{{RequestID: "a", Method: MethodProjectFiles}}, RequestsAdmitted: 3, Attachment: &Attachment{SessionID: "s", Saved: true}},
		&StatusResult{State: StateReady, Active: []ActiveRequest{}},
		&ShutdownResult{State: StateStopped},
		&CancelParams{RequestID: sp("r1")},
		&CancelResult{State: "cancelling", RequestID: "r1"},
		&CommandStartedParams{CommandID: "r1", Method: MethodProjectFiles},
		&ProjectFilesResult{CommandID: "r7", Generation: 3, Entries: []FileEntry{{Path: "cmd", Kind: KindDirectory}, {Path: "cmd/main.go", Kind: KindFile}}},
		&InvalidatedParams{Generation: 4},
		&ListParams{Ref: sp(RootRef), Limit: ip(10)},
		&ListResult{Generation: 1, Entries: []ListEntry{{ID: strings.Repeat("a", 43), Name: "cmd", Type: TypeDir, Mtime: "2026-11-29T18:00:00Z"}}, NextRef: strings.Repeat("b", 43)},
		&ListResult{Generation: 1, Entries: []ListEntry{}},
		&ReadParams{Ref: sp(strings.Repeat("a", 43)), MaxBytes: ip(100)},
		&ReadResult{Generation: 1, Size: 10, Content: "hello\n"},
		&TrustResult{Generation: 2, Trust: TrustTrusted, ConfigurationReload: ConfigurationReloadRestart},
		&SessionListResult{Sessions: []SessionRow{row}, Notices: SessionNotices{SessionsOmittedInvalid: 1, SessionsOtherDirectories: 2}},
		&CursorParams{Cursor: sp("d1.8f2c.3.Qz")},
		&CursorParams{},
		&DiscoverResult{Sessions: []SessionRow{}, Cursor: sp("d1"), Progress: ProgressPageEntries, Recovery: RecoveryContinueCursor, Consistency: ConsistencyProvisional},
		&DiscoverResult{Sessions: []SessionRow{row}, Complete: true, Progress: ProgressComplete, Recovery: RecoveryNone, Consistency: ConsistencyProvisional},
		&SessionOpenParams{ID: sp("s1")},
		&SessionOpenResult{Session: row, Attachment: Attachment{SessionID: "s1", Saved: true}},
		&SessionNewResult{Attachment: Attachment{SessionID: "n1"}},
		&CatalogResult{Revision: "c1", Choices: []Choice{{Provider: "p", Model: "m", Name: "M", Efforts: []string{}, Selectable: true}}, Selection: Some(sel), Notices: &notices},
		&CatalogResult{Revision: "c1", Choices: []Choice{}, Selection: Some[Selection](nil), Notices: &[]CatalogNotice{}},
		&CatalogResult{Revision: "c1", Choices: []Choice{}, Cursor: sp("k")},
		&CatalogStatusResult{Revision: "c2", Choices: []Choice{}, Selection: Some[Selection](nil), Notices: &notices, ConfigurationReload: ConfigurationReloadRestart, Providers: &providers},
		&RefreshParams{Provider: sp("demo")},
		&RefreshResult{Provider: "demo", Outcome: OutcomeRefreshed, CatalogRevision: sp("c9"), Recovery: RecoveryReloadCatalog, ConfigurationReload: ConfigurationReloadRestart, SelectionUnchanged: true},
		&SelectParams{Provider: sp("p"), Model: sp("m"), Effort: nil, Revision: sp("c1")},
		&SelectResult{Selection: *sel, Revision: "c1"},
		&ErrorObject{Code: -32011, Message: "Not found.", Data: ErrorData{Code: CodeNotFound, TS: "t"}},
	}
	for _, v := range values {
		roundTrip(t, v)
	}
}

func TestNullsAndAbsence(t *testing.T) {
	t.Parallel()
	cases := []struct {
		v    any
		want string
	}{
		{&StatusResult{Active: []ActiveRequest{}}, `{"state":"","generation":0,"active":[],"requests_admitted":0,"attachment":null,"ts":""}`},
		{&CatalogResult{Revision: "c1", Selection: Some[Selection](nil), Notices: &[]CatalogNotice{}}, `{"revision":"c1","choices":[],"cursor":null,"selection":null,"notices":[],"ts":""}`},
		{&CatalogResult{Revision: "c1", Cursor: sp("x")}, `{"revision":"c1","choices":[],"cursor":"x","ts":""}`},
		{&ListResult{Generation: 1}, `{"generation":1,"entries":[],"ts":""}`},
		{&RefreshResult{Provider: "p", Outcome: OutcomeFailed, Reason: sp(ReasonRateLimited)}, `{"provider":"p","outcome":"failed","reason":"rate_limited","catalog_revision":null,"catalog_error":null,"recovery":"","configuration_reload":"","selection_unchanged":false,"ts":""}`},
	}
	for _, c := range cases {
		if got := roundTrip(t, c.v); got != c.want {
			t.Errorf("%T:\n got %s\nwant %s", c.v, got, c.want)
		}
	}
	var res CatalogResult
	if err := Unmarshal([]byte(`{"revision":"c1","choices":[],"cursor":null,"selection":null,"ts":""}`), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Selection.Present || res.Selection.Value != nil || res.Notices != nil {
		t.Fatalf("selection null/notices absent decoded as %+v", res)
	}
}

func TestErrorCodesAreUniqueAndMatchTheTable(t *testing.T) {
	t.Parallel()
	want := map[Code]int{
		"parse_error": -32700, "invalid_request": -32600, "method_not_found": -32601, "invalid_params": -32602,
		"internal": -32603, "not_initialized": -32002, "already_initialized": -32003, "unsupported_protocol_version": -32012,
		"unsupported_capability": -32004, "duplicate_request_id": -32005, "busy": -32006, "request_limit": -32007,
		"operation_cancelled": -32008, "operation_missing": -32009, "scan_timeout": -32010, "not_found": -32011,
		"discovery_record_bytes": -32020, "discovery_page_bytes": -32021, "discovery_unavailable": -32022,
		"stale_revision": -32023, "invalid_cursor": -32024, "discovery_limit": -32027, "cwd_mismatch": -32025,
		"session_invalid": -32026, "catalog_unavailable": -32030, "catalog_limit": -32031, "selection_stale": -32032,
		"selection_invalid": -32033, "trust_failed": -32040,
	}
	if len(Codes()) != len(want) {
		t.Fatalf("%d codes, want %d", len(Codes()), len(want))
	}
	for code, n := range want {
		if code.Number() != n || !code.Known() {
			t.Errorf("%s = %d, want %d", code, code.Number(), n)
		}
	}
	if !errors.Is(Errorf(CodeBusy, "x"), NewError(CodeBusy)) || errors.Is(NewError(CodeBusy), NewError(CodeInternal)) {
		t.Fatal("errors.Is does not match on code")
	}
}

func TestParseFrame(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		code Code // "" = ok
		id   bool // FrameError carries the id
	}{
		{`{"jsonrpc":"2.0","id":"a","method":"m"}`, "", false},
		{`{"jsonrpc":"2.0","id":"a","method":"m","params":{}}`, "", false},
		{` {"jsonrpc":"2.0","id":"a.b:c-d_e","method":"m"} `, "", false},
		{`{"jsonrpc":"2.0","id":"a","method":"m"}x`, CodeParseError, false},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\xc3\"}", CodeParseError, false},
		{`{"jsonrpc":"2.0","jsonrpc":"2.0","id":"a","method":"m"}`, CodeParseError, false},
		{`[]`, CodeInvalidRequest, false},
		{`3`, CodeInvalidRequest, false},
		{`{"jsonrpc":"2.0","id":["a"],"method":"m"}`, CodeInvalidRequest, false},
		{`{"jsonrpc":"2.0","id":"é","method":"m"}`, CodeInvalidRequest, false},
		{`{"id":"a","method":"m"}`, CodeInvalidRequest, true},
		{`{"jsonrpc":"2.0","id":"a","method":""}`, CodeInvalidRequest, true},
	}
	for _, c := range cases {
		_, err := ParseFrame([]byte(c.in))
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.in, err)
			}
			continue
		}
		var fe *FrameError
		if !errors.As(err, &fe) || fe.Err.Code != c.code || (fe.ID != nil) != c.id {
			t.Errorf("%s: got %v, want %s (id %v)", c.in, err, c.code, c.id)
		}
	}
	if _, err := ParseFrame([]byte(`{"jsonrpc":"2.0","method":"m"}`)); !errors.Is(err, ErrNotification) {
		t.Errorf("notification: %v", err)
	}
}

func TestDecodeParams(t *testing.T) {
	t.Parallel()
	var p ListParams
	if e := DecodeParams([]byte(`{"ref":"root","limit":1000}`), &p); e != nil {
		t.Fatal(e)
	}
	for _, bad := range []string{`{"ref":"root","limit":0}`, `{"ref":"root","limit":1001}`, `{"ref":"nope"}`, `{}`, `{"ref":"root","x":1}`, `{"ref":1}`, `null`, `[]`, `"x"`} {
		var p ListParams
		if e := DecodeParams([]byte(bad), &p); e == nil || e.Code != CodeInvalidParams {
			t.Errorf("%s: %v, want invalid_params", bad, e)
		}
	}
	if e := DecodeParams(nil, &EmptyParams{}); e != nil {
		t.Fatalf("absent params: %v", e)
	}
	e := DecodeParams([]byte(`{"/etc/passwd":1}`), &EmptyParams{})
	if e == nil || strings.Contains(e.Error(), "passwd") {
		t.Fatalf("message echoes an unsafe member name: %v", e)
	}
	// A member that is null as a whole is absent; a null inside one is not
	// a value of any type.
	var ip InitializeParams
	if e := DecodeParams([]byte(`{"protocol_version":1,"client":null,"required_capabilities":null}`), &ip); e != nil || ip.Client != nil || ip.RequiredCapabilities != nil {
		t.Fatalf("null members: %v %+v", e, ip)
	}
	for _, bad := range []string{`{"protocol_version":1,"required_capabilities":[null]}`, `{"protocol_version":1,"client":{"name":null,"version":"1"}}`} {
		if e := DecodeParams([]byte(bad), &InitializeParams{}); e == nil || e.Code != CodeInvalidParams {
			t.Errorf("%s: %v, want invalid_params", bad, e)
		}
	}
	for in, want := range map[string]string{
		`{"ref":"root","limit":"x"}`:                         "params.limit has the wrong type or value.",
		`{"ref":"root","etc":{"passwd":1}}`:                  "params has an unknown member.",
		`{"ref":"root","id_rsa":1}`:                          "params has an unknown member.",
		`{"ref":"root","` + strings.Repeat("a", 70) + `":1}`: "params has an unknown member.",
	} {
		if e := DecodeParams([]byte(in), &ListParams{}); e == nil || e.Error() != want {
			t.Errorf("%s: %v, want %q", in, e, want)
		}
	}
}
