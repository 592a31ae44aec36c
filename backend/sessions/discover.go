package sessions

import (
	"context"

	"github.com/scoutdev/scout/backend/wire"
)

// Scan phases.
const (
	phaseEnumerate = iota // first pass: every source's names in OS order, histories read
	phaseValidate         // second pass: every source's inventory signature again
	phaseDone
)

// scan is one session.discover scan, held between requests: the sources
// in the order of the table, each store's directory iterator as its turn
// comes, at most one history reader with the line buffer, the row that
// did not fit the last page, cumulative notices and each store's
// first-pass signature. Its memory does not depend on the stores' size.
type scan struct {
	id        uint64
	issued    uint64 // the sequence of the one cursor that may be used next; 0: none
	dead      bool   // abandoned, poisoned or complete: its cursors are stale
	attachGen uint64
	walker
	pending []wire.SessionRow // rows found that did not fit the last page
	phase   int
	vrun    int   // the run the second pass is at
	vtree   *tree // its second-pass iterator (nil until begun)
	second  signature
}

// close releases the scan's descriptors; the scan stays dead.
func (sc *scan) close() {
	sc.dead = true
	if sc.vtree != nil {
		sc.vtree.close()
		sc.vtree = nil
	}
	sc.closeRuns()
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
	sc := &scan{id: id, attachGen: s.attachGen()}
	sc.runs = s.runs(newCwdMatcher(s.cfg.Workspace))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scanSeq != id { // impossible with one discover in flight; be safe
		sc.closeRuns()
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

// unchanged is the check before and after every step: every store opened
// so far (the directories held open in it), the attachment identity, the
// history being read and the second pass's directories.
func (s *Service) unchanged(sc *scan) bool {
	if s.attachGen() != sc.attachGen || sc.reader != nil && sc.reader.changed() {
		return false
	}
	for _, r := range sc.runs {
		if r.readable() || r.tree != nil && r.tree.missing {
			if !r.tree.unchanged() {
				return false
			}
		}
		if r.db != nil && !r.db.unchanged() {
			return false
		}
	}
	return sc.vtree == nil || sc.vtree.unchanged()
}

// page runs one step of sc and returns its page.
func (s *Service) page(ctx context.Context, sc *scan) (*wire.DiscoverResult, error) {
	if !s.unchanged(sc) {
		return nil, errStale
	}
	pg := newPage()
	progress, err := s.step(ctx, sc, stepBudget(ctx, s.cfg.Now(), s.cfg.Step), pg)
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
	for {
		for len(sc.pending) > 0 {
			if len(pg.rows) >= PageEntries {
				return wire.ProgressPageEntries, nil
			}
			fits, err := pg.add(sc.pending[0])
			if err != nil || !fits {
				return wire.ProgressPageBytes, err
			}
			sc.pending = sc.pending[1:]
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
			word, err = sc.enumerate(ctx, b)
		case phaseValidate:
			word, err = sc.validate(ctx, b)
		default:
			return wire.ProgressComplete, nil
		}
		if word != "" || err != nil {
			return word, err
		}
	}
}

// enumerate advances the held reader or reads the next name of the
// current store, moving on to the next store at the end of one. It
// returns a progress word when a bound is met.
func (sc *scan) enumerate(ctx context.Context, b *budget) (string, error) {
	if sc.reader != nil {
		done, stop, err := sc.reader.advance(&sc.lb, b)
		if stop != "" {
			return stop, nil
		}
		if !done && err == nil {
			return "", nil
		}
		row, err := sc.finish(err)
		if row != nil {
			sc.pending = append(sc.pending, *row)
		}
		return "", err
	}
	if sc.cur == len(sc.runs) {
		sc.phase = phaseValidate
		return "", nil
	}
	r := sc.runs[sc.cur]
	if !r.opened {
		if err := r.start(&sc.notices); err != nil {
			return "", err
		}
		sc.openPrelude(r)
		return "", nil
	}
	if r.db != nil {
		return sc.enumerateDB(ctx, r, b)
	}
	if !r.readable() {
		sc.cur++
		return "", nil
	}
	if b.entries <= 0 {
		return wire.ProgressDirectoryWork, nil
	}
	if b.expired() {
		return wire.ProgressDeadline, nil
	}
	f, name, typ, ok, err := r.tree.next()
	if err != nil {
		return "", errUnavailable
	}
	if !ok {
		sc.cur++
		return "", nil
	}
	b.entries--
	b.worked = true
	sc.visit(r, f, name, typ)
	return "", nil
}

// validate runs the second pass over each store in turn: every name
// again, each relevant one described afresh, and at the end of a store
// the two signatures compared. A store that was missing or unsafe must
// still be.
func (sc *scan) validate(ctx context.Context, b *budget) (string, error) {
	if sc.vrun == len(sc.runs) {
		sc.phase = phaseDone
		return wire.ProgressComplete, nil
	}
	r := sc.runs[sc.vrun]
	if r.db != nil {
		return sc.validateDB(ctx, r, b)
	}
	if sc.vtree == nil {
		return "", sc.beginValidation(r)
	}
	if b.entries <= 0 {
		return wire.ProgressInventoryValidation, nil
	}
	if b.expired() {
		return wire.ProgressDeadline, nil
	}
	f, name, typ, ok, err := sc.vtree.next()
	if err != nil {
		return "", errStale
	}
	if !ok {
		return "", sc.endValidation(r)
	}
	b.entries--
	b.worked = true
	if err := revisit(r, sc.vtree, &sc.second, f, name, typ); err != nil {
		return "", err
	}
	return "", nil
}

// beginValidation opens the second pass's own iterator on r's store
// through the held root (so a replaced directory cannot slip in) and adds
// its prelude. A store read as missing or unsafe is probed instead.
func (sc *scan) beginValidation(r *run) error {
	if !r.readable() {
		if !sameState(r) {
			return errStale
		}
		sc.vrun++
		return nil
	}
	vt, err := r.tree.reopen()
	if err != nil {
		return errStale
	}
	sc.vtree = vt
	sc.second = signature{}
	addPreludeSig(r, &sc.second)
	return nil
}

// endValidation compares r's two signatures and moves to the next store.
func (sc *scan) endValidation(r *run) error {
	sc.vtree.close()
	sc.vtree = nil
	if !r.sig.same(sc.second) {
		return errStale
	}
	sc.vrun++
	return nil
}

// enumerateDB reads one step of a store of databases: a batch of rows,
// which wait in sc.pending for room in the page.
func (sc *scan) enumerateDB(ctx context.Context, r *run, b *budget) (string, error) {
	if b.limited && b.lines <= 0 {
		return wire.ProgressHistoryWork, nil
	}
	if b.expired() {
		return wire.ProgressDeadline, nil
	}
	rows, ended, err := r.db.next(ctx, b, &sc.notices)
	if err != nil {
		return "", err
	}
	sc.pending = append(sc.pending, rows...)
	if ended {
		sc.cur++
	}
	return "", nil
}

// validateDB runs one step of the second pass over a store of databases.
func (sc *scan) validateDB(ctx context.Context, r *run, b *budget) (string, error) {
	if b.limited && b.lines <= 0 {
		return wire.ProgressInventoryValidation, nil
	}
	if b.expired() {
		return wire.ProgressDeadline, nil
	}
	done, err := r.db.validate(ctx, b)
	if err != nil {
		return "", err
	}
	if done {
		sc.vrun++
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
