package rpcclient

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/wire"
)

var envelopeSeeds = []string{
	`{"jsonrpc":"2.0","id":"c2","result":{"generation":1,"entries":[{"path":"a","kind":"file"}],"cursor":"x1.1.2.ab","complete":false,"progress":"page_entries","ts":"t"}}`,
	`{"jsonrpc":"2.0","result":{"entries":[{"path":"\"cursor\":\"no","kind":"file"}],"x":{"cursor":"inner"},"cursor":"outer"},"id":"c3"}`,
	`{"jsonrpc":"2.0","id":"c4","result":{"cursor":null,"complete":true}}`,
	`{"jsonrpc":"2.0","id":"c5","error":{"code":-32000,"message":"busy","data":{"code":"busy"}}}`,
	`{"jsonrpc":"2.0","method":"project_files.invalidated","params":{"generation":2}}`,
	`{"jsonrpc":"2.0","id":"c\u0036","result":{"cursor":"a\\u0062"}}`,
	`{"jsonrpc":"2.0","id":"a","id":"b","result":{}}`,
	`{"jsonrpc":"2.0","id":null,"result":null}`,
	`null`, `[]`, `{"jsonrpc":"2.0","id":"c1","result":{}} {}`, `{"id":"c1","result":{"cursor":"x"}`, ` {"id" : "c1" , "result" : { "cursor" : "x" } } `,
	"{\"jsonrpc\":\"2.0\",\"id\":\"c1\",\"result\":{\"cursor\":\"\xff\"}}",
}

// readEnvelope reads every line exactly as wire.Unmarshal reads it into
// an inbound: the same members, the same errors (any input).
func FuzzReadEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		got, gotErr := readEnvelope(line)
		var want inbound
		wantErr := wire.Unmarshal(line, &want)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: readEnvelope error %v, Unmarshal error %v", line, gotErr, wantErr)
		}
		if gotErr != nil {
			return
		}
		if !reflect.DeepEqual(normal(got), normal(want)) {
			t.Fatalf("%q: readEnvelope %+v, Unmarshal %+v", line, got, want)
		}
	})
}

// normal makes the raw members comparable (nil stays nil).
func normal(m inbound) inbound {
	for _, v := range []*jsontext.Value{&m.ID, &m.Result, &m.Params} {
		if *v != nil {
			*v = bytes.Clone(*v)
		}
	}
	return m
}

// peekNext, on a line that turns out valid, finds exactly the id and the
// result's cursor a decoder finds; on any line it never panics.
func FuzzPeekNext(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		id, cursor, ok := peekNext(line)
		if !ok || !jsontext.Value(line).IsValid() {
			return
		}
		m, err := readEnvelope(line)
		if err != nil {
			t.Fatalf("%q: valid, but %v", line, err)
		}
		var wantID string
		if wire.Unmarshal(m.ID, &wantID) != nil || wantID != id || m.Error != nil {
			t.Fatalf("%q: peeked id %q, decoded %q (error %v)", line, id, m.ID, m.Error)
		}
		var res struct {
			Cursor *string `json:"cursor"`
		}
		if wire.Unmarshal(m.Result, &res) != nil || res.Cursor == nil || *res.Cursor != cursor {
			t.Fatalf("%q: peeked cursor %q, decoded %v", line, cursor, res.Cursor)
		}
	})
}

func TestPeekNextFindsTheTopLevelCursor(t *testing.T) {
	t.Parallel()
	for line, want := range map[string][3]string{
		envelopeSeeds[0]: {"c2", "x1.1.2.ab", "ok"},
		envelopeSeeds[1]: {"c3", "outer", "ok"},
		envelopeSeeds[2]: {"", "", ""},
		envelopeSeeds[3]: {"", "", ""},
		envelopeSeeds[5]: {"", "", ""}, // escapes: no peeking
	} {
		id, cursor, ok := peekNext([]byte(line))
		if got := [3]string{id, cursor, map[bool]string{true: "ok"}[ok]}; ok != (want[2] == "ok") || (ok && got != want) {
			t.Errorf("%s: peekNext = %q, want %q", line, got, want)
		}
	}
}
