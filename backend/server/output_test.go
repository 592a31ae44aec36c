package server

import (
	"testing"

	"github.com/scoutdev/scout/backend/wire"
)

// TestAppendResponse holds the hand-built envelope to wire.Marshal of a
// wire.Response with the result encoded by wire.Marshal.
func TestAppendResponse(t *testing.T) {
	results := []any{
		&wire.ProjectFilesResult{CommandID: "r7", Generation: 3, Entries: []wire.FileEntry{{Path: `a "q" \\ é`, Kind: wire.KindFile}, {Path: "<&>\u2028", Kind: wire.KindDirectory}}, Truncated: true, Stamp: wire.Stamp{TS: "t"}},
		&wire.ProjectFilesResult{},
		&wire.StatusResult{State: wire.StateReady, Active: []wire.ActiveRequest{}},
		&wire.CancelResult{State: "cancelling", RequestID: "r1"},
		map[string]any{"x": "<tag>"},
	}
	for _, id := range []string{"1", "r.7:x-y_z", "a\"b"} {
		for i, res := range results {
			raw, err := wire.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			want, err := wire.Marshal(wire.Response{JSONRPC: wire.Version, ID: &id, Result: raw})
			if err != nil {
				t.Fatal(err)
			}
			got, err := appendResponse(nil, id, res)
			if err != nil || string(got) != string(want) {
				t.Errorf("%s %d: %s, %v\nwant %s", id, i, got, err, want)
			}
		}
	}
}
