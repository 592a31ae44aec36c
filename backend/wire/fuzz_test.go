package wire

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParseFrame feeds arbitrary client frames to the envelope parser: it
// never panics, a frame it accepts has a valid id and method, and an invalid
// UTF-8 frame is always a parse error.
func FuzzParseFrame(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":"a","method":"status"}`,
		`{"jsonrpc":"2.0","id":"a","method":"project.list","params":{"ref":"root","limit":3}}`,
		`{"jsonrpc":"2.0","method":"x"}`, `[1]`, `{"a":1,"a":2}`, `{"jsonrpc":"2.0","id":1}`, "\xff", `{}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := ParseFrame(b)
		var fe *FrameError
		switch {
		case err == nil:
			if !ValidID(fr.ID) || fr.Method == "" {
				t.Fatalf("accepted %q with id %q method %q", b, fr.ID, fr.Method)
			}
			for _, p := range []any{&ListParams{}, &ReadParams{}, &InitializeParams{}, &CursorParams{}, &SelectParams{}, &EmptyParams{}} {
				_ = DecodeParams(fr.Params, p)
			}
		case errors.Is(err, ErrNotification):
		case errors.As(err, &fe):
			if !utf8.Valid(b) && fe.Err.Code != CodeParseError {
				t.Fatalf("invalid UTF-8 gave %s", fe.Err.Code)
			}
			if fe.ID != nil && !ValidID(*fe.ID) {
				t.Fatalf("error carries invalid id %q", *fe.ID)
			}
		default:
			t.Fatalf("unexpected error type %T", err)
		}
	})
}
