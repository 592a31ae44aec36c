package sessions

import (
	"context"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// Scan phases.
const (
	phaseEnumerate = iota // first pass: names in OS order, histories read
	phaseValidate         // second pass: the inventory signature again
	phaseDone
)

// scan is one session.discover scan, held between requests: the store's
// directory iterator, at most one history reader with the line buffer, the
// row that did not fit the last page, cumulative notices and the first
// pass's signature. Its memory does not depend on the store's size.
type scan struct {
	id        uint64
	issued    uint64 // the sequence of the one cursor that may be used next; 0: none
	dead      bool   // abandoned, poisoned or complete: its cursors are stale
	attachGen uint64
	walker
	pending *wire.SessionRow
	phase   int
	vdir    *fsguard.Dir
	second  signature
}

// close releases the scan's descriptors; the scan stays dead.
func (sc *scan) close() {
	sc.dead = true
	if sc.reader != nil {
		sc.reader.close()
		sc.reader = nil
	}
	if sc.vdir != nil {
		sc.vdir.Close()
		sc.vdir = nil
	}
	sc.st.close()
	sc.lb = lineBuffer{}
}

// Discover answers one session.discover request. commit, when not nil,
// must run atomically with writing the result (Call.OnCommit): it makes the
// returned cursor the scan's live one.
func (s *Service) Discover(ctx context.Context, cursor *string) (*wire.DiscoverResult, func(), error) {
	sc, seq, err := s.resume(cursor)
	if err != nil {
		s.abandonCurrent() // any error abandons the scan, a bad cursor's too
		return nil, nil, err
	}
	res, err := s.page(ctx, sc)
	if err != nil {
		s.abandon(sc)
		return nil, nil, protocolError(err)
	}
	if res.Complete {
		s.abandon(sc)
		return res, nil, nil
	}
	next := s.cursors.Encode(sc.id, seq+1)
	res.Cursor = &next
	return res, func() { s.issue(sc, seq+1) }, nil
}

// resume starts a fresh scan (no cursor) or takes the scan a cursor
// continues, consuming the cursor. It returns the cursor's sequence.
func (s *Service) resume(cursor *string) (*scan, uint64, error) {
	if cursor == nil {
		sc, err := s.start()
		return sc, 0, err
	}
	id, seq, ok := s.cursors.Decode(*cursor)
	if !ok {
		return nil, 0, wire.NewError(wire.CodeInvalidCursor)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.scan
	if sc == nil || sc.id != id || sc.dead {
		return nil, 0, wire.NewError(wire.CodeStaleRevision)
	}
	if seq != sc.issued {
		sc.close() // a cursor used twice poisons the scan for good
		return nil, 0, wire.NewError(wire.CodeStaleRevision)
	}
	sc.issued = 0
	return sc, seq, nil
}

// start abandons any earlier scan (never the attachment) and opens a new one.
func (s *Service) start() (*scan, error) {
	s.mu.Lock()
	if s.scan != nil && !s.scan.dead {
		s.scan.close()
	}
	s.scan = nil
	s.scanSeq++
	id := s.scanSeq
	s.mu.Unlock()
	st, err := openStore(s.cfg.Home)
	if err != nil {
		return nil, protocolError(err)
	}
	sc := &scan{id: id, attachGen: s.attachGen()}
	sc.st = st
	sc.match = newCwdMatcher(s.cfg.Workspace)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scanSeq != id { // impossible with one discover in flight; be safe
		st.close()
		return nil, wire.NewError(wire.CodeStaleRevision)
	}
	s.scan = sc
	return sc, nil
}

func (s *Service) issue(sc *scan, seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !sc.dead {
		sc.issued = seq
	}
}

// abandonCurrent abandons the child's current scan, if any.
func (s *Service) abandonCurrent() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scan != nil && !s.scan.dead {
		s.scan.close()
	}
}

func (s *Service) abandon(sc *scan) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !sc.dead {
		sc.close()
	}
}

// unchanged is the check before and after every step: the store directory,
// the attachment identity, and the history being read.
func (s *Service) unchanged(sc *scan) bool {
	return sc.st.unchanged() && s.attachGen() == sc.attachGen &&
		(sc.reader == nil || !sc.reader.changed())
}

