// Package refs is the in-memory registry of the opaque ids project.list
// hands out (docs/protocol.md §5): folder ids, file ids and page continuations.
//
// An id is 32 bytes from crypto/rand, base64url without padding (43
// characters). It is never derived from what it stands for; the only way
// back from an id to its target is this registry, which lives in the
// backend's memory and nowhere else.
//
// Every id is bound to a Scope (the workspace and the policy generation it
// was minted under) and a Kind. Resolve succeeds only for the same scope
// and kind, within the time to live, while the id is among the newest Max
// ids and until RevokeBefore. Every other case, unknown ids included, is the
// same plain false: callers cannot tell them apart, and must not.
//
// Ids expire a fixed time after they were minted, so the oldest id is
// always the first to expire and the first to be evicted: one queue in
// minting order serves both.
package refs

import (
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"
)

// Length is the length of every id: 32 random bytes in base64url without
// padding.
const Length = 43

// idBytes is the number of random bytes behind an id.
const idBytes = 32

// Kind is what an id stands for.
type Kind uint8

// The kinds of ids.
const (
	Folder Kind = iota + 1
	File
	Continuation
)

// Scope is what an id is bound to besides its kind: the workspace (its
// canonical root) and the policy generation it was minted under.
type Scope struct {
	Workspace  string
	Generation int64
}

// Options configure a Registry.
type Options struct {
	// TTL is how long an id lives after it was minted.
	TTL time.Duration
	// Max is the number of ids that may live at once; minting one more
	// evicts the oldest.
	Max int
	// Now is the clock (time.Now when nil); tests inject their own.
	Now func() time.Time
}

// Registry maps live ids to their targets of type T. It is safe for
// concurrent use.
type Registry[T any] struct {
	opts Options

	mu     sync.Mutex
	minGen int64 // ids of older generations are revoked and never stored again
	live   map[string]*entry[T]
	queue  []*entry[T] // minting order; queue[head:] may hold dead entries
	head   int
}

type entry[T any] struct {
	id     string
	scope  Scope
	kind   Kind
	minted time.Time
	target T
	dead   bool // revoked, expired or evicted; still in the queue
}

// New returns an empty registry.
func New[T any](opts Options) *Registry[T] {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Registry[T]{opts: opts, live: map[string]*entry[T]{}}
}

// Mint returns a fresh id for target, bound to scope and kind. An id of a
// generation already revoked (a request that raced a policy change) is
// returned but not stored: it resolves to nothing.
func (r *Registry[T]) Mint(scope Scope, kind Kind, target T) string {
	id := NewID()
	r.mu.Lock()
	defer r.mu.Unlock()
	if scope.Generation < r.minGen {
		return id
	}
	now := r.opts.Now()
	r.expireLocked(now)
	e := &entry[T]{id: id, scope: scope, kind: kind, minted: now, target: target}
	r.live[id] = e
	r.queue = append(r.queue, e)
	for len(r.live) > r.opts.Max {
		r.popLocked()
	}
	return id
}

// Resolve returns the target of id when id is live, of kind and minted in
// scope. Unknown, expired, evicted, revoked, foreign and wrong-kind ids are
// all simply not found.
func (r *Registry[T]) Resolve(scope Scope, kind Kind, id string) (T, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.opts.Now()
	r.expireLocked(now)
	var zero T
	e, ok := r.live[id]
	if !ok || e.kind != kind || e.scope != scope {
		return zero, false
	}
	if r.expired(e, now) {
		r.killLocked(e) // a clock that went backwards and forwards again
		return zero, false
	}
	return e.target, true
}

// RevokeBefore forgets every id and refuses to store ids of generations
// before gen from now on (a policy change to gen).
func (r *Registry[T]) RevokeBefore(gen int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.minGen = max(r.minGen, gen)
	clear(r.live)
	clear(r.queue)
	r.queue, r.head = r.queue[:0], 0
}

// Len is the number of live ids (expired ones may still be counted until
// the next Mint or Resolve).
func (r *Registry[T]) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.live)
}

func (r *Registry[T]) expired(e *entry[T], now time.Time) bool {
	return now.Sub(e.minted) >= r.opts.TTL
}

// expireLocked drops expired ids from the front of the queue, where the
// oldest are.
func (r *Registry[T]) expireLocked(now time.Time) {
	for r.head < len(r.queue) {
		e := r.queue[r.head]
		if !e.dead && !r.expired(e, now) {
			return
		}
		r.popLocked()
	}
}

// popLocked removes the oldest queued entry, compacting the queue once
// half of it is consumed.
func (r *Registry[T]) popLocked() {
	e := r.queue[r.head]
	r.queue[r.head] = nil
	r.head++
	r.killLocked(e)
	if r.head > len(r.queue)/2 && r.head > 64 {
		n := copy(r.queue, r.queue[r.head:])
		clear(r.queue[n:])
		r.queue, r.head = r.queue[:n], 0
	}
}

func (r *Registry[T]) killLocked(e *entry[T]) {
	if !e.dead {
		e.dead = true
		if r.live[e.id] == e {
			delete(r.live, e.id)
		}
	}
}

// NewID returns 43 characters of base64url from 32 CSPRNG bytes.
func NewID() string {
	var b [idBytes]byte
	rand.Read(b[:]) // never fails (crypto/rand crashes the program instead)
	return base64.RawURLEncoding.EncodeToString(b[:])
}
