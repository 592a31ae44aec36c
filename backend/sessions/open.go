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

// Open answers session.open: it re-validates the history id (exists, a
// regular primary history reached without symlinks, fully readable, every
// record well formed, belonging to this workspace) and returns its row with
// commit, which attaches it; commit must run atomically with the response
// (Call.OnCommit). On any error the attachment is untouched.
func (s *Service) Open(ctx context.Context, id string) (*wire.SessionOpenResult, func(), error) {
	if !wire.ValidSessionID(id) {
		return nil, nil, wire.NewError(wire.CodeNotFound)
	}
	st, err := openStore(s.cfg.Home)
	if err != nil {
		return nil, nil, wire.NewError(wire.CodeSessionInvalid)
	}
	defer st.close()
	if st.missing {
		return nil, nil, wire.NewError(wire.CodeNotFound)
	}
	var row wire.SessionRow
	for attempt := 0; ; attempt++ {
		row, err = s.readOne(ctx, st, id)
		if err != errStale || attempt+1 == openAttempts {
			break
		}
	}
	if err != nil {
		return nil, nil, openError(err)
	}
	a := wire.Attachment{SessionID: id, Saved: true}
	return &wire.SessionOpenResult{Session: row, Attachment: a}, func() { s.attach(a) }, nil
}

// readOne reads history id in full and builds its row.
func (s *Service) readOne(ctx context.Context, st *store, id string) (wire.SessionRow, error) {
	w := &walker{st: st, match: newCwdMatcher(s.cfg.Workspace)}
	name := id + ".jsonl"
	f, info, err := st.dir.OpenFile(name)
	if err != nil {
		return wire.SessionRow{}, err
	}
	w.lb.reset()
	w.reader = &historyReader{id: id, name: name, f: f, info: info}
	b := unlimitedBudget(ctx)
	for {
		done, _, err := w.reader.advance(&w.lb, &w.parser, w.match, b)
		if !done && err == nil {
			continue
		}
		if err != nil {
			w.reader.close()
			return wire.SessionRow{}, err
		}
		h := w.reader
		defer h.close()
		if h.changed() {
			return wire.SessionRow{}, errStale
		}
		return h.sum.row(id, busy(st.dir, id, s.cfg.Now()))
	}
}

// openError maps why an exact open failed to its code.
func openError(err error) error {
	switch {
	case errors.Is(err, fsguard.ErrNotFound):
		return wire.NewError(wire.CodeNotFound)
	case err == errForeign:
		return wire.NewError(wire.CodeCwdMismatch)
	case errors.Is(err, context.Canceled):
		return err
	}
	return wire.NewError(wire.CodeSessionInvalid)
}

// NewSession answers session.new: a fresh unsaved handle (no file is
// written, so it is never listed) and commit, which attaches it.
func (s *Service) NewSession() (*wire.SessionNewResult, func()) {
	var b [12]byte
	rand.Read(b[:])
	a := wire.Attachment{SessionID: "unsaved-" + hex.EncodeToString(b[:]), Saved: false}
	return &wire.SessionNewResult{Attachment: a}, func() { s.attach(a) }
}
