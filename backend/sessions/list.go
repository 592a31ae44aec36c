package sessions

import (
	"cmp"
	"context"
	"slices"

	"github.com/scoutdev/scout/backend/wire"
)

// List answers session.list: every row of this workspace, newest updated_at
// first (ties by id). It first counts the primary histories (names only)
// and answers discovery_limit past MaxListHistories before reading any of
// them.
func (s *Service) List(ctx context.Context) (*wire.SessionListResult, error) {
	res := &wire.SessionListResult{Sessions: []wire.SessionRow{}}
	st, err := openStore(s.cfg.Home)
	if err != nil {
		return nil, protocolError(err)
	}
	defer st.close()
	if st.missing {
		return res, nil
	}
	if err := countHistories(st); err != nil {
		return nil, protocolError(err)
	}
	w := &walker{st: st, match: newCwdMatcher(s.cfg.Workspace)}
	if err := s.walkAll(ctx, w, &res.Sessions); err != nil {
		return nil, protocolError(err)
	}
	res.Notices = w.notices
	slices.SortFunc(res.Sessions, func(a, b wire.SessionRow) int {
		if c := cmp.Compare(b.UpdatedAt, a.UpdatedAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return res, nil
}

// errLimit: more than MaxListHistories primary histories.
var errLimit = wire.NewError(wire.CodeDiscoveryLimit)

// countHistories reads the store's names with a fresh iterator and fails
// once more than MaxListHistories of them are primary histories.
func countHistories(st *store) error {
	d, err := st.root.OpenDir(StoreDir)
	if err != nil {
		return errUnavailable
	}
	defer d.Close()
	n := 0
	for {
		name, _, ok, err := nextEntry(d)
		switch {
		case err != nil:
			return errUnavailable
		case !ok:
			return nil
		}
		if class, _ := classify(name); class == classHistory {
			if n++; n > MaxListHistories {
				return errLimit
			}
		}
	}
}

// walkAll reads every history of the store in one go (no step bounds; the
// record bound and cancellation apply) and appends the rows.
func (s *Service) walkAll(ctx context.Context, w *walker, rows *[]wire.SessionRow) error {
	b := unlimitedBudget(ctx)
	busyNow := func(id string) bool { return busy(w.st.dir, id, s.cfg.Now()) }
	attempts := 0
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if w.reader != nil {
			done, _, err := w.reader.advance(&w.lb, &w.parser, w.match, b)
			if !done && err == nil {
				continue
			}
			name, id := w.reader.name, w.reader.id
			row, err := w.finish(err, busyNow)
			if err == errStale && attempts+1 < openAttempts {
				attempts++ // changed while read (an agent appending): read it again
				w.open(name, id)
				continue
			}
			attempts = 0
			if err != nil {
				return err
			}
			if row != nil {
				*rows = append(*rows, *row)
			}
			continue
		}
		name, typ, ok, err := nextEntry(w.st.dir)
		switch {
		case err != nil:
			return errUnavailable
		case !ok:
			return nil
		}
		w.visit(name, typ)
	}
}
