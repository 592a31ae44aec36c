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

// historyReader reads one history incrementally. It is held across
// requests by a scan; between requests it holds only its file, its summary
// and the scan's lineBuffer.
type historyReader struct {
	id   string
	name string
	f    *os.File
	info fsguard.Info // fstat when opened: the history's signature
	sum  summary
}

func (h *historyReader) close() {
	if h.f != nil {
		h.f.Close()
		h.f = nil
	}
}

// changed reports whether the open file no longer matches the signature
// it had when it was opened.
func (h *historyReader) changed() bool {
	info, err := fstatFile(h.f)
	return err != nil || !sameSignature(info, h.info)
}

// advance reads records until the history ends (done), a step bound is met
// (stop names it), or the history turns out foreign, malformed, unreadable
// or oversized (err).
func (h *historyReader) advance(lb *lineBuffer, p *recordParser, m *cwdMatcher, b *budget) (done bool, stop string, err error) {
	for {
		if line, ok := lb.nextLine(); ok {
			if err := h.record(line, p, m); err != nil {
				return false, "", err
			}
			if stop, err := h.afterRecord(b); stop != "" || err != nil {
				return false, stop, err
			}
			continue
		}
		if err := lb.room(); err != nil {
			return false, "", err
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
		n, rerr := h.f.Read(lb.data[lb.end : lb.end+b.readLimit(len(lb.data)-lb.end)])
		b.bytes -= int64(n)
		lb.end += n
		switch {
		case n > 0:
		case rerr == nil || rerr == io.EOF:
			return true, "", h.finish(lb, p, m)
		default:
			return false, "", errUnreadable
		}
	}
}

// record parses and applies one complete line.
func (h *historyReader) record(line []byte, p *recordParser, m *cwdMatcher) error {
	if len(line) > MaxRecordBytes {
		return errRecordTooLarge
	}
	rec, err := p.parse(line)
	if err != nil {
		return err
	}
	return h.sum.apply(&rec, m)
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

// finish handles the end of the file: a last line without a newline is a
// record too.
func (h *historyReader) finish(lb *lineBuffer, p *recordParser, m *cwdMatcher) error {
	if lb.pending() == 0 {
		return nil
	}
	line := lb.data[lb.start:lb.end]
	lb.start, lb.scanned = lb.end, lb.end
	return h.record(line, p, m)
}
