package policy

import (
	"context"
	"slices"
	"sync"
)

// Manager owns the sequence of policies of one backend process: the
// generation counter (starting at 1, only increasing), the rules in force,
// the protections reserved during transitions (kept for the process
// lifetime, whatever happens to the transition), and the settlement that
// requests wait for while a transition is in progress.
//
// A transition is Begin (the generation advances; the caller announces it),
// any number of Reserve calls, then Settle (with the new rules on success,
// without on failure or cancellation). Between Begin and Settle, Wait
// blocks; after Settle it returns the policy of the new generation, built
// from the rules in force plus every reservation.
type Manager struct {
	workspace string

	mu       sync.Mutex
	gen      int64
	rules    Rules
	closed   bool // the configuration could not be read: nothing is visible
	reserved []Rules
	cur      *Policy
	settled  chan struct{} // closed when no transition is in progress
}

// NewManager starts at generation 1 with rules (plus reserved) in force.
// closed makes every policy hide everything, for a configuration that
// could not be read.
func NewManager(workspace string, rules Rules, closed bool, reserved ...Rules) *Manager {
	m := &Manager{workspace: workspace, gen: 1, rules: rules, closed: closed, reserved: reserved, settled: make(chan struct{})}
	close(m.settled)
	m.cur = build(m.gen, workspace, rules, closed, reserved)
	return m
}

// build makes the policy of generation gen; a rule set that does not
// compile closes it rather than widening anything. It may touch the disk
// (protected paths are resolved), so it never runs under the lock.
func build(gen int64, workspace string, rules Rules, closed bool, reserved []Rules) *Policy {
	if closed {
		return Closed(gen)
	}
	p, err := New(gen, workspace, rules, reserved...)
	if err != nil {
		return Closed(gen)
	}
	return p
}

// Generation is the newest generation, announced or settled.
func (m *Manager) Generation() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.gen
}

// Wait returns the settled policy, waiting while a transition is in
// progress, or ctx's error.
func (m *Manager) Wait(ctx context.Context) (*Policy, error) {
	for {
		m.mu.Lock()
		ch := m.settled
		select {
		case <-ch:
			cur := m.cur
			m.mu.Unlock()
			return cur, nil
		default:
		}
		m.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Begin starts a transition: the generation advances and waiters block
// until Settle. It returns the new generation.
func (m *Manager) Begin() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gen++
	select {
	case <-m.settled:
		m.settled = make(chan struct{})
	default: // a transition is already open; it now ends at the new generation
	}
	return m.gen
}

// Reserve adds protections that hold from the next settlement on, for the
// rest of the process, whatever the transition's outcome.
func (m *Manager) Reserve(r Rules) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reserved = append(m.reserved, Rules{Deny: r.Deny, Protected: r.Protected})
}

// Settle ends the transition: adopt, when not nil, replaces the rules in
// force; the policy of the current generation is built from them plus
// every reservation and waiters are released.
func (m *Manager) Settle(adopt *Rules) *Policy {
	m.mu.Lock()
	if adopt != nil {
		m.rules = *adopt
	}
	gen, rules, closed, reserved := m.gen, m.rules, m.closed, slices.Clone(m.reserved)
	m.mu.Unlock()
	// Built outside the lock: Generation (asked by status and at admission
	// on the protocol loop) never waits for the disk. Transitions are
	// serialized by their callers (workspace.trust is selection-class).
	cur := build(gen, m.workspace, rules, closed, reserved)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cur = cur
	select {
	case <-m.settled:
	default:
		close(m.settled)
	}
	return m.cur
}

// Current returns the settled policy without waiting (during a transition,
// the previous generation's).
func (m *Manager) Current() *Policy {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cur
}
