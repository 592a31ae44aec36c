package sessions_test

import (
	"os"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
)

// BigStoreEnv, set to 1, runs TestDiscoverMemory2GiB: it writes 2 GiB of
// histories (streamed, removed afterwards) and takes about a minute, so the
// default test run leaves it out.
const BigStoreEnv = "SCOUT_TEST_BIG_STORE"

// TestDiscoverMemory2GiB discovers a 2 GiB store with the real binary and
// checks that the backend's peak RSS (VmHWM) stays under 64 MiB: memory is
// bounded by the 8 MiB record, whatever the store's size. Run it without
// -race (the race detector's shadow memory is not the backend's).
func TestDiscoverMemory2GiB(t *testing.T) {
	if os.Getenv(BigStoreEnv) != "1" {
		t.Skip("set " + BigStoreEnv + "=1 to write and discover a 2 GiB store")
	}
	e := newEnv(t)
	var total int64
	// 192 histories of 8 MiB in records of 64 KiB to 1 MiB, this
	// workspace's and foreign ones, ...
	for i, size := range []int{64 << 10, 256 << 10, 1 << 20, 512 << 10} {
		hs := sessionstest.Many(48, string(rune('a'+i)), e.ws, sessionstest.History{Records: (8 << 20) / size, TextBytes: size})
		total += sessionstest.MustWrite(t, e.store, hs...)
	}
	foreign := sessionstest.Many(32, "f", "/srv/elsewhere", sessionstest.History{Records: 64, TextBytes: 64 << 10})
	total += sessionstest.MustWrite(t, e.store, foreign...)
	// ... and 4 histories of 16 records of nearly 8 MiB, the largest
	// record allowed.
	huge := sessionstest.Many(4, "h", e.ws, sessionstest.History{Records: 16, TextBytes: 8<<20 - 200})
	total += sessionstest.MustWrite(t, e.store, huge...)
	t.Logf("store: %d bytes (%.2f GiB) in %d histories", total, float64(total)/(1<<30), 4*48+32+4)
	if total < 2<<30 {
		t.Fatalf("the store is only %d bytes", total)
	}
	p := e.start(t)
	before := p.VmHWM()
	start := time.Now()
	pages := mustFollow(t, p)
	elapsed := time.Since(start)
	hwm := p.VmHWM()
	rows := len(ids(pages))
	t.Logf("rows %d, pages %d, %v, %.0f MB/s, VmHWM %d KiB (%d KiB before discovery)", rows, len(pages), elapsed, float64(total)/1e6/elapsed.Seconds(), hwm, before)
	if rows != 4*48+4 {
		t.Errorf("%d rows", rows)
	}
	if last := pages[len(pages)-1]; last.Notices.SessionsOtherDirectories != 32 || last.Notices.SessionsOmittedInvalid != 0 {
		t.Errorf("notices %+v", last.Notices)
	}
	if hwm >= 64<<10 {
		t.Errorf("peak RSS %d KiB, want under 64 MiB", hwm)
	}
}
