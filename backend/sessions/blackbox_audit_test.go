package sessions_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// writeFiles writes name → content into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// listRows answers session.list, failing on an error, with rows by id.
func listRows(t *testing.T, e env) (wire.SessionListResult, map[string]wire.SessionRow) {
	t.Helper()
	p := e.start(t)
	var res wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &res)
	rows := map[string]wire.SessionRow{}
	for _, r := range res.Sessions {
		rows[r.ID] = r
	}
	return res, rows
}

const userRecord = `{"v":1,"type":"user","ts":"2026-01-02T03:04:05Z","text":"hello"}` + "\n"

// TestUnknownRecordTypesAreSkipped: docs/design.md's "unknown types are
// skipped" holds whatever an unknown-type (or typeless) record carries, as
// long as its line is a JSON object; a known type with a bad member is
// still malformed, and a line that is not an object always is.
func TestUnknownRecordTypesAreSkipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeFiles(t, e.store, map[string]string{
		"badts.jsonl":    `{"v":1,"type":"checkpoint","ts":"yesterday"}` + "\n" + userRecord,
		"numbers.jsonl":  `{"v":2,"type":"future","ts":5,"cwd":7,"text":null,"title":[1]}` + "\n" + userRecord,
		"typeless.jsonl": `{"ts":"never","cwd":"/elsewhere"}` + "\n" + userRecord,
		"nontype.jsonl":  `{"type":5,"ts":"never"}` + "\n" + userRecord,
		"known.jsonl":    `{"v":1,"type":"tool","ts":"yesterday"}` + "\n" + userRecord,
		"array.jsonl":    `["type","future"]` + "\n" + userRecord,
	})
	res, rows := listRows(t, e)
	for _, id := range []string{"badts", "numbers", "typeless", "nontype"} {
		if r, ok := rows[id]; !ok || r.Records != 2 || r.Title != "hello" || r.Cwd != wire.CwdUnverified {
			t.Errorf("%s: row %+v (present %v), want 2 records titled hello", id, r, ok)
		}
	}
	if len(rows) != 4 || res.Notices.SessionsOmittedInvalid != 2 || res.Notices.SessionsOtherDirectories != 0 {
		t.Errorf("rows %v, notices %+v: want known and array omitted as invalid", rows, res.Notices)
	}
}

// startIn starts the backend in e's workspace with env instead of e's
// SCOUT_HOME.
func startIn(t *testing.T, e env, env ...string) *scouttest.Proc {
	t.Helper()
	p := scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: env})
	p.Initialize(sessionCaps...)
	return p
}

// TestBackendHomeDefaults: the store is $SCOUT_HOME/sessions, else
// $XDG_DATA_HOME/scout/sessions, else $HOME/.local/share/scout/sessions
// (docs/design.md "The backend home"); a relative XDG_DATA_HOME or HOME is
// ignored, and a relative SCOUT_HOME leaves no home (the fallbacks are not
// tried): the store is then unavailable.
func TestBackendHomeDefaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	home := func(id string, dir ...string) string {
		store := filepath.Join(append(dir, "sessions")...)
		if err := os.MkdirAll(store, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFiles(t, store, map[string]string{id + ".jsonl": userRecord})
		return filepath.Join(dir...)
	}
	scout := home("scout", t.TempDir())
	xdg := filepath.Dir(home("xdg", t.TempDir(), "scout"))
	user := t.TempDir()
	home("user", user, ".local", "share", "scout")
	linked := filepath.Join(t.TempDir(), "linked") // the user may reach the home through a symlink
	if err := os.Symlink(scout, linked); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		env  []string
		want string
	}{
		{[]string{"SCOUT_HOME=" + scout, "XDG_DATA_HOME=" + xdg, "HOME=" + user}, "scout"},
		{[]string{"SCOUT_HOME=" + linked, "XDG_DATA_HOME=" + xdg, "HOME=" + user}, "scout"},
		{[]string{"SCOUT_HOME=", "XDG_DATA_HOME=" + xdg, "HOME=" + user}, "xdg"},
		{[]string{"SCOUT_HOME=", "XDG_DATA_HOME=", "HOME=" + user}, "user"},
		{[]string{"SCOUT_HOME=", "XDG_DATA_HOME=relative", "HOME=" + user}, "user"},
		{[]string{"SCOUT_HOME=relative", "XDG_DATA_HOME=" + xdg, "HOME=" + user}, ""},
		{[]string{"SCOUT_HOME=", "XDG_DATA_HOME=", "HOME=relative"}, ""},
	} {
		p := startIn(t, e, tt.env...)
		if tt.want == "" {
			wantCode(t, p.Call(wire.MethodSessionList, nil), wire.CodeDiscoveryUnavailable)
			wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "xdg"}), wire.CodeSessionInvalid)
			continue
		}
		var res wire.SessionListResult
		p.MustCall(wire.MethodSessionList, nil, &res)
		if len(res.Sessions) != 1 || res.Sessions[0].ID != tt.want {
			t.Errorf("%v: rows %+v, want %s", tt.env, res.Sessions, tt.want)
		}
	}
}

