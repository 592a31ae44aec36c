package sessions

import (
	"context"
	"slices"

	"github.com/scoutdev/scout/backend/wire"
)

// List answers session.list: every row of this workspace from every
// source, newest updated_at first (ties by agent, then id). It first
// counts the primary histories of all sources together (names only) and
// answers discovery_limit past MaxListHistories before reading any of
// them.
func (s *Service) List(ctx context.Context) (*wire.SessionListResult, error) {
	res := &wire.SessionListResult{Sessions: []wire.SessionRow{}}
	w := &walker{runs: s.runs(newCwdMatcher(s.cfg.Workspace))}
	defer w.closeRuns()
	n := 0
	for _, r := range w.runs {
		if err := r.start(&w.notices); err != nil {
			return nil, protocolError(err)
		}
		if err := countHistories(r, &n); err != nil {
			return nil, protocolError(err)
		}
	}
	if err := w.walkAll(ctx, &res.Sessions); err != nil {
		return nil, protocolError(err)
	}
	res.Notices = w.notices
	slices.SortFunc(res.Sessions, wire.CompareSessionRows)
	return res, nil
}

// errLimit: more than MaxListHistories primary histories.
var errLimit = wire.NewError(wire.CodeDiscoveryLimit)

// countHistories reads r's names with a fresh iterator and adds its
// primary histories (the histories a scan reads, of any file type) to n,
// failing once all sources together have more than MaxListHistories.
func countHistories(r *run, n *int) error {
	if r.db != nil {
		return r.db.count(n)
	}
	if !r.readable() {
		return nil
	}
	t, err := r.tree.reopen()
	if err != nil {
		return errUnavailable
	}
	defer t.close()
	for {
		f, name, typ, ok, err := t.next()
		switch {
		case err != nil:
			return errUnavailable
		case !ok:
			return nil
		}
		switch e := r.src.entry(f, name); {
		case e.kind == entryDir && typ.IsDir():
			t.descend(f, name, e.mine, e.root)
		case e.kind == entryHistory:
			if *n++; *n > MaxListHistories {
				return errLimit
			}
		}
	}
}

// walkAll reads every history of every store in one go (no step bounds;
// the record bound and cancellation apply) and appends the rows.
func (w *walker) walkAll(ctx context.Context, rows *[]wire.SessionRow) error {
	b := unlimitedBudget(ctx)
	for _, r := range w.runs {
		if err := w.walkRun(ctx, r, b, rows); err != nil {
			return err
		}
	}
	return nil
}

// walkRun reads r's prelude and every history of its store.
func (w *walker) walkRun(ctx context.Context, r *run, b *budget, rows *[]wire.SessionRow) error {
	for r.db != nil {
		batch, ended, err := r.db.next(ctx, b, &w.notices)
		if err != nil {
			return protocolError(err)
		}
		*rows = append(*rows, batch...)
		if ended {
			return nil
		}
	}
	w.openPrelude(r)
	if err := w.readHeld(b, nil); err != nil {
		return err
	}
	for r.readable() {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, name, typ, ok, err := r.tree.next()
		switch {
		case err != nil:
			return errUnavailable
		case !ok:
			return nil
		}
		w.visit(r, f, name, typ)
		if err := w.readHeld(b, rows); err != nil {
			return err
		}
	}
	return nil
}

// readHeld reads the held history, if any, to its end and appends its
// row. A history that changes while it is read (an agent appending to
// scout's store) is read again, up to openAttempts times in all.
func (w *walker) readHeld(b *budget, rows *[]wire.SessionRow) error {
	for attempts := 1; w.reader != nil; attempts++ {
		done, _, err := w.reader.advance(&w.lb, b)
		if !done && err == nil {
			attempts--
			continue
		}
		r, f, name := w.rrun, w.reader.fr, w.reader.name
		row, err := w.finish(err)
		if err == errStale && attempts < openAttempts && f != nil {
			w.open(r, f, name)
			continue
		}
		if err != nil {
			return err
		}
		if row != nil && rows != nil {
			*rows = append(*rows, *row)
		}
	}
	return nil
}