// page runs one step of sc and returns its page.
func (s *Service) page(ctx context.Context, sc *scan) (*wire.DiscoverResult, error) {
	if !s.unchanged(sc) {
		return nil, errStale
	}
	pg := newPage()
	progress, err := s.step(ctx, sc, stepBudget(ctx, s.cfg.Now()), pg)
	if err != nil {
		return nil, err
	}
	if !s.unchanged(sc) {
		return nil, errStale
	}
	res := &wire.DiscoverResult{
		Sessions: pg.rows, Progress: progress, Complete: progress == wire.ProgressComplete,
		Recovery: wire.RecoveryContinueCursor, Consistency: wire.ConsistencyProvisional,
		Notices: sc.notices,
	}
	if res.Complete {
		res.Recovery = wire.RecoveryNone
	}
	return res, nil
}

// step does the work of one request until a bound is met and returns the
// bound's progress word.
func (s *Service) step(ctx context.Context, sc *scan, b *budget, pg *page) (string, error) {
	busyNow := func(id string) bool { return busy(sc.st.dir, id, s.cfg.Now()) }
	for {
		if sc.pending != nil {
			fits, err := pg.add(*sc.pending)
			if err != nil || !fits {
				return wire.ProgressPageBytes, err
			}
			sc.pending = nil
		}
		if len(pg.rows) >= PageEntries {
			return wire.ProgressPageEntries, nil
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
		var word string
		var err error
		switch sc.phase {
		case phaseEnumerate:
			word, err = s.enumerate(sc, b, busyNow)
		case phaseValidate:
			word, err = s.validate(sc, b)
		default:
			return wire.ProgressComplete, nil
		}
		if word != "" || err != nil {
			return word, err
		}
	}
}

// enumerate advances the held reader or reads the next name. It returns a
// progress word when a bound is met.
func (s *Service) enumerate(sc *scan, b *budget, busyNow func(string) bool) (string, error) {
	if sc.st.missing {
		sc.phase = phaseValidate
		return "", nil
	}
	if sc.reader != nil {
		done, stop, err := sc.reader.advance(&sc.lb, &sc.parser, sc.match, b)
		if stop != "" {
			return stop, nil
		}
		if !done && err == nil {
			return "", nil
		}
		row, err := sc.finish(err, busyNow)
		sc.pending = row
		return "", err
	}
	if b.entries <= 0 {
		return wire.ProgressDirectoryWork, nil
	}
	if b.expired() {
		return wire.ProgressDeadline, nil
	}
	name, typ, ok, err := nextEntry(sc.st.dir)
	if err != nil {
		return "", errUnavailable
	}
	if !ok {
		return "", s.beginValidation(sc)
	}
	b.entries--
	b.worked = true
	sc.visit(name, typ)
	return "", nil
}

// beginValidation opens the second pass's own iterator on the same store
// directory (the held descriptor, so a replaced directory cannot slip in).
func (s *Service) beginValidation(sc *scan) error {
	sc.phase = phaseValidate
	d, err := sc.st.root.OpenDir(StoreDir)
	if err != nil {
		return errStale
	}
	info, err := d.Stat()
	if err != nil || !info.SameFile(sc.st.info) {
		d.Close()
		return errStale
	}
	sc.vdir = d
	return nil
}

// validate runs the second pass: every name again, each relevant one
// described afresh, and at the end the two signatures compared.
func (s *Service) validate(sc *scan, b *budget) (string, error) {
	if sc.st.missing {
		sc.phase = phaseDone
		return wire.ProgressComplete, nil
	}
	if b.entries <= 0 {
		return wire.ProgressInventoryValidation, nil
	}
	if b.expired() {
		return wire.ProgressDeadline, nil
	}
	name, _, ok, err := nextEntry(sc.vdir)
	if err != nil {
		return "", errStale
	}
	if !ok {
		if sc.second != sc.sig {
			return "", errStale
		}
		sc.phase = phaseDone
		return wire.ProgressComplete, nil
	}
	b.entries--
	b.worked = true
	switch class, _ := classify(name); class {
	case classLock:
		sc.second.addLock(name)
	case classHistory:
		if info, err := sc.vdir.Lstat(name); err == nil {
			sc.second.addHistory(name, info)
		}
	}
	return "", nil
}

// page is the rows of one response, bounded by PageEntries and PageBytes.
type page struct {
	rows  []wire.SessionRow
	bytes int
}

func newPage() *page { return &page{rows: []wire.SessionRow{}, bytes: 2} }

// add appends row if it fits. A row that cannot fit even an empty page is
// errRowTooLarge.
func (p *page) add(row wire.SessionRow) (bool, error) {
	b, err := wire.Marshal(row)
	if err != nil {
		return false, err
	}
	n := len(b)
	if len(p.rows) > 0 {
		n++
	}
	if p.bytes+n > PageBytes {
		if len(p.rows) == 0 {
			return false, errRowTooLarge
		}
		return false, nil
	}
	p.rows = append(p.rows, row)
	p.bytes += n
	return true, nil
}
