package refs

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"sync"
	"testing"
	"time"
)

// clock is an injectable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func newRegistry(max int) (*Registry[string], *clock) {
	c := &clock{now: time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)}
	return New[string](Options{TTL: 15 * time.Minute, Max: max, Now: c.Now}), c
}

var scope = Scope{Workspace: "/w", Generation: 1}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

func TestIDShape(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewID()
		if !idPattern.MatchString(id) {
			t.Fatalf("id %q is not 43 characters of base64url", id)
		}
		b, err := base64.RawURLEncoding.DecodeString(id)
		if err != nil || len(b) != 32 {
			t.Fatalf("id %q does not decode to 32 bytes", id)
		}
		if seen[id] {
			t.Fatal("an id repeated")
		}
		seen[id] = true
	}
}

func TestIDsAreNotDerivedFromTheTarget(t *testing.T) {
	r, _ := newRegistry(10)
	a := r.Mint(scope, File, "same/path")
	b := r.Mint(scope, File, "same/path")
	if a == b {
		t.Fatal("the same target got the same id twice")
	}
	for _, id := range []string{a, b} {
		if got, ok := r.Resolve(scope, File, id); !ok || got != "same/path" {
			t.Fatalf("Resolve = %q, %v", got, ok)
		}
	}
}

func TestResolveRefusals(t *testing.T) {
	r, c := newRegistry(3)
	file := r.Mint(scope, File, "f")
	cases := []struct {
		name  string
		scope Scope
		kind  Kind
		id    string
	}{
		{"unknown well-formed id", scope, File, NewID()},
		{"empty id", scope, File, ""},
		{"wrong kind: folder", scope, Folder, file},
		{"wrong kind: continuation", scope, Continuation, file},
		{"other generation", Scope{Workspace: "/w", Generation: 2}, File, file},
		{"other workspace", Scope{Workspace: "/x", Generation: 1}, File, file},
	}
	for _, tc := range cases {
		if _, ok := r.Resolve(tc.scope, tc.kind, tc.id); ok {
			t.Errorf("%s: resolved", tc.name)
		}
	}
	if _, ok := r.Resolve(scope, File, file); !ok {
		t.Fatal("a refusal of the wrong kind must not consume the id")
	}
	c.Add(15*time.Minute - time.Nanosecond)
	if _, ok := r.Resolve(scope, File, file); !ok {
		t.Fatal("expired before its time to live")
	}
	c.Add(time.Nanosecond)
	if _, ok := r.Resolve(scope, File, file); ok {
		t.Fatal("resolved at its time to live")
	}
	if r.Len() != 0 {
		t.Fatalf("Len = %d after expiry", r.Len())
	}
}

func TestEvictsOldestFirst(t *testing.T) {
	r, c := newRegistry(20000)
	ids := make([]string, 20001)
	for i := range ids {
		ids[i] = r.Mint(scope, File, fmt.Sprint(i))
		c.Add(time.Microsecond)
	}
	if r.Len() != 20000 {
		t.Fatalf("Len = %d, want 20000", r.Len())
	}
	if _, ok := r.Resolve(scope, File, ids[0]); ok {
		t.Fatal("the oldest id survived the 20,001st")
	}
	for _, i := range []int{1, 10000, 20000} {
		if got, ok := r.Resolve(scope, File, ids[i]); !ok || got != fmt.Sprint(i) {
			t.Fatalf("id %d: %q, %v", i, got, ok)
		}
	}
}

func TestRevokeBefore(t *testing.T) {
	r, _ := newRegistry(10)
	id := r.Mint(scope, Folder, "d")
	r.RevokeBefore(2)
	if _, ok := r.Resolve(scope, Folder, id); ok {
		t.Fatal("a revoked id resolved")
	}
	late := r.Mint(scope, Folder, "d") // a request that raced the change
	if _, ok := r.Resolve(scope, Folder, late); ok || r.Len() != 0 {
		t.Fatal("an id of a revoked generation was stored")
	}
	next := Scope{Workspace: "/w", Generation: 2}
	if _, ok := r.Resolve(next, Folder, r.Mint(next, Folder, "d")); !ok {
		t.Fatal("an id of the new generation did not resolve")
	}
}

func TestExpiryWithBackwardsClock(t *testing.T) {
	r, c := newRegistry(10)
	old := r.Mint(scope, File, "a")
	c.Add(-time.Hour)
	young := r.Mint(scope, File, "b") // minted "before" old
	c.Add(time.Hour + 15*time.Minute)
	for _, id := range []string{old, young} {
		if _, ok := r.Resolve(scope, File, id); ok {
			t.Fatal("an expired id resolved")
		}
	}
}

func TestQueueStaysBounded(t *testing.T) {
	r, c := newRegistry(100)
	for range 100000 {
		r.Mint(scope, File, "x")
		c.Add(time.Second) // 900 live at most by time, 100 by count
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.queue) - r.head; n > 100 || len(r.queue) > 400 {
		t.Fatalf("queue holds %d entries (%d slots) for %d live ids", n, len(r.queue), len(r.live))
	}
}

func TestConcurrentUse(t *testing.T) {
	r, _ := newRegistry(1000)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				id := r.Mint(scope, File, fmt.Sprint(g, i))
				r.Resolve(scope, File, id)
				if i%500 == 0 {
					r.RevokeBefore(1)
				}
			}
		})
	}
	wg.Wait()
	if r.Len() > 1000 {
		t.Fatalf("Len = %d over Max", r.Len())
	}
}
