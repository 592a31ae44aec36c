package sessions

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// openAttempts is how often session.open re-reads a history that changed
// while it was being read (an agent appending to it) before giving up.
const openAttempts = 3

// Open answers session.open for session id of agent: it re-validates the
// history (exists, a regular history reached without symlinks, fully
// readable, well formed by its store's rules, a session of this
// workspace) and returns its row with commit, which attaches it; commit
// must run atomically with the response (Call.OnCommit). On any error the
// attachment is untouched. An agent whose store is not read (narrowed out
// by configuration) has no sessions: not_found.
func (s *Service) Open(ctx context.Context, id, agent string) (*wire.SessionOpenResult, func(), error) {
	if !wire.ValidSessionID(id) {
		return nil, nil, wire.NewError(wire.CodeNotFound)
	}
	runs := s.runs(newCwdMatcher(s.cfg.Workspace))
	var r *run
	for _, c := range runs {
		if c.agent() == agent {
			r = c
		}
	}
	if r == nil {
		return nil, nil, wire.NewError(wire.CodeNotFound)
	}
	if r.db != nil {
		return s.openDB(ctx, r, id, agent)
	}
	t, err := r.src.open()
	if err != nil {
		return nil, nil, wire.NewError(wire.CodeSessionInvalid)
	}
	r.tree, r.opened = t, true
	w := &walker{runs: []*run{r}}
	defer w.closeRuns()
	row, err := w.find(ctx, r, id)
	if err != nil {
		return nil, nil, err
	}
	a := wire.Attachment{SessionID: id, Agent: agent, Saved: true}
	return &wire.SessionOpenResult{Session: row, Attachment: a}, func() { s.attach(a) }, nil
}

// openDB is Open for a store of databases.
func (s *Service) openDB(ctx context.Context, r *run, id, agent string) (*wire.SessionOpenResult, func(), error) {
	defer r.close()
	row, found, err := r.db.find(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if found != foundRow {
		return nil, nil, notFound[found]
	}
	a := wire.Attachment{SessionID: id, Agent: agent, Saved: true}
	return &wire.SessionOpenResult{Session: row, Attachment: a}, func() { s.attach(a) }, nil
}

// Outcomes of looking at one candidate history, worst first: a better one
// found later wins.
const (
	foundNothing = iota
	foundInvalid
	foundForeign
	foundRow
)

// find looks at every candidate history of id in r's store (names only;
// the prelude first, for the names it gives) and returns the row of the
// first that is this workspace's session id, or the error of the best
// outcome: cwd_mismatch for a session of another directory (one in
// another directory's project folder is not read, as discovery does not),
// session_invalid for one that is unsafe or unreadable, not_found.
func (w *walker) find(ctx context.Context, r *run, id string) (wire.SessionRow, error) {
	best := foundNothing
	b := unlimitedBudget(ctx)
	w.openPrelude(r)
	if err := w.readHeld(b, nil); err != nil {
		return wire.SessionRow{}, openError(err)
	}
	for r.readable() {
		if err := ctx.Err(); err != nil {
			return wire.SessionRow{}, err
		}
		f, name, typ, ok, err := r.tree.next()
		if err != nil {
			return wire.SessionRow{}, wire.NewError(wire.CodeSessionInvalid)
		}
		if !ok {
			break
		}
		e := r.src.entry(f, name)
		switch {
		case e.kind == entryDir && typ.IsDir():
			r.tree.descend(f, name, e.mine, e.root)
		case e.kind != entryHistory && e.kind != entryCounted || !r.src.candidate(name, id):
		case !typ.IsRegular():
			best = max(best, foundInvalid)
		case e.kind == entryCounted:
			// Another directory's project folder: discovery counts it
			// by name alone, and the agent would not resume it from
			// here, whatever cwd it records.
			best = max(best, foundForeign)
		default:
			row, found, err := w.readOne(r, f, name, id, b)
			if err != nil {
				return wire.SessionRow{}, err
			}
			if found == foundRow {
				return row, nil
			}
			best = max(best, found)
		}
	}
	return wire.SessionRow{}, notFound[best]
}

// notFound is the error of each outcome short of a row.
var notFound = [...]error{
	foundNothing: wire.NewError(wire.CodeNotFound),
	foundInvalid: wire.NewError(wire.CodeSessionInvalid),
	foundForeign: wire.NewError(wire.CodeCwdMismatch),
}

// readOne reads the candidate name of f in full (again, up to
// openAttempts times, while it changes) and says what it is.
func (w *walker) readOne(r *run, f *frame, name, id string, b *budget) (wire.SessionRow, int, error) {
	for attempt := 1; ; attempt++ {
		switch err := w.open(r, f, name); {
		case errors.Is(err, fsguard.ErrNotFound):
			return wire.SessionRow{}, foundNothing, nil // gone since it was listed
		case err != nil:
			return wire.SessionRow{}, foundInvalid, nil
		}
		h := w.reader
		var err error
		for done := false; !done && err == nil; {
			done, _, err = h.advance(&w.lb, b)
		}
		w.reader, w.rrun = nil, nil
		if err == nil && h.changed() {
			err = errStale
		}
		var row wire.SessionRow
		if err == nil || err == errForeign {
			var rerr error
			row, rerr = h.hist.result()
			err = orErr(err, rerr)
		}
		h.close()
		switch {
		case err == errStale && attempt < openAttempts:
			continue
		case row.ID != "" && row.ID != id:
			return wire.SessionRow{}, foundNothing, nil // a name that is not this session's
		case err == nil:
			row.Agent = r.src.agent()
			row.Busy = r.src.busy(f, id)
			if fitsPage(row) != nil {
				return wire.SessionRow{}, foundInvalid, nil
			}
			return row, foundRow, nil
		case err == errForeign:
			return wire.SessionRow{}, foundForeign, nil
		case err == errNotSession:
			return wire.SessionRow{}, foundNothing, nil
		case err == context.Canceled || err == context.DeadlineExceeded:
			return wire.SessionRow{}, foundNothing, err
		}
		return wire.SessionRow{}, foundInvalid, nil
	}
}

// orErr is a, or b when a is nil.
func orErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// openError maps a failure outside any candidate to session.open's code.
func openError(err error) error {
	if err == context.Canceled || err == context.DeadlineExceeded {
		return err
	}
	return wire.NewError(wire.CodeSessionInvalid)
}

// NewSession answers session.new: a fresh unsaved handle (no file is
// written, so it is never listed) and commit, which attaches it.
func (s *Service) NewSession() (*wire.SessionNewResult, func()) {
	var b [12]byte
	rand.Read(b[:])
	a := wire.Attachment{SessionID: "unsaved-" + hex.EncodeToString(b[:]), Agent: wire.AgentScout, Saved: false}
	return &wire.SessionNewResult{Attachment: a}, func() { s.attach(a) }
}