// TestListLimitBoundary: session.list serves exactly 256 primary histories
// (this workspace's, another directory's, malformed and unsafe ones all
// count; names that are never sessions do not) and answers discovery_limit
// at 257, while session.discover still reads the store.
func TestListLimitBoundary(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	files := map[string]string{
		"foreign.jsonl":   `{"v":1,"type":"user","ts":"2026-01-02T03:04:05Z","cwd":"/elsewhere/project"}` + "\n",
		"malformed.jsonl": "not json\n",
		"mine.jsonl":      `{"v":1,"type":"meta","ts":"2026-01-02T03:04:05Z","cwd":"` + e.ws + `"}` + "\n",
		// Never sessions, never counted.
		strings.Repeat("x", 65) + ".jsonl": userRecord,
		"dotted.name.jsonl":                userRecord,
		".hidden.jsonl":                    userRecord,
		"mine.subagent-1.jsonl":            userRecord,
		"mine.jsonl.bak":                   userRecord,
		"mine.lock":                        `{"pid":1,"renewed_at":"2026-01-02T03:04:05Z"}`,
		"MINE.JSONL":                       userRecord,
	}
	long := strings.Repeat("y", 64) // the longest id
	files[long+".jsonl"] = userRecord
	for i := range 251 {
		files[fmt.Sprintf("s%03d.jsonl", i)] = userRecord
	}
	writeFiles(t, e.store, files)
	if err := os.Symlink("mine.jsonl", filepath.Join(e.store, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(e.store, "archive")
	if err := os.Mkdir(archive, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, archive, map[string]string{"old.jsonl": userRecord})
	res, rows := listRows(t, e)
	if len(rows) != 253 || res.Notices != (wire.SessionNotices{SessionsOmittedInvalid: 2, SessionsOtherDirectories: 1}) {
		t.Fatalf("256 primary histories: %d rows, notices %+v; want 253 rows, 2 invalid, 1 other", len(rows), res.Notices)
	}
	if rows["mine"].Cwd != wire.CwdVerified || rows["s000"].Cwd != wire.CwdUnverified || rows[long].ID != long {
		t.Errorf("rows mine %+v, s000 %+v", rows["mine"], rows["s000"])
	}
	writeFiles(t, e.store, map[string]string{"one-more.jsonl": "not json either\n"})
	p := e.start(t)
	wantCode(t, p.Call(wire.MethodSessionList, nil), wire.CodeDiscoveryLimit)
	pages := mustFollow(t, p)
	if n := len(ids(pages)); n != 253 {
		t.Errorf("discover after the limit: %d rows, want 253", n)
	}
	if n := pages[len(pages)-1].Notices; n != (wire.SessionNotices{SessionsOmittedInvalid: 3, SessionsOtherDirectories: 1}) {
		t.Errorf("discover notices %+v", n)
	}
}

// TestBusyLockContents: busy means the lock exists and was renewed within
// 30 s (either direction); a lock whose content is not a lock (bad JSON, no
// renewed_at, a pid of the wrong type) is judged by its modification time;
// a lock that is a directory or a symlink is no lock.
func TestBusyLockContents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now().UTC()
	lock := func(at time.Time) string {
		return fmt.Sprintf(`{"pid":42,"renewed_at":%q}`, at.Format(time.RFC3339Nano))
	}
	want := map[string]bool{}
	files := map[string]string{}
	for id, tc := range map[string]struct {
		lock string
		busy bool
	}{
		"fresh":        {lock(now), true},
		"old":          {lock(now.Add(-time.Minute)), false},
		"skewed":       {lock(now.Add(10 * time.Second)), true},
		"future":       {lock(now.Add(time.Hour)), false},
		"offset":       {fmt.Sprintf(`{"pid":42,"renewed_at":%q}`, now.In(time.FixedZone("", 5*3600)).Format(time.RFC3339)), true},
		"garbage":      {"not a lock", true},
		"no-renewal":   {`{"pid":42}`, true},
		"bad-pid":      {strings.Replace(lock(now.Add(-time.Hour)), "42", `"42"`, 1), true},
		"extra-member": {strings.Replace(lock(now.Add(-time.Hour)), "{", `{"host":"h",`, 1), false},
		"none":         {"", false},
	} {
		files[id+".jsonl"] = userRecord
		if tc.lock != "" {
			files[id+".lock"] = tc.lock
		}
		want[id] = tc.busy
	}
	files["stale-garbage.jsonl"], files["stale-garbage.lock"] = userRecord, "not a lock"
	want["stale-garbage"] = false
	files["dir.jsonl"], files["link.jsonl"] = userRecord, userRecord
	want["dir"], want["link"] = false, false
	writeFiles(t, e.store, files)
	old := now.Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(e.store, "stale-garbage.lock"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(e.store, "dir.lock"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("fresh.lock", filepath.Join(e.store, "link.lock")); err != nil {
		t.Fatal(err)
	}
	_, rows := listRows(t, e)
	for id, busy := range want {
		if r, ok := rows[id]; !ok || r.Busy != busy {
			t.Errorf("%s: row %+v (present %v), want busy %v", id, r, ok, busy)
		}
	}
}

func attachment(t *testing.T, p *scouttest.Proc) *wire.Attachment {
	t.Helper()
	var st wire.StatusResult
	p.MustCall(wire.MethodStatus, nil, &st)
	return st.Attachment
}

// TestOpenErrorsKeepTheAttachment: status.attachment is null until an
// open or new; every failed session.open (not_found, cwd_mismatch,
// session_invalid for malformed, timeless, unsafe and directory histories,
// invalid_params) leaves the previous attachment, and does not make a
// running scan stale; a successful open does.
func TestOpenErrorsKeepTheAttachment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeFiles(t, e.store, map[string]string{
		"chat.jsonl":      `{"v":1,"type":"user","ts":"2026-01-02T03:04:05Z","cwd":"` + e.ws + `","text":"hi"}` + "\n",
		"foreign.jsonl":   `{"v":1,"type":"user","ts":"2026-01-02T03:04:05Z","cwd":"/elsewhere"}` + "\n",
		"malformed.jsonl": userRecord + "[]\n",
		"timeless.jsonl":  `{"v":1,"type":"user","text":"no time"}` + "\n",
		"empty.jsonl":     "",
	})
	sessionstest.MustWrite(t, e.store, sessionstest.Many(250, "s", e.ws, sessionstest.History{})...)
	os.Symlink("chat.jsonl", filepath.Join(e.store, "link.jsonl"))
	os.Mkdir(filepath.Join(e.store, "dir.jsonl"), 0o755)
	p := e.start(t)
	if a := attachment(t, p); a != nil {
		t.Fatalf("attachment before any open: %+v", a)
	}
	var open wire.SessionOpenResult
	m := p.MustCall(wire.MethodSessionOpen, map[string]any{"id": "chat"}, &open)
	want := wire.Attachment{SessionID: "chat", Agent: wire.AgentScout, Saved: true}
	if open.Attachment != want || open.Session.Cwd != wire.CwdVerified || open.Session.Title != "hi" || open.Session.Records != 1 {
		t.Fatalf("open %s", m.Raw)
	}
	scan := firstPage(t, p)
	for id, code := range map[string]wire.Code{
		"missing": wire.CodeNotFound, "foreign": wire.CodeCwdMismatch,
		"malformed": wire.CodeSessionInvalid, "timeless": wire.CodeSessionInvalid, "empty": wire.CodeSessionInvalid,
		"link": wire.CodeSessionInvalid, "dir": wire.CodeSessionInvalid,
		"chat.jsonl": wire.CodeInvalidParams, "../chat": wire.CodeInvalidParams, "": wire.CodeInvalidParams,
		strings.Repeat("c", 65): wire.CodeInvalidParams,
	} {
		wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": id}), code)
		if a := attachment(t, p); a == nil || *a != want {
			t.Fatalf("after a failed open of %q the attachment is %+v", id, a)
		}
	}
	scan = next(t, p, scan.Cursor) // failed opens change nothing
	p.MustCall(wire.MethodSessionOpen, map[string]any{"id": "chat"}, &open)
	wantCode(t, discover(p, scan.Cursor), wire.CodeStaleRevision)
}

// tree describes every file under dir: name, mode, size, times and
// content, so two descriptions differ when anything was written.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		st := info.Sys().(*syscall.Stat_t)
		fmt.Fprintf(&b, "%s %v %d %d %v/%v\n", path, info.Mode(), info.Size(), st.Ino, st.Mtim, st.Ctim)
		if info.Mode().IsRegular() {
			b.Write(must(os.ReadFile(path)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestSessionsNeverWrite: listing, discovery (completed, abandoned and
// failed), exact opens and session.new write nothing: the backend home and
// the workspace are byte for byte and time for time what they were.
func TestSessionsNeverWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sessionstest.MustWrite(t, e.store, sessionstest.Many(150, "s", e.ws, sessionstest.History{})...)
	sessionstest.MustWrite(t, e.store,
		sessionstest.History{ID: "busy", Cwds: []string{e.ws}, LockRenewed: time.Now()},
		sessionstest.History{ID: "bad", Malformed: true},
		sessionstest.History{ID: "foreign", Cwds: []string{"/elsewhere"}},
	)
	before := tree(t, e.home) + tree(t, e.ws)
	p := e.start(t)
	p.Call(wire.MethodSessionList, nil)
	mustFollow(t, p)
	c := firstPage(t, p).Cursor
	next(t, p, c)
	wantCode(t, discover(p, c), wire.CodeStaleRevision)
	p.Call(wire.MethodSessionOpen, map[string]any{"id": "busy"})
	p.Call(wire.MethodSessionOpen, map[string]any{"id": "bad"})
	p.Call(wire.MethodSessionNew, nil)
	p.Call(wire.MethodShutdown, nil)
	p.Wait(scouttest.DefaultTimeout)
	if after := tree(t, e.home) + tree(t, e.ws); after != before {
		t.Errorf("the sessions methods changed the home or the workspace")
	}
}

// members returns the member names of the JSON object raw, in order, and
// their values.
func members(t *testing.T, raw jsontext.Value) ([]string, map[string]jsontext.Value) {
	t.Helper()
	var names []string
	vals := map[string]jsontext.Value{}
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		t.Fatalf("not an object: %s", raw)
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			t.Fatal(err)
		}
		name := tok.String()
		val, err := dec.ReadValue()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		vals[name] = val.Clone()
	}
	return names, vals
}

func wantMembers(t *testing.T, what string, raw jsontext.Value, want ...string) map[string]jsontext.Value {
	t.Helper()
	names, vals := members(t, raw)
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("%s members %v, want %v", what, names, want)
	}
	return vals
}

var rowMembers = []string{"id", "agent", "title", "created_at", "updated_at", "cwd", "busy", "records"}

// TestRowShapeAndListOrder: every result and row has exactly the members
// of docs/protocol.md §6 in its order; times are UTC with milliseconds (first
// and last ts in file order); session.list is newest updated_at first,
// ties (equal as written) by id.
func TestRowShapeAndListOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := func(ts string) string {
		return `{"v":1,"type":"user","ts":"` + ts + `","text":"t"}` + "\n"
	}
	writeFiles(t, e.store, map[string]string{
		"old.jsonl":    rec("2026-01-01T00:00:00Z"),
		"offset.jsonl": `{"v":1,"type":"meta"}` + "\n" + rec("2026-01-02T00:00:00.123456+02:00") + rec("2026-01-02T01:00:00.9999+02:00"),
		"tie-b.jsonl":  rec("2026-01-01T10:00:00Z"),
		"tie-a.jsonl":  rec("2026-01-01T10:00:00Z"),
		"zmicro.jsonl": rec("2026-01-01T10:00:00.0009Z"),
		"back.jsonl":   rec("2026-01-01T12:00:00Z") + rec("2026-01-01T11:00:00Z"),
	})
	p := e.start(t)
	m := p.Call(wire.MethodSessionList, map[string]any{})
	vals := wantMembers(t, "session.list result", m.Result, "sessions", "notices", "ts")
	wantMembers(t, "notices", vals["notices"], "sessions_omitted_invalid", "sessions_other_directories", "sessions_omitted_oversized")
	var res wire.SessionListResult
	m.Decode(t, &res)
	var order []string
	for _, r := range res.Sessions {
		order = append(order, r.ID)
	}
	if got := strings.Join(order, " "); got != "offset back tie-a tie-b zmicro old" {
		t.Errorf("order %s", got)
	}
	var rows []jsontext.Value
	if err := wire.Unmarshal(vals["sessions"], &rows); err != nil || len(rows) != 6 {
		t.Fatalf("sessions %s", vals["sessions"])
	}
	wantMembers(t, "row", rows[0], rowMembers...)
	if r := res.Sessions[0]; r.CreatedAt != "2026-01-01T22:00:00.123Z" || r.UpdatedAt != "2026-01-01T23:00:00.999Z" || r.Records != 3 {
		t.Errorf("offset row %+v", r)
	}
	if r := res.Sessions[1]; r.CreatedAt != "2026-01-01T12:00:00.000Z" || r.UpdatedAt != "2026-01-01T11:00:00.000Z" {
		t.Errorf("created_at/updated_at are the first and last ts in file order: %+v", r)
	}

	m = discover(p, nil)
	vals = wantMembers(t, "session.discover result", m.Result, "sessions", "cursor", "complete", "progress", "recovery", "consistency", "notices", "ts")
	if string(vals["cursor"]) != "null" || string(vals["complete"]) != "true" {
		t.Errorf("discover %s", m.Raw)
	}
	m = p.Call(wire.MethodSessionOpen, map[string]any{"id": "old"})
	vals = wantMembers(t, "session.open result", m.Result, "session", "attachment", "ts")
	wantMembers(t, "open row", vals["session"], rowMembers...)
	wantMembers(t, "attachment", vals["attachment"], "session_id", "agent", "saved")
	m = p.Call(wire.MethodSessionNew, nil)
	vals = wantMembers(t, "session.new result", m.Result, "attachment", "ts")
	wantMembers(t, "attachment", vals["attachment"], "session_id", "agent", "saved")
	if !strings.Contains(string(vals["attachment"]), `"saved":false`) {
		t.Errorf("session.new %s", m.Raw)
	}
}

// TestRowTitleAndCwd: the title is the latest title record's (one empty
// once sanitized does not count), else the first user text cut to 80
// characters (never bytes), else ""; control and bidi characters are
// removed. cwd is verified when every nonempty recorded cwd is the
// workspace with symlinks resolved on both sides (the backend itself runs
// in a symlinked path here), cwd_unverified when none is recorded, and any
// other cwd makes the history another directory's.
func TestRowTitleAndCwd(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(e.ws, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(e.ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	rec := func(typ, cwd, member, text string) string {
		s := `{"v":1,"type":"` + typ + `","ts":"2026-01-02T03:04:05Z"`
		if cwd != "-" {
			s += `,"cwd":` + string(must(jsontext.AppendQuote(nil, cwd)))
		}
		if member != "" {
			s += `,"` + member + `":` + string(must(jsontext.AppendQuote(nil, text)))
		}
		return s + "}\n"
	}
	user := func(text string) string { return rec("user", "-", "text", text) }
	title := func(text string) string { return rec("title", "-", "title", text) }
	emoji := strings.Repeat("😀", 81)
	rows := map[string]struct {
		history, title, cwd string
	}{
		"latest":    {user("first") + title("one") + title("two") + title("\u200e\t\u202e"), "two", wire.CwdUnverified},
		"runes":     {rec("assistant", "-", "text", "no") + user("\u0000\t\u0085") + user(emoji), emoji[:80*4], wire.CwdUnverified},
		"sanitized": {user("a\tb\nc\u001bd\u007fe\u009bf\u061cg\u200eh\u200fi\u202aj\u202ek\u2066l\u2069m  n"), "abcdefghijklm  n", wire.CwdUnverified},
		"untitled":  {rec("tool", "-", "text", "x") + rec("assistant", "-", "text", "y"), "", wire.CwdUnverified},
		"combining": {user(strings.Repeat("e\u0301", 50)), strings.Repeat("e\u0301", 40), wire.CwdUnverified},
		"real":      {rec("meta", e.ws, "", "") + user("x"), "x", wire.CwdVerified},
		"alias":     {rec("meta", link, "", "") + rec("user", link+"/", "text", "x"), "x", wire.CwdVerified},
		"dotted":    {rec("meta", e.ws+"/sub/..", "", "") + rec("user", e.ws+"/.", "text", "x"), "x", wire.CwdVerified},
		"empty":     {rec("meta", "", "", "") + user("x"), "x", wire.CwdUnverified},
		"some":      {rec("meta", "", "", "") + rec("user", e.ws, "text", "x"), "x", wire.CwdVerified},
		"skipped":   {rec("checkpoint", "/elsewhere", "", "") + rec("user", e.ws, "text", "x"), "x", wire.CwdVerified},
		"cleaned":   {rec("meta", e.ws+"/missing/..", "", "") + user("x"), "x", wire.CwdVerified}, // no such directory: compared after Clean
	}
	others := map[string]string{
		"relative": rec("meta", ".", "", ""),
		"sub":      rec("meta", e.ws+"/sub", "", ""),
		"later":    rec("meta", e.ws, "", "") + rec("user", "/elsewhere", "text", "x"),
		"gone":     rec("meta", e.ws+"-gone", "", ""),
		"long":     rec("meta", e.ws+strings.Repeat("/", 4097-len(e.ws)), "", ""), // the workspace once cleaned, but over 4,096 bytes
	}
	files := map[string]string{}
	for id, r := range rows {
		files[id+".jsonl"] = r.history
	}
	for id, h := range others {
		files[id+".jsonl"] = h
	}
	writeFiles(t, e.store, files)
	p := scouttest.Start(t, scouttest.Options{Dir: link, Env: []string{"SCOUT_HOME=" + e.home, "PWD=" + link}})
	p.Initialize(sessionCaps...)
	var res wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &res)
	got := map[string]wire.SessionRow{}
	for _, r := range res.Sessions {
		got[r.ID] = r
	}
	for id, want := range rows {
		if r := got[id]; r.Title != want.title || r.Cwd != want.cwd {
			t.Errorf("%s: title %q cwd %q, want %q %q", id, r.Title, r.Cwd, want.title, want.cwd)
		}
	}
	if len(got) != len(rows) || res.Notices != (wire.SessionNotices{SessionsOtherDirectories: int64(len(others))}) {
		t.Errorf("%d rows, notices %+v", len(got), res.Notices)
	}
}

// TestRFC3339Variants: a ts or renewed_at with a lower-case t and z, or a
// leap second, is RFC 3339 (§5.6) and read as such, not malformed.
func TestRFC3339Variants(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now().UTC()
	writeFiles(t, e.store, map[string]string{
		"lower.jsonl": `{"v":1,"type":"user","ts":"2026-01-02t03:04:05.5z","text":"x"}` + "\n",
		"leap.jsonl":  `{"v":1,"type":"user","ts":"2026-12-31T23:59:60Z","text":"x"}` + "\n",
		"lower.lock":  `{"pid":1,"renewed_at":"` + strings.ToLower(now.Format(time.RFC3339)) + `"}`,
	})
	old := now.Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(e.store, "lower.lock"), old, old); err != nil {
		t.Fatal(err)
	}
	res, rows := listRows(t, e)
	if r := rows["lower"]; r.CreatedAt != "2026-01-02T03:04:05.500Z" || !r.Busy {
		t.Errorf("lower: %+v", r)
	}
	if r := rows["leap"]; r.UpdatedAt != "2027-01-01T00:00:00.000Z" {
		t.Errorf("leap: %+v", r)
	}
	if res.Notices.SessionsOmittedInvalid != 0 {
		t.Errorf("notices %+v", res.Notices)
	}
}

// TestSessionParams: every sessions method's params are closed. A cursor
// that is not null or 1..64 printable ASCII bytes is invalid_params and
// abandons nothing; a well-formed cursor this child never issued is
// invalid_cursor. session.list and session.new take no params (absent or
// {}), session.open exactly {"id":S} of the id grammar.
func TestSessionParams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sessionstest.MustWrite(t, e.store, sessionstest.Many(250, "s", e.ws, sessionstest.History{})...)
	p := e.start(t)
	live := firstPage(t, p).Cursor
	for _, params := range []string{
		`null`, `[]`, `"x"`, `{"cursor":1}`, `{"cursor":{}}`, `{"cursor":""}`, `{"cursor":" x"}`,
		`{"cursor":"` + strings.Repeat("a", 65) + `"}`, `{"cursor":"é"}`, `{"cursor":null,"x":1}`, `{"Cursor":null}`,
	} {
		p.Send(`{"jsonrpc":"2.0","id":"bad","method":"session.discover","params":` + params + `}`)
		if m, _ := p.Await("bad"); m.Code() != wire.CodeInvalidParams {
			t.Errorf("session.discover %s: %s", params, m.Raw)
		}
	}
	live = next(t, p, live).Cursor // the scan survived every params error
	for _, c := range []string{"x", strings.Repeat("a", 64), "d1.1.1.AAAAAAAAAAAAAAAAAAAAAA"} {
		wantCode(t, discover(p, &c), wire.CodeInvalidCursor)
	}
	wantCode(t, discover(p, live), wire.CodeStaleRevision) // invalid_cursor abandoned it
	for method, bad := range map[string][]string{
		wire.MethodSessionList: {`null`, `[]`, `{"cursor":null}`},
		wire.MethodSessionNew:  {`null`, `[]`, `{"id":"x"}`},
		wire.MethodSessionOpen: {`null`, `{}`, `{"id":null}`, `{"id":5}`, `{"id":"s-0001","x":1}`, `{"id":"s-0001.jsonl"}`, `{"id":"a b"}`},
	} {
		for _, params := range bad {
			p.Send(`{"jsonrpc":"2.0","id":"bad","method":"` + method + `","params":` + params + `}`)
			if m, _ := p.Await("bad"); m.Code() != wire.CodeInvalidParams {
				t.Errorf("%s %s: %s", method, params, m.Raw)
			}
		}
		if method != wire.MethodSessionOpen {
			for _, ok := range []string{``, `,"params":{}`} {
				p.Send(`{"jsonrpc":"2.0","id":"ok","method":"` + method + `"` + ok + `}`)
				if m, _ := p.Await("ok"); m.Error != nil {
					t.Errorf("%s%s: %s", method, ok, m.Raw)
				}
			}
		}
	}
}

