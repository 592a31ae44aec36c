package sessions

import (
	"context"
	"io"

	"github.com/scoutdev/scout/backend/wire"
)

// dbStore is a store whose sessions are rows of SQLite databases: crush's
// (a database per project) and opencode's (one for every directory).
type dbStore struct {
	schema *dbSchema
	files  []dbFile
	match  *cwdMatcher
	log    io.Writer
}

// dbRun is a dbStore as one scan or request reads it: the database being
// read, the last key read of it, what each database was when read (its
// first step's commit among it, which a later reading compares with the
// commit it finds), and, in the second pass, the same for a fresh reading
// of the rows.
type dbRun struct {
	st      *dbStore
	cur     int     // the database being read
	conn    *dbConn // open while cur is read
	after   string  // the last key read in cur
	states  []dbState
	scratch titleBuilder
	second  bool // the second pass is under way
	sig     signature
}

func newDBRun(st *dbStore) *dbRun {
	return &dbRun{st: st, states: make([]dbState, len(st.files))}
}

func (d *dbRun) close() {
	if d.conn != nil {
		d.conn.close()
		d.conn = nil
	}
}

// dbBatch bounds the rows of one step (and so the rows waiting for the
// next page): at most one page.
var dbBatch = PageEntries

// next reads one step of the current database: rows for the page, notices
// counted, and whether the run has ended. A database that is missing is
// skipped; one that cannot be read, is not a database or has a schema
// scout does not know counts once in sessions_omitted_invalid (the last
// said on stderr too) and is skipped.
func (d *dbRun) next(ctx context.Context, b *budget, n *wire.SessionNotices) (rows []wire.SessionRow, ended bool, err error) {
	if d.cur == len(d.st.files) {
		return nil, true, nil
	}
	if d.conn == nil {
		if err := d.open(ctx, n); err != nil || d.conn == nil {
			return nil, false, err // a database that cannot be read was counted and skipped
		}
	}
	limit := dbBatch
	if b.limited {
		limit = max(min(limit, b.lines), 1)
	}
	qctx := ctx
	if b.limited {
		var cancel context.CancelFunc
		qctx, cancel = context.WithDeadline(ctx, b.deadline)
		defer cancel()
	}
	batch, version, err := d.conn.step(qctx, d.st.schema, d.after, limit)
	if err != nil {
		return nil, false, d.fault(err, n)
	}
	st := &d.states[d.cur]
	if !st.read && !d.second {
		*st = dbState{read: true, live: d.conn.live, info: d.conn.info, version: version}
	}
	b.lines -= len(batch)
	b.worked = true
	for _, r := range batch {
		d.after = r.id
		row, err := d.st.schema.judge(r, d.st.match, &d.scratch)
		switch err {
		case nil:
			d.member(st, row.ID)
			if !d.second {
				rows = append(rows, row)
			}
		case errForeign:
			if !d.second {
				n.SessionsOtherDirectories++
			}
		case ErrMalformed, errNoTime:
			if !d.second {
				n.SessionsOmittedInvalid++
			}
		}
	}
	if len(batch) < limit {
		d.endFile()
	}
	return rows, false, nil
}

// member adds session id, a row, to the signature of its database (the
// first pass's in st, the second pass's in d.sig).
func (d *dbRun) member(st *dbState, id string) {
	if d.second {
		d.sig.add('r', id, nil)
		return
	}
	st.sig.add('r', id, nil)
}

// endFile ends the reading of the current database.
func (d *dbRun) endFile() {
	if d.conn != nil {
		d.conn.close()
		d.conn = nil
	}
	d.cur++
	d.after = ""
}

// open opens the current database, or counts why it cannot be read.
func (d *dbRun) open(ctx context.Context, n *wire.SessionNotices) error {
	c, err := openDB(ctx, d.st.files[d.cur], d.st.schema)
	if err != nil {
		return d.fault(err, n)
	}
	d.conn = c
	return nil
}

