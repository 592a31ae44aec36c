package rpcclient_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/rpcclient"
)

// startIndex starts a backend over dir negotiating project.index, asking
// ahead or not.
func startIndex(t *testing.T, dir string, ahead bool) *rpcclient.Client {
	t.Helper()
	exe := scouttest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	c, err := rpcclient.Start(ctx, rpcclient.Options{
		Exe:          exe,
		Dir:          dir,
		Env:          append(scouttest.Environ(), "SCOUT_HOME="+t.TempDir()),
		Capabilities: []string{wire.MethodProjectFiles, wire.MethodProjectIndex, wire.MethodCancel},
		IndexAhead:   ahead,
	})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// indexTree is a tree of 24,000 files in 24 folders: three pages or more,
// on a RAM file system when there is one.
func indexTree(t *testing.T) string {
	t.Helper()
	dir := makefs.ScratchDir(t)
	var paths []string
	for d := range 24 {
		for f := range 1000 {
			paths = append(paths, fmt.Sprintf("d%02d/f%04d", d, f))
		}
	}
	if err := makefs.Bulk(dir, paths); err != nil {
		t.Fatal(err)
	}
	return dir
}

// walkAll follows a fresh walk to its end and returns its pages' entries
// and progress words.
func walkAll(t *testing.T, c *rpcclient.Client) (entries []wire.FileEntry, words []string) {
	t.Helper()
	ctx := context.Background()
	var cursor *string
	for {
		page, err := c.ProjectIndex(ctx, cursor)
		if err != nil {
			t.Fatalf("page %d: %v", len(words), err)
		}
		entries, words = append(entries, page.Entries...), append(words, page.Progress)
		if page.Complete {
			if page.Cursor != nil {
				t.Fatal("a complete page with a cursor")
			}
			return entries, words
		}
		if page.Cursor == nil {
			t.Fatal("an incomplete page without a cursor")
		}
		cursor = page.Cursor
	}
}

// Asking ahead changes nothing the caller sees: the same entries, in the
// same order, page by page, as a walk that waits for each page before
// asking for the next.
func TestIndexAskingAheadIsTheSameWalk(t *testing.T) {
	t.Parallel()
	dir := indexTree(t)
	want, wantWords := walkAll(t, startIndex(t, dir, false))
	got, gotWords := walkAll(t, startIndex(t, dir, true))
	// 10,000 entries a page at most: three pages or more either way (where
	// they end depends on the step deadline too, on a loaded machine).
	if len(wantWords) < 3 || len(gotWords) < 3 {
		t.Fatalf("the walks took %d and %d pages; the test needs three or more", len(wantWords), len(gotWords))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("asking ahead: %d entries in pages %v; waiting: %d entries in pages %v", len(got), gotWords, len(want), wantWords)
	}
	if len(want) != 24*1000+24 {
		t.Fatalf("%d entries, want %d", len(want), 24*1000+24)
	}
}

// A page asked for ahead that the caller does not take (it starts over
// instead) is dropped: the fresh walk is served once that step is done,
// from its start, and the walk before it is gone.
func TestIndexAskedAheadAndNotTaken(t *testing.T) {
	t.Parallel()
	c := startIndex(t, indexTree(t), true)
	first, err := c.ProjectIndex(context.Background(), nil)
	if err != nil || first.Cursor == nil {
		t.Fatalf("first page: %v (complete %v)", err, first.Complete)
	}
	again, err := indexPatiently(c, nil) // the step asked for ahead may still hold the scan slot
	if err != nil {
		t.Fatalf("a fresh walk after a page asked ahead: %v", err)
	}
	n := min(len(again.Entries), len(first.Entries)) // where a page ends depends on the step deadline too
	if n == 0 || !slices.Equal(again.Entries[:n], first.Entries[:n]) {
		t.Fatal("the fresh walk did not start from the beginning")
	}
	if _, err := indexPatiently(c, first.Cursor); !isCode(err, wire.CodeStaleRevision) {
		t.Fatalf("the first walk's cursor after a fresh walk: %v, want stale_revision", err)
	}
	if _, err := c.Status(context.Background()); err != nil {
		t.Fatalf("status: %v", err)
	}
}

func isCode(err error, code wire.Code) bool {
	var we *wire.Error
	return errors.As(err, &we) && we.Code == code
}

// indexPatiently is ProjectIndex, retried while the backend is busy.
func indexPatiently(c *rpcclient.Client, cursor *string) (wire.ProjectIndexResult, error) {
	for i := 0; ; i++ {
		page, err := c.ProjectIndex(context.Background(), cursor)
		if !isCode(err, wire.CodeBusy) || i == 200 {
			return page, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}
