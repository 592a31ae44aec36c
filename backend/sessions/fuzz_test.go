package sessions

import (
	"bytes"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/rfc3339"
	"github.com/scoutdev/scout/backend/wire"
)

// FuzzParseLock feeds arbitrary lock file contents to the busy hint: it
// never panics, and the renewal time is the recorded one exactly when the
// content holds an RFC 3339 renewed_at, else the file's modification time.
func FuzzParseLock(f *testing.F) {
	f.Add([]byte(`{"pid":4242,"renewed_at":"2026-01-02T03:04:05.123Z"}`))
	f.Add([]byte(`{"pid":"x","renewed_at":"2026-01-02T03:04:05Z"}`))
	f.Add([]byte(`{"renewed_at":"9999-12-31T23:59:59+14:00","renewed_at":"x"}`))
	f.Add([]byte(`garbage`))
	mod := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		got := lockRenewed(data, mod)
		var lf lockFile
		if wire.Unmarshal(data, &lf) == nil {
			if want, err := rfc3339.Parse(lf.RenewedAt); err == nil {
				if !got.Equal(want) {
					t.Fatalf("renewed %v, the lock says %v", got, want)
				}
				return
			}
		}
		if !got.Equal(mod) {
			t.Fatalf("renewed %v for content that is not a lock", got)
		}
	})
}

// fuzzRoot is a workspace root that does not exist, so a cwd matches it
// only when it names it (after cleaning).
const fuzzRoot = "/nonexistent-scout-fuzz-root"

// FuzzHistorySummary reads an arbitrary history (lines of records) the
// way discovery does, record by record through one reused parser, and
// checks the row it makes: records counted, times in the protocol's
// format, a title with no unsafe character and a
// fallback title of at most 80 characters, cwd verified only when a
// record named the workspace, and a row that encodes.
func FuzzHistorySummary(f *testing.F) {
	f.Add([]byte(`{"v":1,"type":"meta","ts":"2026-01-02T03:04:05Z","cwd":"` + fuzzRoot + `"}` + "\n" +
		`{"v":1,"type":"user","ts":"2026-01-02T03:04:06Z","text":"fix the \u202ebug\n please"}` + "\n"))
	f.Add([]byte(`{"type":"title","ts":"2026-01-02T03:04:05+02:00","title":"a\u0007b"}` + "\n" + `{"type":"x"}`))
	f.Add([]byte(`{"type":"user","ts":"2026-01-02T03:04:05Z","cwd":"/elsewhere"}`))
	f.Add([]byte(`{"type":"user","ts":"2026-01-02T03:04:05Z","cwd":"` + fuzzRoot + `/."}` + "\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Split(data, []byte("\n"))
		if len(lines) > 1 && len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1] // the last record's newline
		}
		var p recordParser
		var sum summary
		m := newCwdMatcher(fuzzRoot)
		sawCwd, hasTitle := false, false
		for _, line := range lines {
			rec, err := p.parse(line)
			if err != nil {
				return // malformed: no row
			}
			sawCwd = sawCwd || rec.Known && len(rec.Cwd) > 0
			hasTitle = hasTitle || rec.Type == TypeTitle && rec.Title != nil
			if err := sum.apply(&rec, m); err != nil {
				if err != errForeign {
					t.Fatalf("apply: %v", err)
				}
				return
			}
		}
		row, err := sum.row("fuzz")
		if err != nil {
			if err != errNoTime && err != errRowTooLarge {
				t.Fatalf("row: %v", err)
			}
			return
		}
		checkRow(t, row, int64(len(lines)), sawCwd, hasTitle)
	})
}

// checkRow checks a row made from a history of records lines in which
// some known record named a cwd (all of them the workspace) when sawCwd.
func checkRow(t *testing.T, row wire.SessionRow, records int64, sawCwd, hasTitle bool) {
	t.Helper()
	if row.Records != records {
		t.Fatalf("records %d, history has %d", row.Records, records)
	}
	for _, ts := range []string{row.CreatedAt, row.UpdatedAt} {
		if _, err := time.Parse("2006-01-02T15:04:05.000Z", ts); err != nil {
			t.Fatalf("time %q is not the protocol's format", ts)
		}
	}
	if want := map[bool]string{true: wire.CwdVerified, false: wire.CwdUnverified}[sawCwd]; row.Cwd != want {
		t.Fatalf("cwd %q, want %q", row.Cwd, want)
	}
	if !utf8.ValidString(row.Title) {
		t.Fatalf("title %q is not UTF-8", row.Title)
	}
	for _, r := range row.Title {
		if fsguard.UnsafeRune(r) {
			t.Fatalf("title %q keeps %U", row.Title, r)
		}
	}
	if !hasTitle && utf8.RuneCountInString(row.Title) > MaxTitleRunes {
		t.Fatalf("fallback title of %d characters", utf8.RuneCountInString(row.Title))
	}
	if _, err := wire.Marshal(row); err != nil {
		t.Fatal(err)
	}
}