// TestRecordLineShape: a record line is one strict JSON object with only
// JSON whitespace (space, tab, carriage return) around it, and "v" is the
// number 1 written as 1; docs/protocol.md §10.7.2.
func TestRecordLineShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const rec = `"type":"user","ts":"2026-01-02T03:04:05Z","text":"hello"}`
	valid := map[string]string{
		"leading":     " \t{\"v\":1," + rec + "\r\n",
		"crlf":        `{"v":1,` + rec + "\r\n",
		"versionless": `{` + rec + "\n",
	}
	malformed := map[string]string{
		"fraction":  `{"v":1.0,` + rec + "\n",
		"exponent":  `{"v":1e0,` + rec + "\n",
		"string":    `{"v":"1",` + rec + "\n",
		"formfeed":  `{"v":1,` + rec + "\f\n",
		"blank":     `{"v":1,` + rec + "\n\n" + `{"v":1,` + rec + "\n",
		"spaceline": `{"v":1,` + rec + "\n \n",
	}
	for _, histories := range []map[string]string{valid, malformed} {
		for id, content := range histories {
			writeFiles(t, e.store, map[string]string{id + ".jsonl": content})
		}
	}
	res, rows := listRows(t, e)
	for id := range valid {
		if r, ok := rows[id]; !ok || r.Records != 1 || r.Title != "hello" {
			t.Errorf("%s: row %+v (present %v), want one record titled hello", id, r, ok)
		}
	}
	if len(rows) != len(valid) || res.Notices.SessionsOmittedInvalid != int64(len(malformed)) {
		t.Errorf("rows %v, notices %+v: want %d omitted as invalid", rows, res.Notices, len(malformed))
	}
}

