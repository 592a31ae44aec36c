package sessions

import (
	"bytes"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/rfc3339"
	"github.com/scoutdev/scout/backend/wire"
)

func TestParseRecord(t *testing.T) {
	tests := []struct {
		line    string
		ok      bool
		typ     string
		known   bool
		cwd     string
		hasTS   bool
		hasText bool
	}{
		{`{"v":1,"type":"user","ts":"2026-01-02T03:04:05Z","cwd":"/w","text":"hi"}`, true, "user", true, "/w", true, true},
		{`{"type":"meta"}`, true, "meta", true, "", false, false},
		{`{"type":"future","cwd":5}`, true, "future", false, "", false, false},
		{`{"v":2,"type":"future","ts":"yesterday","text":null,"title":[1]}`, true, "future", false, "", false, false},
		{`{"ts":"yesterday","cwd":"/elsewhere"}`, true, "", false, "", false, false},
		{`{"type":"user","v":2}`, false, "", false, "", false, false},
		{`{"type":"title","title":5}`, false, "", false, "", false, false},
		{`{"type":"future","whatever":[1,{"a":null}]}`, true, "future", false, "", false, false},
		{`{}`, true, "", false, "", false, false},
		{` {"type":"tool"} `, true, "tool", true, "", false, false},
		{`{"t\u0079pe":"user"}`, true, "user", true, "", false, false},
		{`{"v":2,"type":"user"}`, false, "", false, "", false, false},
		{`{"v":"1"}`, true, "", false, "", false, false},
		{`{"v":"1","type":"meta"}`, false, "", false, "", false, false},
		{`{"type":null}`, true, "", false, "", false, false},
		{`{"type":5,"ts":"yesterday"}`, true, "", false, "", false, false},
		{`{"type":"user","ts":"yesterday"}`, false, "", false, "", false, false},
		{`{"type":"user","type":"user"}`, false, "", false, "", false, false},
		{`{"type":"user"}{}`, false, "", false, "", false, false},
		{`{"type":"user"} x`, false, "", false, "", false, false},
		{`[]`, false, "", false, "", false, false},
		{``, false, "", false, "", false, false},
		{`"text"`, false, "", false, "", false, false},
		{"{\"text\":\"\xff\"}", false, "", false, "", false, false},
		{`{"text":"a` + "\x01" + `"}`, false, "", false, "", false, false},
		{`{"type":"user","text":"x",}`, false, "", false, "", false, false},
	}
	for _, tt := range tests {
		rec, err := ParseRecord([]byte(tt.line))
		if (err == nil) != tt.ok {
			t.Errorf("%q: err %v, want ok=%v", tt.line, err, tt.ok)
			continue
		}
		if err != nil {
			continue
		}
		if rec.Type != tt.typ || rec.Known != tt.known || string(rec.Cwd) != tt.cwd || rec.HasTS != tt.hasTS || (rec.Text != nil) != tt.hasText {
			t.Errorf("%q: %+v", tt.line, rec)
		}
	}
}

