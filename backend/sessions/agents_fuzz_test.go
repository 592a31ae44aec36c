package sessions

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// strictObject reports whether b is one JSON object, whitespace around it
// allowed, by jsontext's rules with duplicate names allowed (the agents'
// scanner checks duplicates only among the members it reads).
func strictObject(b []byte) bool {
	d := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true))
	v, err := d.ReadValue()
	if err != nil || v.Kind() != '{' {
		return false
	}
	_, err = d.ReadToken()
	return err == io.EOF
}

// FuzzSkipValue holds the agents' JSON scanner to jsontext: it accepts a
// line as an object exactly when jsontext does (duplicate names allowed),
// and hands out each top-level member with its value as written.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{
		`{}`, ` {"a":1} `, `{"a":[1,2,{"b":null}],"c":"\u00e9\ud83d\ude00"}`, `{"a":1,}`, `{"a":01}`,
		`{"a":-0.5e+7}`, `{"a":"\x01"}`, `{"a":tru}`, `{"a":[}`, `{"a":{"b":1}`, `{"a":1}x`,
		`{"a":"\ud800"}`, `{"a":1e}`, `{"a":.5}`, `{"a":"x","a":"y"}`, strings.Repeat("[", 10) + strings.Repeat("]", 10),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s jsonScanner
		var names []string
		var values [][]byte
		ok := s.members(b, func(name, value []byte) bool {
			names = append(names, string(name))
			values = append(values, bytes.Clone(value))
			return true
		})
		if want := strictObject(b); ok != want {
			t.Fatalf("members accepts %t, jsontext %t: %.200q", ok, want, b)
		}
		if !ok {
			return
		}
		d := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true))
		d.ReadToken() // {
		i := 0
		for ; d.PeekKind() != '}'; i++ {
			tok, _ := d.ReadToken()
			name := tok.String()
			v, _ := d.ReadValue()
			if i >= len(names) || names[i] != name || !bytes.Equal(values[i], v) {
				t.Fatalf("member %d of %.200q: jsontext reads %.100q %.100q", i, b, name, v)
			}
		}
		if i != len(names) {
			t.Fatalf("%d members, jsontext %d: %.200q", len(names), i, b)
		}
	})
}

// TestSkipValueDepth: values nest as deep as jsontext allows (10,000
// levels, the object itself included) and no deeper.
func TestSkipValueDepth(t *testing.T) {
	for _, n := range []int{9998, 9999, 10000} {
		for _, inner := range []string{"", "1"} {
			b := []byte(`{"a":` + strings.Repeat("[", n) + inner + strings.Repeat("]", n) + `}`)
			var s jsonScanner
			if got, want := s.members(b, func(_, _ []byte) bool { return true }), strictObject(b); got != want || got != (n < 10000) {
				t.Errorf("depth %d+1 (%q inside): scanner %t, jsontext %t", n, inner, got, want)
			}
		}
	}
}

// fuzzHistory feeds data to h line by line, the way the engine does for a
// live store (an incomplete last line ignored), and checks what result
// says: a row with the protocol's times, a title of at most 80 characters
// without control or bidi characters, the records counted; or one of the
// outcomes a history may have.
func fuzzHistory(t *testing.T, h history, data []byte) {
	lines := bytes.Split(data, []byte("\n"))
	lines = lines[:len(lines)-1] // after the last newline: incomplete
	n := int64(0)
	for _, line := range lines {
		n++
		switch err := h.record(line); err {
		case nil:
		case errForeign, errNotSession, ErrMalformed:
			return
		default:
			t.Fatalf("record: %v", err)
		}
	}
	row, err := h.result()
	switch err {
	case nil:
	case errForeign, errNotSession, ErrMalformed, errNoTime:
		return
	default:
		t.Fatalf("result: %v", err)
	}
	if row.Records != n || row.Cwd != wire.CwdVerified || !wire.ValidSessionID(row.ID) {
		t.Fatalf("row %+v of %d lines", row, n)
	}
	if utf8.RuneCountInString(row.Title) > MaxTitleRunes || !utf8.ValidString(row.Title) || strings.HasPrefix(row.Title, " ") || strings.HasSuffix(row.Title, " ") {
		t.Fatalf("title %q", row.Title)
	}
	for _, r := range row.Title {
		if fsguard.UnsafeRune(r) {
			t.Fatalf("title %q has %U", row.Title, r)
		}
	}
	for _, ts := range []string{row.CreatedAt, row.UpdatedAt} {
		if len(ts) != len("2026-01-02T03:04:05.000Z") || ts[len(ts)-1] != 'Z' {
			t.Fatalf("time %q", ts)
		}
	}
	if _, err := wire.Marshal(row); err != nil {
		t.Fatal(err)
	}
}

const agentFuzzRoot = "/nonexistent-scout-fuzz-root"

