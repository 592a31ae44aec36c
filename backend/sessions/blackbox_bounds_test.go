package sessions_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// writeLines writes a history of n records of exactly size bytes each
// (newline not counted), recording cwd.
func writeLines(t *testing.T, path, cwd string, n, size int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range n {
		head := fmt.Sprintf(`{"v":1,"type":"assistant","ts":"2026-02-03T04:05:%02dZ","cwd":%q,"text":"`, i%60, cwd)
		pad := size - len(head) - len(`"}`)
		if pad < 0 {
			t.Fatalf("record size %d too small", size)
		}
		w.WriteString(head)
		w.WriteString(strings.Repeat("y", pad))
		w.WriteString("\"}\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestDiscoverStepBounds: each step bound pauses the scan with its own
// progress word, and a history or a record spanning requests is still read
// exactly once: 10,000 records (history_work); 8 MiB read ending on a record
// boundary (byte_work) or inside a record (record_work).
func TestDiscoverStepBounds(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	tests := []struct {
		name       string
		n, size    int
		wantWords  []string
		wantRecord int64
	}{
		// 25,000 small records: two pauses after 10,000 records each.
		{"history_work", 25000, 400, []string{"history_work:0", "history_work:0"}, 25000},
		// Records of 1 MiB - 1 plus newline: 8 of them are exactly 8 MiB.
		{"byte_work", 12, mib - 1, []string{"byte_work:0"}, 12},
		// Records of 3 MiB: the 8 MiB bound falls inside the third one, which
		// the next request completes.
		{"record_work", 5, 3 * mib, []string{"record_work:0", "complete:1"}, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			writeLines(t, filepath.Join(e.store, "long.jsonl"), e.ws, tc.n, tc.size)
			// The 2 s step deadline is lifted (a test hook): on a loaded
			// machine it would end the steps before the bound under test.
			p := scouttest.Start(t, scouttest.Options{Dir: e.ws, Debug: true, Env: []string{"SCOUT_HOME=" + e.home, "SCOUT_DEBUG_DISCOVER_STEP_MS=600000"}})
			p.Initialize(sessionCaps...)
			pages := mustFollow(t, p)
			words := progressWords(pages)
			if !slices.Equal(words[:len(tc.wantWords)], tc.wantWords) {
				t.Errorf("progress %v, want it to start with %v", words, tc.wantWords)
			}
			rows := ids(pages)
			if len(rows) != 1 {
				t.Fatalf("rows %v", rows)
			}
			for _, pg := range pages {
				for _, r := range pg.Sessions {
					if r.Records != tc.wantRecord {
						t.Errorf("records %d, want %d", r.Records, tc.wantRecord)
					}
				}
			}
		})
	}
}

// TestDiscoverPageBytes: rows with long titles fill the 32,768-byte page
// bound before 100 rows; every row still arrives exactly once.
func TestDiscoverPageBytes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	title := strings.Repeat("名", 300) // 900 bytes of UTF-8
	sessionstest.MustWrite(t, e.store, sessionstest.Many(120, "t", e.ws, sessionstest.History{Title: title})...)
	p := e.start(t)
	pages := mustFollow(t, p)
	if pages[0].Progress != wire.ProgressPageBytes || len(pages[0].Sessions) >= 100 {
		t.Fatalf("first page: %v", progressWords(pages))
	}
	for _, pg := range pages {
		b, _ := wire.Marshal(pg.Sessions)
		if len(b) > 32768 {
			t.Errorf("page of %d bytes", len(b))
		}
	}
	if n := len(ids(pages)); n != 120 {
		t.Errorf("%d rows", n)
	}
	if got := pages[0].Sessions[0].Title; got != title {
		t.Errorf("title of %d bytes, want the whole title", len(got))
	}
}

// TestRowTooLargeForAPage: a row whose encoding cannot fit a 32,768-byte
// page on its own is discovery_page_bytes for session.discover and
// session.list and session_invalid for session.open; one byte less and all
// three serve it. session.list and session.open used to serve any title
// under 32 KiB, however large its row (escaped quotes double it).
func TestRowTooLargeForAPage(t *testing.T) {
	t.Parallel()
	const ts = "2026-01-02T03:04:05Z"
	empty, err := wire.Marshal(wire.SessionRow{
		ID: "big", Agent: wire.AgentScout, CreatedAt: "2026-01-02T03:04:05.000Z", UpdatedAt: "2026-01-02T03:04:05.000Z",
		Cwd: wire.CwdUnverified, Records: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	fits := 32768 - len("[]") - len(empty) // title bytes of the largest row that fits
	for _, tc := range []struct {
		name, title string
		fit         bool
	}{
		{"largest", strings.Repeat("x", fits), true},
		{"one over", strings.Repeat("x", fits+1), false},
		{"escaped", strings.Repeat(`\"`, fits/2+1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			writeFiles(t, e.store, map[string]string{
				"big.jsonl": `{"v":1,"type":"title","ts":"` + ts + `","title":"` + tc.title + `"}` + "\n",
			})
			p := e.start(t)
			answers := []scouttest.Msg{discover(p, nil), p.Call(wire.MethodSessionList, nil), p.Call(wire.MethodSessionOpen, map[string]any{"id": "big"})}
			want := []wire.Code{wire.CodeDiscoveryPageBytes, wire.CodeDiscoveryPageBytes, wire.CodeSessionInvalid}
			for i, m := range answers {
				if tc.fit {
					want[i] = ""
				}
				if m.Code() != want[i] {
					t.Errorf("answer %d: %.100s, want code %q", i, m.Raw, want[i])
				}
			}
		})
	}
}
