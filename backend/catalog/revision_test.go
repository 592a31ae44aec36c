package catalog

import "testing"

// The rules of docs/protocol.md §10.8.3 that no black-box test can time: a
// finished scan becomes current unless a higher revision was installed or a
// refresh was admitted since it began; an abandoned revision is dropped
// only while it is current.
func TestRevisionRules(t *testing.T) {
	s, _ := newService(t, Options{})
	scan := func() (*snapshot, uint64) {
		rev, epoch := s.beginScan()
		return &snapshot{rev: rev, revision: revisionName(rev)}, epoch
	}
	current := func() string {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.current == nil {
			return "none"
		}
		return s.current.revision
	}
	c1, e1 := scan()
	c2, e2 := scan()
	s.install(c2, e2)
	s.install(c1, e1) // finished last, but older
	if got := current(); got != "c2" {
		t.Fatalf("after c2 then c1: current %s, want c2", got)
	}
	c3, e3 := scan()
	s.invalidate() // a refresh admitted while c3 was scanning
	if got := current(); got != "none" {
		t.Fatalf("after an admitted refresh: current %s", got)
	}
	s.install(c3, e3)
	if got := current(); got != "none" {
		t.Fatalf("a scan begun before a refresh's admission became current (%s)", got)
	}
	c4, e4 := scan()
	s.install(c4, e4)
	s.abandon(c3.rev)
	if got := current(); got != "c4" {
		t.Fatalf("abandoning a revision that is not current dropped %s", got)
	}
	s.abandon(c4.rev)
	if got := current(); got != "none" || s.currentRevision("c4") != nil {
		t.Fatalf("abandoning the current revision left %s", got)
	}
}
