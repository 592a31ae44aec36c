package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/internal/testhome"
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/tui/bridge"
)

// launchTreeFiles is the flat tree's size: a truncated snapshot, then a
// walk of two pages (page_entries 10,000).
const launchTreeFiles = 12000

var (
	launchTreeOnce sync.Once
	launchTreeDir  string
)

// launchTree is one flat tree of launchTreeFiles files for the tests of
// the early calls.
func launchTree(t *testing.T) string {
	t.Helper()
	launchTreeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "scout-launch-")
		if err != nil {
			t.Fatal(err)
		}
		var fx []string
		for i := range launchTreeFiles {
			fx = append(fx, fmt.Sprintf("f%05d.go", i))
		}
		if err := makefs.Bulk(dir, fx); err != nil {
			t.Fatal(err)
		}
		testhome.AtExit(func() { os.RemoveAll(dir) })
		launchTreeDir = dir
	})
	if launchTreeDir == "" {
		t.Fatal("no tree")
	}
	return launchTreeDir
}

// startLaunchChild starts a real backend child in dir, negotiated as the
// picker negotiates, its step deadline lifted (a loaded machine would end
// steps early; the tests count pages).
func startLaunchChild(t *testing.T, dir string) *rpcclient.Client {
	t.Helper()
	env := append(os.Environ(), "SCOUT_DEBUG_METHODS=1", "SCOUT_DEBUG_INDEX_STEP_MS=600000")
	bin := scouttest.Binary(t) // built first: the build is not the child's start
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	c, err := rpcclient.Start(ctx, rpcclient.Options{Exe: bin, Dir: dir, Env: env, Capabilities: bridge.Required, Optional: bridge.Optional})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// earlySnapshot starts the early calls on c and takes their snapshot, as
// the Files page does. A scan that passed its 2.5 s deadline (a loaded
// machine under -race) is taken again with new early calls, as the page
// would rescan. The timed-out scan's worker keeps the backend's one scan
// slot until it returns (§5), so the rescan meets busy until then and is
// sent again.
func earlySnapshot(t *testing.T, c *rpcclient.Client, index bool) (*prefetch, wire.ProjectFilesResult) {
	t.Helper()
	timedOut := false
	deadline := time.Now().Add(scouttest.DefaultTimeout)
	for try := 0; ; try++ {
		p := prefetchFiles(c, index)
		snap, err := p.ProjectFiles(context.Background())
		if err == nil {
			return p, snap
		}
		p.abandon()
		code := bridge.Code(err)
		switch {
		case code == wire.CodeScanTimeout && try < 5:
			timedOut = true
		case code == wire.CodeBusy && timedOut && time.Now().Before(deadline):
			time.Sleep(20 * time.Millisecond) // polling for the timed-out worker's end
		default:
			t.Fatalf("the early snapshot: %v", err)
		}
		<-p.idle // the early calls of the scan that failed are over
	}
}

// follow walks the index through p as the Files page does, from a fresh
// walk to its end, and returns the entries.
func follow(t *testing.T, p *prefetch) []wire.FileEntry {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	var all []wire.FileEntry
	var cursor *string
	for range 100 {
		page, err := p.ProjectIndex(ctx, cursor)
		if err != nil {
			t.Fatalf("project.index after %d entries: %v", len(all), err)
		}
		all = append(all, page.Entries...)
		if page.Complete {
			return all
		}
		cursor = page.Cursor
	}
	t.Fatal("the walk does not end")
	return nil
}

func checkEveryFileOnce(t *testing.T, entries []wire.FileEntry) {
	t.Helper()
	seen := map[string]bool{}
	for _, e := range entries {
		if seen[e.Path] {
			t.Fatalf("%s listed twice", e.Path)
		}
		seen[e.Path] = true
	}
	if len(seen) != launchTreeFiles {
		t.Fatalf("%d entries, want %d", len(seen), launchTreeFiles)
	}
}

// TestEarlyStepsFollowTheSnapshot: after a truncated snapshot the early
// calls walk the index ahead of the page, a step as soon as the page
// before is in, up to the walk's end (two pages here); the page's
// calls then take them all, and the walk lists every file once.
func TestEarlyStepsFollowTheSnapshot(t *testing.T) {
	t.Parallel()
	c := startLaunchChild(t, launchTree(t))
	p, snap := earlySnapshot(t, c, true)
	defer p.abandon()
	if !snap.Truncated {
		t.Fatal("the snapshot is not truncated")
	}
	deadline := time.Now().Add(scouttest.DefaultTimeout)
	for {
		p.mu.Lock()
		ended, claimed := p.ended, len(p.steps)
		p.mu.Unlock()
		if ended {
			if claimed != 2 {
				t.Fatalf("%d steps asked for early, want the walk's 2", claimed)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the early steps do not end")
		}
		time.Sleep(10 * time.Millisecond) // polling the early calls' state
	}
	checkEveryFileOnce(t, follow(t, p))
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.steps) != 0 {
		t.Fatalf("%d early steps were not taken", len(p.steps))
	}
}

// TestThePageOvertakesTheEarlySteps: the page asking for each step the
// moment it has the page before races the early calls; whoever asks,
// every cursor is sent once (a cursor sent twice makes the walk
// stale_revision), and the walk lists every file once. A second fresh
// walk is the page's own, also one started while the early steps still
// run: it waits for them, since a step of the early walk answered after
// it would abandon it.
func TestThePageOvertakesTheEarlySteps(t *testing.T) {
	t.Parallel()
	dir := launchTree(t)
	for range 3 {
		c := startLaunchChild(t, dir)
		p, _ := earlySnapshot(t, c, true)
		checkEveryFileOnce(t, follow(t, p))
		checkEveryFileOnce(t, follow(t, p))
		p.abandon()
	}
	for range 3 {
		c := startLaunchChild(t, dir)
		p, _ := earlySnapshot(t, c, true)
		if _, err := p.ProjectIndex(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		checkEveryFileOnce(t, follow(t, p)) // while the early steps go on
		p.abandon()
	}
}

// TestNoEarlyStepsWithoutTheIndex: with index false no step is asked for
// early; the page's walk is its own.
func TestNoEarlyStepsWithoutTheIndex(t *testing.T) {
	t.Parallel()
	c := startLaunchChild(t, launchTree(t))
	p, _ := earlySnapshot(t, c, false)
	defer p.abandon()
	p.mu.Lock()
	claimed := len(p.steps)
	p.mu.Unlock()
	if claimed != 0 {
		t.Fatalf("%d steps asked for early", claimed)
	}
	checkEveryFileOnce(t, follow(t, p))
}

// TestSaysTruncated: the hint reads a report's own "truncated" member,
// not a path that spells it.
func TestSaysTruncated(t *testing.T) {
	t.Parallel()
	for _, truncated := range []bool{true, false} {
		rep := wire.ProjectFilesResult{CommandID: "c2", Generation: 1, Entries: []wire.FileEntry{{Path: `a"truncated":true`, Kind: wire.KindFile}}, Truncated: truncated}
		line, err := rep.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := saysTruncated(line); got != truncated {
			t.Errorf("saysTruncated(%s) = %v", line, got)
		}
	}
}
