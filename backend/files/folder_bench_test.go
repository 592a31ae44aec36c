package files

import (
	"context"
	"fmt"
	"syscall"
	"testing"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
)

// BenchmarkPages10k lists a folder of 10,000 entries (1,000 directories,
// 9,000 files) page by page, as project.list does without the ids: every
// page opens the folder through the policy, scans it, stats the page's
// entries and fits the page into the byte bound. One op is the whole
// folder.
func BenchmarkPages10k(b *testing.B) {
	dir := makefs.WideFolder(b, 10000)
	root, pol := openView(b, dir, policy.Rules{RespectIgnore: true})
	for _, limit := range []int{1000, 200} {
		b.Run(fmt.Sprintf("limit=%d", limit), func(b *testing.B) {
			b.ReportAllocs()
			pages := 0
			cpu0 := cpuTime()
			for b.Loop() {
				pages = listPages(b, root, pol, limit)
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(pages), "pages")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/entry")
		})
	}
}

// cpuTime is the process's user plus system CPU time in nanoseconds:
// steadier than the wall clock on a shared machine.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func listPages(b *testing.B, root *fsguard.Root, pol *policy.Policy, limit int) int {
	var after *Key
	n, pages := 0, 0
	for {
		f, err := OpenFolder(root, pol, "")
		if err != nil {
			b.Fatal(err)
		}
		items, more, err := f.Page(context.Background(), after, limit)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		entries := make([]wire.ListEntry, len(items))
		for i, it := range items {
			entries[i] = ListEntry(it)
		}
		if _, err := FitList("b1", 1, entries, more, wire.DefaultListExtension.PageBytes); err != nil {
			b.Fatal(err)
		}
		n += len(items)
		pages++
		if !more {
			if n != 10000 {
				b.Fatalf("listed %d", n)
			}
			return pages
		}
		k := items[len(items)-1].Key()
		after = &k
	}
}
