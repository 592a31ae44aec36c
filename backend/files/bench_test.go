package files

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
)

// benchScan scans dir with the full default policy (ignore rules on) and
// reports allocations per selected entry.
func benchScan(b *testing.B, dir string) {
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	pol, err := policy.New(1, dir, policy.Rules{RespectIgnore: true, Deny: []string{"secrets/**"}})
	if err != nil {
		b.Fatal(err)
	}
	var entries int
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	for b.Loop() {
		res, err := Scan(context.Background(), root, pol, DefaultLimits)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Report("bench", 1, res, 1<<20); err != nil {
			b.Fatal(err)
		}
		entries = len(res.Selected)
	}
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(entries), "entries")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(b.N)/float64(entries), "allocs/entry")
}

// BenchmarkScanGoroot scans $(go env GOROOT)/src.
func BenchmarkScanGoroot(b *testing.B) {
	benchScan(b, filepath.Join(goroot(b), "src"))
}

// goroot is $(go env GOROOT) (runtime.GOROOT is deprecated).
func goroot(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatalf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// BenchmarkScanGenerated scans a generated tree of 100,000 files (see
// GenerateTree), made once in SCOUT_BENCH_TREE or a temporary directory.
func BenchmarkScanGenerated(b *testing.B) {
	benchScan(b, generated(b))
}

// generated is the generated 100,000-file tree, made once in
// SCOUT_BENCH_TREE (kept) or a temporary directory.
func generated(b *testing.B) string {
	dir := os.Getenv("SCOUT_BENCH_TREE")
	if dir == "" {
		dir = b.TempDir()
	}
	if err := GenerateTree(dir, 100000); err != nil {
		b.Fatal(err)
	}
	return dir
}

// GenerateTree makes a deterministic tree of n files in dir (unless it
// already has one): 10 top-level directories, each with 10 subdirectories of
// 10 subdirectories, files spread evenly, plus a .gitignore.
func GenerateTree(dir string, n int) error {
	marker := filepath.Join(dir, ".generated")
	if _, err := os.Stat(marker); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.tmp\nbuild/\n"), 0o644); err != nil {
		return err
	}
	leaves := 1000
	for i := range n {
		leaf := i % leaves
		d := filepath.Join(dir, fmt.Sprintf("pkg%02d", leaf/100), fmt.Sprintf("mod%02d", leaf/10%10), fmt.Sprintf("part%02d", leaf%10))
		if i < leaves {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("file%06d.go", i)), nil, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(marker, nil, 0o644)
}

// BenchmarkIndexGoroot walks $(go env GOROOT)/src to its end with
// project.index's bounds, every page dropped.
func BenchmarkIndexGoroot(b *testing.B) {
	benchIndex(b, filepath.Join(goroot(b), "src"))
}

// BenchmarkIndexGenerated walks the generated 100,000-file tree (see
// BenchmarkScanGenerated) to its end.
func BenchmarkIndexGenerated(b *testing.B) {
	benchIndex(b, generated(b))
}

func benchIndex(b *testing.B, dir string) {
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	pol, err := policy.New(1, dir, policy.Rules{RespectIgnore: true, Deny: []string{"secrets/**"}})
	if err != nil {
		b.Fatal(err)
	}
	pageBytes, err := IndexPageBytes("bench", 1)
	if err != nil {
		b.Fatal(err)
	}
	entries, steps := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		x := NewIndex(root, pol, DefaultIndexLimits)
		entries, steps = 0, 0
		for {
			page, word, err := x.Step(context.Background(), Bounds{Deadline: time.Now().Add(time.Hour), PageBytes: pageBytes})
			if err != nil {
				b.Fatal(err)
			}
			entries += len(page)
			steps++
			if word == wire.ProgressComplete {
				break
			}
		}
		x.Close()
	}
	b.ReportMetric(float64(entries), "entries")
	b.ReportMetric(float64(steps), "steps")
}
