package backend_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// BenchmarkProjectList10k pages through a folder of 10,000 entries (1,000
// directories, 9,000 files) with project.list over the real binary's
// pipes: every page is scanned, stat'ed, fitted, its ids minted, encoded
// and decoded by the client. One op is the whole folder.
func BenchmarkProjectList10k(b *testing.B) {
	dir := makefs.WideFolder(b, 10000)
	p := scouttest.Start(b, scouttest.Options{Dir: dir, Env: []string{"SCOUT_HOME=" + filepath.Join(b.TempDir(), "home")}})
	p.Initialize(wire.MethodProjectList)
	for _, limit := range []int{1000, 200} {
		b.Run(fmt.Sprintf("limit=%d", limit), func(b *testing.B) {
			pages := 0
			cpu0 := childCPU(b, p)
			for b.Loop() {
				pages = 0
				n := 0
				ref := wire.RootRef
				for {
					var pg wire.ListResult
					p.MustCall(wire.MethodProjectList, map[string]any{"ref": ref, "limit": limit}, &pg)
					n += len(pg.Entries)
					pages++
					if pg.NextRef == "" {
						break
					}
					ref = pg.NextRef
				}
				if n != 10000 {
					b.Fatalf("listed %d", n)
				}
			}
			b.ReportMetric(float64(childCPU(b, p)-cpu0)/float64(b.N)/1e6, "backend-cpu-ms/op")
			b.ReportMetric(float64(pages), "pages")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(pages), "µs/page")
		})
	}
}

// childCPU is the backend's user plus system CPU time in nanoseconds, from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 10 ms).
func childCPU(b *testing.B, p *scouttest.Proc) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Cmd.Process.Pid))
	if err != nil {
		b.Fatal(err)
	}
	fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return (utime + stime) * 10e6
}