// TestListLimitCountsWhatItReads: session.list's ceiling counts the
// histories it would read, in every store: Claude Code's histories in
// other directories' project folders are counted as other directories'
// by name and never read, so 256 of scout's and three of another
// project's folder are served; one more in this workspace's folder is
// the 257th.
func TestListLimitCountsWhatItReads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ws := canonicalTemp(t)
	files := map[string]string{}
	for i := range 256 {
		files[fmt.Sprintf("s%03d.jsonl", i)] = userRecord
	}
	writeFiles(t, e.store, files)
	claude := t.TempDir()
	for i := range 3 {
		must(sessionstest.WriteClaude(claude, sessionstest.ClaudeSession{ID: sessionstest.ID(fmt.Sprintf("other-%d", i)), Dir: "/srv/other", Prompt: "elsewhere"}))
	}
	start := func() *scouttest.Proc {
		p := scouttest.Start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + e.home, "CLAUDE_CONFIG_DIR=" + claude}})
		p.Initialize(sessionCaps...)
		return p
	}
	var res wire.SessionListResult
	start().MustCall(wire.MethodSessionList, nil, &res)
	if len(res.Sessions) != 256 || res.Notices != (wire.SessionNotices{SessionsOtherDirectories: 3}) {
		t.Fatalf("256 of scout's and 3 of another folder: %d rows, notices %+v", len(res.Sessions), res.Notices)
	}
	must(sessionstest.WriteClaude(claude, sessionstest.ClaudeSession{ID: sessionstest.ID("here"), Dir: ws, Prompt: "here"}))
	wantCode(t, start().Call(wire.MethodSessionList, nil), wire.CodeDiscoveryLimit)
}

