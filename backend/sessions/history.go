package sessions

import (
	"errors"
	"io/fs"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// errStale: the store, the attachment or the history being read changed.
var errStale = errors.New("sessions: inventory changed")

// walker is the per-history logic list and discover share: it visits one
// store entry, reads a history through the one held reader, and turns the
// outcome into a row or a notice, adding every relevant entry to the
// inventory signature.
type walker struct {
	st      *store
	match   *cwdMatcher
	parser  recordParser
	lb      lineBuffer
	reader  *historyReader
	notices wire.SessionNotices
	sig     signature
}

// visit looks at one name of the store. A regular primary history is opened
// and becomes the held reader; an unsafe one (symlink, special file,
// directory) is counted invalid; locks join the signature; anything else is
// ignored.
func (w *walker) visit(name string, typ fs.FileMode) {
	class, id := classify(name)
	switch class {
	case classLock:
		w.sig.addLock(name)
	case classHistory:
		if typ.IsRegular() {
			w.open(name, id)
			return
		}
		w.unsafe(name)
	}
}

func (w *walker) open(name, id string) {
	f, info, err := w.st.dir.OpenFile(name)
	switch {
	case errors.Is(err, fsguard.ErrNotFound):
		return // gone since it was listed; the store's change time says so
	case err != nil:
		w.unsafe(name)
		return
	}
	w.lb.reset()
	w.reader = &historyReader{id: id, name: name, f: f, info: info}
}

// unsafe counts an entry that is not a readable regular history.
func (w *walker) unsafe(name string) {
	w.notices.SessionsOmittedInvalid++
	if info, err := w.st.dir.Lstat(name); err == nil {
		w.sig.addHistory(name, info)
	}
}

// finish closes the held reader after advance ended with done or err and
// returns its row, if it has one. Fatal errors (an oversized record or row,
// a change while reading, cancellation) are returned; the history's own
// faults become notices.
func (w *walker) finish(err error, busyNow func(id string) bool) (*wire.SessionRow, error) {
	h := w.reader
	w.reader = nil
	defer h.close()
	if err == nil && h.changed() {
		return nil, errStale
	}
	switch {
	case err == errForeign:
		w.notices.SessionsOtherDirectories++
	case err == ErrMalformed, err == errUnreadable:
		w.notices.SessionsOmittedInvalid++
	case err != nil:
		return nil, err
	}
	w.sig.addHistory(h.name, h.info)
	if err != nil {
		return nil, nil
	}
	row, err := h.sum.row(h.id, busyNow(h.id))
	switch {
	case err == errNoTime:
		w.notices.SessionsOmittedInvalid++
		return nil, nil
	case err != nil:
		return nil, err
	}
	return &row, nil
}