// fault counts the current database as unreadable and moves on (a
// cancellation passes through). In the second pass a database that can
// no longer be read is a change.
func (d *dbRun) fault(err error, n *wire.SessionNotices) error {
	if err == context.Canceled || err == context.DeadlineExceeded {
		return err
	}
	missing := err == errDBMissing
	if d.second {
		return errStale // it was read, or found missing or unreadable and is not so now
	}
	if !missing {
		n.SessionsOmittedInvalid++
		d.states[d.cur].broken = true // unreadable, as it must still be
		if err == errDBUnknown {
			logUnknown(d.st.log, d.st.schema.agent)
		}
	}
	d.endFile()
	return nil
}

// unchanged is the per-step check: the database being read is still the
// file it was opened as (and, at rest, not written).
func (d *dbRun) unchanged() bool { return d.conn == nil || d.conn.unchanged() }

// validate starts or continues the second pass. Databases that show no
// change since they were read (at rest: not written; live: the same last
// commit) are not read again; the others are read again in steps, and
// the sessions they make rows of must be the ones the first pass found
// (growth of a row, a title renamed, a session updated, is no change; a
// row appearing or disappearing is). done is set once every database was
// validated.
func (d *dbRun) validate(ctx context.Context, b *budget) (done bool, err error) {
	if !d.second {
		d.second, d.cur, d.after = true, 0, ""
	}
	for d.cur < len(d.st.files) && d.conn == nil {
		skip, err := d.skip(ctx)
		if err != nil {
			return false, err
		}
		if !skip {
			break
		}
		d.cur++
	}
	if d.cur == len(d.st.files) {
		return true, nil
	}
	start := d.cur
	var n wire.SessionNotices
	if _, _, err := d.next(ctx, b, &n); err != nil {
		return false, err
	}
	if d.cur != start { // that database ended: compare
		if d.sig != d.states[start].sig {
			return false, errStale
		}
		d.sig = signature{}
	}
	return d.cur == len(d.st.files), nil
}

// skip reports whether the current database needs no second reading:
// it was missing or unreadable and still is, or it was read and shows no
// change. A database whose state did change is a change (errStale); one
// that needs reading again is left open in d.conn.
func (d *dbRun) skip(ctx context.Context) (bool, error) {
	st := d.states[d.cur]
	c, err := openDB(ctx, d.st.files[d.cur], d.st.schema)
	switch {
	case err == context.Canceled || err == context.DeadlineExceeded:
		return false, err
	case err != nil:
		if st.read || st.broken != (err != errDBMissing) {
			return false, errStale
		}
		return true, nil
	case !st.read:
		c.close()
		return false, errStale // missing or unreadable then, readable now
	case c.sameAsRead(ctx, st):
		c.close()
		return true, nil
	}
	d.conn = c
	return false, nil
}

// count adds the candidate sessions of every database (those a scan would
// judge) to n, failing once all stores together hold more than
// MaxListHistories. A database that cannot be read adds nothing.
func (d *dbRun) count(n *int) error {
	for _, f := range d.st.files {
		c, err := openDB(context.Background(), f, d.st.schema)
		if err != nil {
			continue
		}
		k, err := c.count(context.Background())
		c.close()
		if err != nil {
			continue
		}
		if *n += k; *n > MaxListHistories {
			return errLimit
		}
	}
	return nil
}

// find looks for session id in every database and says what it is: its
// row, or the outcome (foundForeign, foundInvalid, foundNothing) of the
// best candidate.
func (d *dbRun) find(ctx context.Context, id string) (wire.SessionRow, int, error) {
	best := foundNothing
	for _, f := range d.st.files {
		c, err := openDB(ctx, f, d.st.schema)
		switch {
		case err == context.Canceled || err == context.DeadlineExceeded:
			return wire.SessionRow{}, best, err
		case err == errDBMissing:
			continue
		case err != nil:
			best = max(best, foundInvalid)
			continue
		}
		found, err := c.one(ctx, id)
		c.close()
		if err != nil {
			best = max(best, foundInvalid)
			continue
		}
		for _, r := range found {
			row, err := d.st.schema.judge(r, d.st.match, &d.scratch)
			switch err {
			case nil:
				return row, foundRow, nil
			case errForeign:
				best = max(best, foundForeign)
			case ErrMalformed, errNoTime:
				best = max(best, foundInvalid)
			}
		}
	}
	return wire.SessionRow{}, best, nil
}