// TestClaudeSessionFiledUnderBothSpellings: run through a symlink, the
// backend reads Claude Code's project folders of both spellings of the
// workspace; a history filed in both (the same session) is one row, the
// canonical folder's, and session.open finds it; a history only in the
// symlink's folder is a row too.
func TestClaudeSessionFiledUnderBothSpellings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ws := canonicalTemp(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	claude := t.TempDir()
	both := sessionstest.ClaudeSession{ID: sessionstest.ID("both"), Dir: ws, Prompt: "filed twice"}
	must(sessionstest.WriteClaude(claude, both))
	copied := both
	copied.Folder = sessionstest.ClaudeProjectFolder(link)
	must(sessionstest.WriteClaude(claude, copied))
	only := sessionstest.ClaudeSession{ID: sessionstest.ID("only-link"), Dir: ws, Folder: sessionstest.ClaudeProjectFolder(link), Prompt: "under the link", Start: sessionstest.Epoch.Add(time.Hour)}
	must(sessionstest.WriteClaude(claude, only))
	p := scouttest.Start(t, scouttest.Options{Dir: link, Env: []string{"SCOUT_HOME=" + e.home, "CLAUDE_CONFIG_DIR=" + claude, "PWD=" + link}})
	p.Initialize(sessionCaps...)
	var list wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &list)
	got := map[string]int{}
	for _, r := range list.Sessions {
		got[r.ID]++
	}
	if len(list.Sessions) != 2 || got[both.ID] != 1 || got[only.ID] != 1 {
		t.Fatalf("rows %+v, want %s once and %s", list.Sessions, both.ID, only.ID)
	}
	pages := mustFollow(t, p)
	if n := len(ids(pages)); n != 2 {
		t.Errorf("discover: %d rows, want 2", n)
	}
	var open wire.SessionOpenResult
	p.MustCall(wire.MethodSessionOpen, map[string]any{"id": both.ID, "agent": wire.AgentClaudeCode}, &open)
	if open.Session.Title != "filed twice" {
		t.Errorf("open: %+v", open.Session)
	}
}
