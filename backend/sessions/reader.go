package sessions

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

var (
	// errRecordTooLarge: a record over MaxRecordBytes.
	errRecordTooLarge = errors.New("sessions: history record over 8 MiB")
	// errUnreadable: reading the history failed.
	errUnreadable = errors.New("sessions: history unreadable")
)

// lineBuffer is the read buffer of a scan and, at the same time, its one
// bounded record: it starts at 8 KiB and grows (by doubling) only while a
// single record is longer than what it holds, never beyond MaxRecordBytes
// plus 8 KiB. data[start:end] are bytes read but not yet consumed;
// data[start:scanned] is known to hold no newline. Reads fill the spare
// capacity, so a large record is read in large chunks.
type lineBuffer struct {
	data                []byte
	start, scanned, end int
}

// maxLineBuffer is the most a lineBuffer ever holds.
const maxLineBuffer = MaxRecordBytes + readerBufferBytes

func (lb *lineBuffer) reset() {
	lb.start, lb.scanned, lb.end = 0, 0, 0
	if lb.data == nil {
		lb.data = make([]byte, readerBufferBytes)
	}
}

// pending is how many bytes of an unfinished record are held.
func (lb *lineBuffer) pending() int { return lb.end - lb.start }

// nextLine returns the next complete line (without its newline), or false.
func (lb *lineBuffer) nextLine() ([]byte, bool) {
	i := bytes.IndexByte(lb.data[lb.scanned:lb.end], '\n')
	if i < 0 {
		lb.scanned = lb.end
		return nil, false
	}
	nl := lb.scanned + i
	line := lb.data[lb.start:nl]
	lb.start, lb.scanned = nl+1, nl+1
	return line, true
}

// room makes space to read after the pending bytes: it moves them to the
// front and grows the buffer when they fill it. It fails once the pending
// record is longer than MaxRecordBytes.
func (lb *lineBuffer) room() error {
	if lb.pending() > MaxRecordBytes {
		return errRecordTooLarge
	}
	if lb.start > 0 {
		n := copy(lb.data, lb.data[lb.start:lb.end])
		lb.scanned -= lb.start
		lb.start, lb.end = 0, n
	}
	if lb.end == len(lb.data) {
		grown := make([]byte, min(2*len(lb.data), maxLineBuffer))
		copy(grown, lb.data[:lb.end])
		lb.data = grown
	}
	return nil
}

// errOversized: a record over MaxRecordBytes in another agent's store.
// The history is counted in sessions_omitted_oversized and the scan goes
// on (in scout's own store it is errRecordTooLarge, which fails it).
var errOversized = errors.New("sessions: history with a record over 8 MiB")

// historyReader reads one history incrementally. It is held across
// requests by a scan; between requests it holds only its file, its
// history's summary and the scan's lineBuffer.
//
// In scout's own store a history is read to its end and its last line,
// newline or not, is a record; it must not change while it is read. In a
// live agent's store (live) only the bytes it had when it was opened are
// read, an incomplete last line (no newline yet: the agent is writing
// it) is ignored, a record over 8 MiB ends the read with errOversized,
// and growing while it is read is no change.
type historyReader struct {
	src  source
	fr   *frame
	name string
	path string // below the store's base, for the signature
	f    *os.File
	info fsguard.Info // fstat when opened: the history's signature
	hist history
	live bool
	left int64 // live: bytes still to read
}

func (h *historyReader) close() {
	if h.f != nil {
		h.f.Close()
		h.f = nil
	}
}

// changed reports whether the open file no longer is what was opened:
// for scout's own store any change of its signature; for a live store a
// replaced or shrunk file (growth is an agent appending).
func (h *historyReader) changed() bool {
	info, err := fstatFile(h.f)
	if err != nil {
		return true
	}
	if !h.live {
		return !sameSignature(info, h.info)
	}
	return info.Dev != h.info.Dev || info.Ino != h.info.Ino || info.Size < h.info.Size ||
		info.Mode.Perm() != h.info.Mode.Perm() || !info.Mode.IsRegular()
}

// readSize is the size the signature records for the history: what was
// there when it was opened.
func (h *historyReader) readSize() int64 { return h.info.Size }

// advance reads records until the history ends (done), a step bound is met
// (stop names it), or the history turns out foreign, malformed, unreadable
// or oversized (err).
func (h *historyReader) advance(lb *lineBuffer, b *budget) (done bool, stop string, err error) {
	for {
		if line, ok := lb.nextLine(); ok {
			if err := h.record(line); err != nil {
				return false, "", err
			}
			if stop, err := h.afterRecord(b); stop != "" || err != nil {
				return false, stop, err
			}
			continue
		}
		if err := lb.room(); err != nil {
			return false, "", h.tooLarge()
		}
		if b.bytes <= 0 {
			if lb.pending() > 0 {
				return false, wire.ProgressRecordWork, nil
			}
			return false, wire.ProgressByteWork, nil
		}
		if b.expired() {
			return false, wire.ProgressDeadline, nil
		}
		want := b.readLimit(len(lb.data) - lb.end)
		if h.live {
			want = int(min(int64(want), h.left))
		}
		n, rerr := 0, io.EOF
		if want > 0 {
			n, rerr = h.f.Read(lb.data[lb.end : lb.end+want])
		}
		b.bytes -= int64(n)
		h.left -= int64(n)
		lb.end += n
		switch {
		case n > 0:
		case rerr == nil || rerr == io.EOF:
			return true, "", h.finish(lb)
		default:
			return false, "", errUnreadable
		}
	}
}

// tooLarge is the error of a record over MaxRecordBytes.
func (h *historyReader) tooLarge() error {
	if h.live {
		return errOversized
	}
	return errRecordTooLarge
}

// record hands one complete line to the history.
func (h *historyReader) record(line []byte) error {
	if len(line) > MaxRecordBytes {
		return h.tooLarge()
	}
	return h.hist.record(line)
}

// afterRecord charges one line and reports a met bound or cancellation.
func (h *historyReader) afterRecord(b *budget) (string, error) {
	if err := b.ctx.Err(); err != nil {
		return "", err
	}
	b.lines--
	b.worked = true
	switch {
	case b.limited && b.lines <= 0:
		return wire.ProgressHistoryWork, nil
	case b.expired():
		return wire.ProgressDeadline, nil
	}
	return "", nil
}

// finish handles the end of the file: in scout's own store a last line
// without a newline is a record too; in a live store it is still being
// written and is ignored.
func (h *historyReader) finish(lb *lineBuffer) error {
	if lb.pending() == 0 {
		return nil
	}
	line := lb.data[lb.start:lb.end]
	lb.start, lb.scanned = lb.end, lb.end
	if h.live {
		return nil
	}
	return h.record(line)
}
