package sessions_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
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

// TestUnknownRecordTypesAreSkipped: DESIGN.md's "unknown types are
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