// FuzzClaudeHistory reads arbitrary Claude Code transcripts.
func FuzzClaudeHistory(f *testing.F) {
	f.Add([]byte(`{"type":"file-history-snapshot","messageId":"m","snapshot":{"messageId":"m","trackedFileBackups":{},"timestamp":"2026-01-02T03:04:05.000Z"},"isSnapshotUpdate":false}` + "\n" +
		`{"parentUuid":null,"isSidechain":false,"cwd":"` + agentFuzzRoot + `","sessionId":"s","type":"user","message":{"role":"user","content":"fix\nit"},"uuid":"u","timestamp":"2026-01-02T03:04:05.000Z"}` + "\n" +
		`{"isSidechain":false,"cwd":"` + agentFuzzRoot + `/sub","type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"x"},{"type":"text","text":"a"}]},"timestamp":"2026-01-02T03:04:06.000Z"}` + "\n" +
		`{"type":"custom-title","customTitle":"  \u202e named  ","sessionId":"s"}` + "\n"))
	f.Add([]byte(`{"cwd":"/elsewhere","type":"user","message":{"role":"user","content":"x"},"timestamp":"2026-01-02T03:04:05Z"}` + "\n"))
	f.Add([]byte(`{"isSidechain":true,"cwd":"` + agentFuzzRoot + `","type":"user","message":{"content":"x"},"timestamp":"2026-01-02T03:04:05Z"}` + "\n{\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		src := newClaudeSource("/nonexistent", nil, newCwdMatcher(agentFuzzRoot))
		fuzzHistory(t, src.history(&frame{mine: true}, "s.jsonl"), data)
	})
}

// FuzzCodexHistory reads arbitrary Codex rollouts, after an arbitrary
// session index.
func FuzzCodexHistory(f *testing.F) {
	f.Add([]byte(`{"id":"s","thread_name":"named\tone","updated_at":"x"}`), []byte(
		`{"timestamp":"2026-01-02T03:04:05.000Z","type":"session_meta","payload":{"id":"s","cwd":"`+agentFuzzRoot+`","source":"cli"}}`+"\n"+
			`{"timestamp":"2026-01-02T03:04:06.000Z","type":"turn_context","payload":{"cwd":"`+agentFuzzRoot+`/x"}}`+"\n"+
			`{"timestamp":"2026-01-02T03:04:07.000Z","type":"event_msg","payload":{"type":"user_message","message":"hi"}}`+"\n"))
	f.Add([]byte{}, []byte(`{"timestamp":"2026-01-02T03:04:05.000Z","type":"session_meta","payload":{"id":"s","cwd":"/x","source":{"subagent":"review"}}}`+"\n"))
	f.Add([]byte(`{"id":"s","thread_name":"","updated_at":"x"}`), []byte(
		`{"timestamp":"2026-01-02T03:04:05.000Z","type":"session_meta","payload":{"id":"s","cwd":"`+agentFuzzRoot+`","history_mode":"paginated"}}`+"\n"+
			`{"timestamp":"2026-01-02T03:04:07.000Z","type":"event_msg","payload":{"type":"item_completed","thread_id":"s","turn_id":"t","item":{"type":"UserMessage","id":"u","content":[{"type":"text","text":"hi","text_elements":[]},{"type":"local_image","path":"/p"}]}}}`+"\n"))
	f.Fuzz(func(t *testing.T, index, data []byte) {
		src := newCodexSource("/nonexistent", newCwdMatcher(agentFuzzRoot))
		_, idx := src.prelude()
		for _, line := range bytes.Split(index, []byte("\n")) {
			if err := idx.record(line); err != nil {
				t.Fatalf("index: %v", err)
			}
		}
		for id, name := range src.names {
			if !wire.ValidSessionID(id) || utf8.RuneCount(name) > MaxTitleRunes {
				t.Fatalf("name %q %q", id, name)
			}
		}
		fuzzHistory(t, src.history(&frame{mine: true}, "rollout-x.jsonl"), data)
	})
}

// FuzzGeminiHistory reads arbitrary Gemini CLI histories.
func FuzzGeminiHistory(f *testing.F) {
	hash := projectHash(agentFuzzRoot)
	f.Add([]byte(`{"sessionId":"s","projectHash":"` + hash + `","startTime":"2026-01-02T03:04:05.000Z","lastUpdated":"2026-01-02T03:04:05.000Z","kind":"main"}` + "\n" +
		`{"id":"m","timestamp":"2026-01-02T03:04:06.000Z","type":"user","content":[{"text":"ex"},{"text":"plain"}]}` + "\n" +
		`{"$set":{"lastUpdated":"2026-01-02T03:04:07.000Z","summary":"sum"}}` + "\n" + `{"$rewindTo":"m"}` + "\n"))
	f.Add([]byte(`{"sessionId":"s","projectHash":"x","messages":[{"id":"m","type":"user","content":"/help"}]}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		src := newGeminiSource("/nonexistent", newCwdMatcher(agentFuzzRoot))
		fuzzHistory(t, src.history(&frame{mine: true}, "session-x.jsonl"), data)
	})
}
