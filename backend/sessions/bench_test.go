package sessions_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions"
	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// benchStore writes n histories of about size bytes each (records of
// recordBytes) for the workspace ws and returns the home and total bytes.
func benchStore(b *testing.B, n, size, recordBytes int, ws string) (string, int64) {
	b.Helper()
	home, store := sessionstest.Home(b)
	records := max(size/recordBytes, 3)
	hs := sessionstest.Many(n, "b", ws, sessionstest.History{Records: records, TextBytes: recordBytes, UserText: "benchmark"})
	return home, sessionstest.MustWrite(b, store, hs...)
}

func runDiscovery(b *testing.B, svc *sessions.Service) int {
	rows := 0
	var cursor *string
	for {
		res, commit, err := svc.Discover(context.Background(), cursor)
		if err != nil {
			b.Fatal(err)
		}
		if commit != nil {
			commit()
		}
		rows += len(res.Sessions)
		if res.Complete {
			return rows
		}
		cursor = res.Cursor
	}
}

// BenchmarkDiscover measures a whole discovery (every page, the validation
// pass included) over a warm store; MB/s is history bytes per second.
func BenchmarkDiscover(b *testing.B) {
	for _, c := range []struct {
		name                 string
		n, size, recordBytes int
	}{
		{"64x4MiB_64KiBrecords", 64, 4 << 20, 64 << 10},
		{"16x16MiB_1MiBrecords", 16, 16 << 20, 1 << 20},
		{"4096x16KiB_1KiBrecords", 4096, 16 << 10, 1 << 10},
	} {
		b.Run(c.name, func(b *testing.B) {
			ws := b.TempDir()
			home, total := benchStore(b, c.n, c.size, c.recordBytes, ws)
			svc := sessions.New(sessions.Config{Home: home, Workspace: ws})
			b.SetBytes(total)
			cpu := startCPU()
			for b.Loop() {
				if rows := runDiscovery(b, svc); rows != c.n {
					b.Fatalf("%d rows", rows)
				}
			}
			cpu.report(b, total)
		})
	}
}

// BenchmarkParseRecord measures the record parser alone on one 64 KiB
// record padded like the benchmark stores' (an escape or a multi-byte
// character every 16 bytes or so).
func BenchmarkParseRecord(b *testing.B) {
	const chunk = `lorem ipsum \"dolor\" sit amet, consectetur — adipiscing elit\n `
	text := strings.Repeat(chunk, (64<<10)/len(chunk))
	line := []byte(`{"v":1,"type":"assistant","ts":"2026-01-02T03:04:05Z","cwd":"/w","text":"` + text + `"}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, err := sessions.ParseRecord(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBytes is the floor: reading the same histories with a
// 128 KiB buffer and doing nothing else (what cat does).
func BenchmarkReadBytes(b *testing.B) {
	ws := b.TempDir()
	home, total := benchStore(b, 64, 4<<20, 64<<10, ws)
	names, _ := filepath.Glob(filepath.Join(home, "sessions", "*"))
	buf := make([]byte, 128<<10)
	b.SetBytes(total)
	cpu := startCPU()
	for b.Loop() {
		for _, name := range names {
			f, err := os.Open(name)
			if err != nil {
				b.Fatal(err)
			}
			io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, buf)
			f.Close()
		}
	}
	cpu.report(b, total)
}

// cpuClock measures the process's CPU time (user and system), which a
// shared, loaded machine disturbs far less than wall time.
type cpuClock struct{ start time.Duration }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() cpuClock { return cpuClock{cpuTime()} }

// report adds cpu-MB/s: bytes per iteration over CPU seconds per iteration.
func (c cpuClock) report(b *testing.B, bytes int64) {
	sec := (cpuTime() - c.start).Seconds() / float64(b.N)
	if sec > 0 {
		b.ReportMetric(float64(bytes)/1e6/sec, "cpu-MB/s")
	}
}

// BenchmarkFirstPage measures the time to the first page of a fresh scan
// over a store of 10,000 small histories, in process.
func BenchmarkFirstPage(b *testing.B) {
	ws := b.TempDir()
	home, _ := benchStore(b, 10000, 2<<10, 512, ws)
	svc := sessions.New(sessions.Config{Home: home, Workspace: ws})
	b.ResetTimer()
	for b.Loop() {
		res, _, err := svc.Discover(context.Background(), nil)
		if err != nil || len(res.Sessions) != 100 {
			b.Fatalf("%v %d", err, len(res.Sessions))
		}
	}
}

// BenchmarkFirstPageBlackbox measures the same through the real binary:
// request written to the child's stdin until the page is read from its
// stdout.
func BenchmarkFirstPageBlackbox(b *testing.B) {
	ws := b.TempDir()
	home, _ := benchStore(b, 10000, 2<<10, 512, ws)
	p := scouttest.Start(b, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}})
	p.Initialize(wire.MethodSessionDiscover)
	b.ResetTimer()
	for b.Loop() {
		var res wire.DiscoverResult
		p.MustCall(wire.MethodSessionDiscover, map[string]any{"cursor": nil}, &res)
		if len(res.Sessions) != 100 {
			b.Fatal(fmt.Sprint(len(res.Sessions)))
		}
	}
}

// BenchmarkDiscoverVsCat runs, on one store of 64 histories of 4 MiB
// (64 KiB records), a whole discovery in process, a whole discovery through
// the real binary (every page over the pipes), and `cat store/* >
// /dev/null`, the cost of just reading the bytes.
func BenchmarkDiscoverVsCat(b *testing.B) {
	ws := b.TempDir()
	home, total := benchStore(b, 64, 4<<20, 64<<10, ws)
	b.Run("discover", func(b *testing.B) {
		svc := sessions.New(sessions.Config{Home: home, Workspace: ws})
		b.SetBytes(total)
		for b.Loop() {
			runDiscovery(b, svc)
		}
	})
	b.Run("discover_blackbox", func(b *testing.B) {
		p := scouttest.Start(b, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}})
		p.Initialize(wire.MethodSessionDiscover)
		b.SetBytes(total)
		for b.Loop() {
			var cursor any
			for {
				var res wire.DiscoverResult
				p.MustCall(wire.MethodSessionDiscover, map[string]any{"cursor": cursor}, &res)
				if res.Complete {
					break
				}
				cursor = *res.Cursor
			}
		}
	})
	b.Run("cat", func(b *testing.B) {
		b.SetBytes(total)
		for b.Loop() {
			cmd := exec.Command("sh", "-c", "cat sessions/* > /dev/null")
			cmd.Dir = home
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		}
	})
}