func TestSummaryTitles(t *testing.T) {
	long := strings.Repeat("é", 100) // 100 runes, 200 bytes
	m := &cwdMatcher{root: "/w", cache: map[string]cwdPlace{}}
	apply := func(s *summary, line string) {
		t.Helper()
		rec, err := ParseRecord([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.apply(&rec, m); err != nil {
			t.Fatal(err)
		}
	}
	var s summary
	apply(&s, `{"type":"user","ts":"2026-01-02T03:04:05.123456+02:00","text":"\u0000\t"}`)
	apply(&s, `{"type":"user","text":"`+long+`"}`)
	apply(&s, `{"type":"user","ts":"2026-01-02T05:00:00Z","text":"second"}`)
	row, err := s.row("x")
	if err != nil {
		t.Fatal(err)
	}
	if row.Title != strings.Repeat("é", MaxTitleRunes) {
		t.Errorf("title %q: want the first non-empty user text cut to 80 runes", row.Title)
	}
	if row.CreatedAt != "2026-01-02T01:04:05.123Z" || row.UpdatedAt != "2026-01-02T05:00:00.000Z" {
		t.Errorf("times %s %s", row.CreatedAt, row.UpdatedAt)
	}
	if row.Cwd != wire.CwdUnverified || row.Records != 3 {
		t.Errorf("row %+v", row)
	}
	apply(&s, `{"type":"title","title":"First \u202etitle\u0007"}`)
	apply(&s, `{"type":"title","title":"\u200e"}`) // empty once sanitized: ignored
	if row, _ = s.row("x"); row.Title != "First title" {
		t.Errorf("title %q", row.Title)
	}
	apply(&s, `{"type":"title","title":"`+strings.Repeat("z", PageBytes+1)+`"}`)
	if _, err := s.row("x"); err != errRowTooLarge {
		t.Errorf("a title over a page: %v", err)
	}
	apply(&s, `{"type":"title","title":"short again"}`)
	if row, _ = s.row("x"); row.Title != "short again" {
		t.Errorf("title %q", row.Title)
	}
	apply(&s, `{"type":"user","cwd":"/w","ts":"2026-01-02T06:00:00Z"}`)
	if row, _ = s.row("x"); row.Cwd != wire.CwdVerified {
		t.Errorf("cwd %q", row.Cwd)
	}
	rec, _ := ParseRecord([]byte(`{"type":"tool","cwd":"/elsewhere"}`))
	if err := s.apply(&rec, m); err != errForeign {
		t.Errorf("foreign cwd: %v", err)
	}
	var empty summary
	apply(&empty, `{"type":"meta"}`)
	if _, err := empty.row("x"); err != errNoTime {
		t.Errorf("no timestamps: %v", err)
	}
}

// TestParseRecordTimesOutsideRFC3339 (found by FuzzHistorySummary): a ts
// whose UTC year RFC 3339 cannot write makes the record malformed, so no
// row ever carries "-0001-12-31T23:30:00.000Z" or a five-digit year.
func TestParseRecordTimesOutsideRFC3339(t *testing.T) {
	for _, ts := range []string{"0000-01-01T00:30:00+01:00", "0000-01-01T0:00:00+01:00", "9999-12-31T23:30:00-01:00"} {
		if _, err := ParseRecord([]byte(`{"type":"user","ts":"` + ts + `"}`)); err != ErrMalformed {
			t.Errorf("ts %s: %v, want ErrMalformed", ts, err)
		}
	}
	for _, ts := range []string{"0000-01-01T00:30:00-01:00", "9999-12-31T23:30:00+01:00", "0000-01-01T00:00:00Z"} {
		if rec, err := ParseRecord([]byte(`{"type":"user","ts":"` + ts + `"}`)); err != nil || !rec.HasTS {
			t.Errorf("ts %s: %v", ts, err)
		}
	}
}

// FuzzParseRecord checks the history record parser against the strict
// jsontext validator: whatever it accepts is one valid JSON object, and
// what it reports matches a plain decode of the same line.
func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(`{"v":1,"type":"user","ts":"2026-01-02T03:04:05Z","cwd":"/w","text":"hi"}`))
	f.Add([]byte(`{"type":"title","title":"a\u202eb"}`))
	f.Add([]byte(`{"type":"x","n":[1,2,{"a":"b"}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		rec, err := ParseRecord(line)
		valid := jsontext.Value(line).IsValid() && bytes.HasPrefix(bytes.TrimLeft(line, " \t\r\n"), []byte("{"))
		if err != nil {
			if valid && wantAccepted(line) {
				t.Fatalf("refused a valid record %q: %v", line, err)
			}
			return
		}
		if !valid {
			t.Fatalf("accepted a line that is not one strict JSON object: %q", line)
		}
		var m map[string]any
		if err := wire.UnmarshalStrict(line, &m); err != nil {
			t.Fatalf("accepted %q, but it does not decode: %v", line, err)
		}
		if typ, _ := m["type"].(string); typ != rec.Type {
			t.Fatalf("type %q, decode says %q", rec.Type, typ)
		}
		if !rec.Known {
			if rec.Cwd != nil || rec.HasTS || rec.Text != nil || rec.Title != nil {
				t.Fatalf("a skipped record reported its members: %+v", rec)
			}
			return
		}
		if cwd, _ := m["cwd"].(string); len(cwd) <= maxCwdBytes && cwd != string(rec.Cwd) {
			t.Fatalf("cwd %q, decode says %q", rec.Cwd, cwd)
		}
		if ts, ok := m["ts"].(string); ok {
			want, _ := rfc3339.Parse(ts)
			if !rec.HasTS || !rec.TS.Equal(want) {
				t.Fatalf("ts %v, decode says %q", rec.TS, ts)
			}
		}
		if text, ok := m["text"].(string); ok {
			got, err := jsontext.AppendUnquote(nil, rec.Text)
			if err != nil || string(got) != text {
				t.Fatalf("text %q, decode says %q", got, text)
			}
			var want []rune
			for _, r := range text {
				if !fsguard.UnsafeRune(r) {
					want = append(want, r)
				}
			}
			if san, n, _ := appendSanitized(nil, rec.Text, 0, 1<<30); string(san) != string(want) || n != len(want) {
				t.Fatalf("sanitized %q, want %q", san, string(want))
			}
			if len(want) > MaxTitleRunes {
				want = want[:MaxTitleRunes]
			}
			if san, _, _ := appendSanitized(nil, rec.Text, MaxTitleRunes, 1<<30); string(san) != string(want) {
				t.Fatalf("cut %q, want %q", san, string(want))
			}
		}
	})
}

// wantAccepted applies the record rules to a line jsontext found valid: a
// record of an unknown or missing type is skipped whatever it holds; in
// one of a known type "v" is 1 when present, the members discovery reads
// are strings, and "ts" is RFC 3339.
func wantAccepted(line []byte) bool {
	var m map[string]jsontext.Value
	if wire.UnmarshalStrict(line, &m) != nil {
		return false
	}
	var typ string
	if wire.Unmarshal(m["type"], &typ) != nil || !knownType(typ) {
		return true
	}
	for k, v := range m {
		switch k {
		case "v":
			if string(v) != "1" {
				return false
			}
		case "type", "cwd", "text", "title":
			if v.Kind() != '"' {
				return false
			}
		case "ts":
			var ts string
			if v.Kind() != '"' || wire.Unmarshal(v, &ts) != nil {
				return false
			}
			t, err := rfc3339.Parse(ts)
			if err != nil || t.UTC().Year() < 0 || t.UTC().Year() > 9999 {
				return false
			}
		}
	}
	return true
}
