package sessions

import (
	"errors"
	"io/fs"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// errStale: a store, the attachment or the history being read changed.
var errStale = errors.New("sessions: inventory changed")

// run is one source as a scan, a session.list or a session.open reads
// it: a store of files (src: its tree, opened when its turn comes, and
// what the first pass added to its inventory signature) or of databases
// (db).
type run struct {
	src    source
	db     *dbRun
	tree   *tree
	sig    signature
	broken bool // another agent's store that is unsafe or unreadable
	opened bool // open was tried
}

// agent is the agent whose store r reads.
func (r *run) agent() string {
	if r.db != nil {
		return r.db.st.schema.agent
	}
	return r.src.agent()
}

// start opens r's store. scout's own store that cannot be opened safely
// fails the request (errUnavailable); another agent's is counted once in
// sessions_omitted_invalid and read as empty. A store of databases opens
// each database when its turn comes.
func (r *run) start(n *wire.SessionNotices) error {
	r.opened = true
	if r.db != nil {
		return nil
	}
	t, err := r.src.open()
	switch {
	case err == nil:
		r.tree = t
	case r.src.own():
		return errUnavailable
	default:
		r.broken = true
		n.SessionsOmittedInvalid++
	}
	return nil
}

// readable reports whether r has names to read (a store of files).
func (r *run) readable() bool { return r.db == nil && !r.broken && r.tree != nil && !r.tree.missing }

func (r *run) close() {
	if r.tree != nil {
		r.tree.closeRoot()
	}
	if r.db != nil {
		r.db.close()
	}
}

// walker is the per-history logic list, discover and open share: it
// visits one entry of a store, reads a history through the one held
// reader, and turns the outcome into a row or a notice, adding every
// relevant entry to the run's inventory signature.
type walker struct {
	runs    []*run
	cur     int // the run being enumerated
	lb      lineBuffer
	reader  *historyReader
	rrun    *run // the run the reader belongs to
	notices wire.SessionNotices
}

// closeRuns releases every store and the held reader.
func (w *walker) closeRuns() {
	if w.reader != nil {
		w.reader.close()
		w.reader = nil
	}
	for _, r := range w.runs {
		r.close()
	}
	w.lb = lineBuffer{}
}

// visit looks at one name of directory f of r's store: a directory of the
// layout is descended into, a regular history is opened and becomes the
// held reader, an unsafe one (symlink, special file) is counted invalid,
// histories of other directories are counted, locks join the signature,
// anything else is ignored.
func (w *walker) visit(r *run, f *frame, name string, typ fs.FileMode) {
	e := r.src.entry(f, name)
	switch e.kind {
	case entryDir:
		if typ.IsRegular() {
			return
		}
		if !typ.IsDir() || r.tree.descend(f, name, e.mine, e.root) != nil {
			w.notices.SessionsOmittedInvalid++
			r.sig.addUnsafe(f.join(name), typ)
		}
	case entryLock:
		r.sig.addLock(f.join(name))
	case entryCounted:
		if typ.IsRegular() {
			w.notices.SessionsOtherDirectories++
		} else {
			w.notices.SessionsOmittedInvalid++
		}
		r.sig.addCounted(f.join(name), typ)
	case entryHistory:
		if typ.IsRegular() {
			w.open(r, f, name)
			return
		}
		w.unsafe(r, f, name)
	}
}

// open makes history name of f the held reader. A history gone since it
// was listed is skipped (its directory's change time says so); one that
// cannot be opened safely is counted invalid.
func (w *walker) open(r *run, f *frame, name string) error {
	file, info, err := f.dir.OpenFile(name)
	switch {
	case errors.Is(err, fsguard.ErrNotFound):
		return err
	case err != nil:
		w.unsafe(r, f, name)
		return errUnsafeEntry
	}
	w.lb.reset()
	w.rrun = r
	w.reader = &historyReader{
		src: r.src, fr: f, name: name, path: f.join(name), f: file, info: info,
		hist: r.src.history(f, name), live: !r.src.own(), left: info.Size,
	}
	return nil
}

// unsafe counts a history that is not a readable regular file.
func (w *walker) unsafe(r *run, f *frame, name string) {
	w.notices.SessionsOmittedInvalid++
	if info, err := f.dir.Lstat(name); err == nil {
		addHistorySig(r, f.join(name), info, info.Size)
	}
}

// addHistorySig adds a history to r's first-pass signature.
func addHistorySig(r *run, path string, info fsguard.Info, size int64) {
	r.addHistory(&r.sig, path, info, size)
}

// addHistory adds a history to sig by the rules of r's store.
func (r *run) addHistory(sig *signature, path string, info fsguard.Info, size int64) {
	if r.src.own() {
		sig.addHistory(path, info)
		return
	}
	sig.addGrowing(path, info, size)
}

// maxPreludeBytes bounds what is read of a prelude: its last 4 MiB (a
// Codex name appended later wins, so the tail is what matters).
const maxPreludeBytes = 4 << 20

// preludeKey is a prelude's name in the signature, apart from the layout's.
func preludeKey(name string) string { return "\x00prelude/" + name }

// openPrelude makes r's prelude, if it has one, the held reader. An absent
// or unsafe prelude is left out (it only names sessions).
func (w *walker) openPrelude(r *run) {
	p, ok := r.src.(preluder)
	if !ok || !r.readable() {
		return
	}
	name, hist := p.prelude()
	file, info, err := r.tree.root.OpenFile(name)
	if err != nil {
		return
	}
	left := info.Size
	if left > maxPreludeBytes {
		if _, err := file.Seek(left-maxPreludeBytes, 0); err != nil {
			file.Close()
			return
		}
		left = maxPreludeBytes // its first, partial line is not a record: skipped
	}
	w.lb.reset()
	w.rrun = r
	w.reader = &historyReader{src: r.src, name: name, path: preludeKey(name), f: file, info: info, hist: hist, live: true, left: left}
}

// addPreludeSig adds r's prelude as the second pass sees it.
func addPreludeSig(r *run, sig *signature) {
	p, ok := r.src.(preluder)
	if !ok {
		return
	}
	name, _ := p.prelude()
	fi, err := r.tree.root.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	if info, ok := fi.Sys().(*fsguard.Info); ok {
		sig.addGrowing(preludeKey(name), *info, info.Size)
	}
}

// revisit is the second pass's visit: name of directory f described
// afresh into sig, the way visit added it to the first pass's.
func revisit(r *run, vt *tree, sig *signature, f *frame, name string, typ fs.FileMode) error {
	e := r.src.entry(f, name)
	path := f.join(name)
	switch e.kind {
	case entryDir:
		if !typ.IsRegular() && (!typ.IsDir() || vt.descend(f, name, e.mine, e.root) != nil) {
			sig.addUnsafe(path, typ)
		}
	case entryLock:
		sig.addLock(path)
	case entryCounted:
		sig.addCounted(path, typ)
	case entryHistory:
		if info, err := f.dir.Lstat(name); err == nil {
			r.addHistory(sig, path, info, info.Size)
		}
	}
	return nil
}

// sameState reports whether a store read as missing or unsafe still is.
func sameState(r *run) bool {
	t, err := r.src.open()
	if err != nil {
		return r.broken
	}
	defer t.closeRoot()
	return !r.broken && t.missing
}

// finish closes the held reader after advance ended with done or err and
// returns its row, if it has one. Fatal errors (an oversized record or
// row in scout's store, a change while reading, cancellation) are
// returned; the history's own faults become notices.
func (w *walker) finish(err error) (*wire.SessionRow, error) {
	h, r := w.reader, w.rrun
	w.reader, w.rrun = nil, nil
	defer h.close()
	if err == nil && h.changed() {
		return nil, errStale
	}
	if !w.countable(err) {
		return nil, err
	}
	addHistorySig(r, h.path, h.info, h.readSize())
	if err != nil {
		return nil, nil
	}
	row, err := h.hist.result()
	if err == nil && !r.src.candidate(h.name, row.ID) {
		// The id it records is not the one its name gives: session.open
		// (and Codex's own resume) find a history by its name.
		err = ErrMalformed
	}
	if err != nil {
		if w.countable(err) {
			err = nil
		}
		return nil, err
	}
	row.Agent = r.src.agent()
	row.Busy = r.src.busy(h.fr, row.ID)
	if err := fitsPage(row); err != nil {
		return nil, err
	}
	return &row, nil
}

// countable counts err in the notices when it is a history's own fault
// (or nil, nothing to count) and reports whether it was one.
func (w *walker) countable(err error) bool {
	switch err {
	case nil, errNotSession:
	case errForeign:
		w.notices.SessionsOtherDirectories++
	case ErrMalformed, errUnreadable, errNoTime:
		w.notices.SessionsOmittedInvalid++
	case errOversized:
		w.notices.SessionsOmittedOversized++
	default:
		return false
	}
	return true
}
