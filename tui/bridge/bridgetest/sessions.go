package bridgetest

import (
	"context"
	"fmt"
	"slices"

	"github.com/scoutdev/scout/backend/wire"
)

// DiscoverFunc answers session.discover call number n (1-based) for cursor
// in place of the default answer; it may block on ctx.
type DiscoverFunc func(ctx context.Context, n int, cursor *string) (wire.DiscoverResult, error)

// OpenFunc answers session.open call number n in place of the default
// answer; it may block on ctx.
type OpenFunc func(ctx context.Context, n int, id string) (wire.SessionOpenResult, error)

// sessionState is the fake's one discovery scan and its attachment.
type sessionState struct {
	discover DiscoverFunc
	open     OpenFunc
	scan     int    // scans started
	off      int    // rows of Options.Sessions already served
	live     string // the one cursor that continues the scan
	attached string
}

func (s *sessionState) restart() {
	s.live, s.off, s.attached = "", 0, ""
}

// SetDiscover replaces the session.discover answers.
func (f *Fake) SetDiscover(fn DiscoverFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions.discover = fn
}

// SetOpen replaces the session.open answers.
func (f *Fake) SetOpen(fn OpenFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions.open = fn
}

// Attached returns the attached session's id ("" for none).
func (f *Fake) Attached() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sessions.attached
}

// Page is one session.discover page: rows, then a cursor and the progress
// word, or complete when cursor is "".
func Page(rows []wire.SessionRow, cursor, progress string, notices wire.SessionNotices) wire.DiscoverResult {
	res := wire.DiscoverResult{
		Sessions: slices.Clone(rows), Progress: progress, Recovery: wire.RecoveryContinueCursor,
		Consistency: wire.ConsistencyProvisional, Notices: notices,
	}
	if res.Sessions == nil {
		res.Sessions = []wire.SessionRow{}
	}
	if cursor == "" {
		res.Complete, res.Progress, res.Recovery = true, wire.ProgressComplete, wire.RecoveryNone
	} else {
		res.Cursor = &cursor
	}
	return res
}

// SessionDiscover implements bridge.Backend: by default Options.Sessions in
// pages of Options.SessionPage rows, with single-use cursors (a cursor
// that is not the live one is stale_revision, as a reused one is).
func (f *Fake) SessionDiscover(ctx context.Context, cursor *string) (wire.DiscoverResult, error) {
	f.mu.Lock()
	n, _, err := f.beginLocked(wire.MethodSessionDiscover)
	fn := f.sessions.discover
	if err != nil || fn != nil {
		f.mu.Unlock()
		if err != nil {
			return wire.DiscoverResult{}, err
		}
		return fn(ctx, n, cursor)
	}
	res, err := f.discoverLocked(cursor)
	f.mu.Unlock()
	if err == nil {
		err = ctx.Err()
	}
	return res, err
}

func (f *Fake) discoverLocked(cursor *string) (wire.DiscoverResult, error) {
	s := &f.sessions
	switch {
	case cursor == nil:
		s.scan++
		s.off = 0
	case *cursor != s.live || s.live == "":
		s.live = ""
		return wire.DiscoverResult{}, wire.NewError(wire.CodeStaleRevision)
	}
	size := f.opts.SessionPage
	if size <= 0 {
		size = len(f.opts.Sessions)
	}
	end := min(s.off+size, len(f.opts.Sessions))
	rows := f.opts.Sessions[s.off:end]
	s.off, s.live = end, ""
	if end < len(f.opts.Sessions) {
		s.live = fmt.Sprintf("s%d.%d", s.scan, end)
	}
	return Page(rows, s.live, wire.ProgressPageEntries, wire.SessionNotices{}), nil
}

// SessionOpen implements bridge.Backend: by default a row of
// Options.Sessions with that id and agent is attached (abandoning the
// scan, as a real open makes it stale); any other is not_found.
func (f *Fake) SessionOpen(ctx context.Context, id, agent string) (wire.SessionOpenResult, error) {
	f.mu.Lock()
	n, _, err := f.beginLocked(wire.MethodSessionOpen)
	fn := f.sessions.open
	f.mu.Unlock()
	if err != nil {
		return wire.SessionOpenResult{}, err
	}
	var res wire.SessionOpenResult
	if fn != nil {
		res, err = fn(ctx, n, id)
	} else {
		res, err = f.defaultOpen(id, agent)
	}
	if err == nil {
		f.mu.Lock()
		f.sessions.attached, f.sessions.live = res.Attachment.SessionID, ""
		f.mu.Unlock()
	}
	return res, err
}

func (f *Fake) defaultOpen(id, agent string) (wire.SessionOpenResult, error) {
	i := slices.IndexFunc(f.opts.Sessions, func(r wire.SessionRow) bool { return r.ID == id && rowAgent(r) == agent })
	if i < 0 {
		return wire.SessionOpenResult{}, wire.NewError(wire.CodeNotFound)
	}
	a := wire.Attachment{SessionID: id, Agent: agent, Saved: true}
	return wire.SessionOpenResult{Session: f.opts.Sessions[i], Attachment: a}, nil
}

// rowAgent is a scripted row's agent: scout's own when the script names none.
func rowAgent(r wire.SessionRow) string {
	if r.Agent == "" {
		return wire.AgentScout
	}
	return r.Agent
}
