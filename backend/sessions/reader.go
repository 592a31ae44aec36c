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

// lineBuffer is the one read buffer and the one bounded record a scan
// holds: bytes are read in 8 KiB chunks; a record that spans chunks (or
// requests) is gathered in rec, which never grows past MaxRecordBytes.
type lineBuffer struct {
	buf      []byte
	pos, end int
	rec      []byte
}

func (lb *lineBuffer) reset() {
	lb.pos, lb.end = 0, 0
	lb.rec = lb.rec[:0]
	if lb.buf == nil {
		lb.buf = make([]byte, readerBufferBytes)
	}
}

// gather appends p to the pending record, failing past the record bound.
// The buffer grows by doubling but never beyond the bound.
func (lb *lineBuffer) gather(p []byte) error {
	need := len(lb.rec) + len(p)
	if need > MaxRecordBytes {
		return errRecordTooLarge
	}
	if need > cap(lb.rec) {
		grown := make([]byte, len(lb.rec), min(max(2*cap(lb.rec), need, 64<<10), MaxRecordBytes))
		copy(grown, lb.rec)
		lb.rec = grown
	}
	lb.rec = append(lb.rec, p...)
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
		if i := bytes.IndexByte(lb.buf[lb.pos:lb.end], '\n'); i >= 0 {
			line := lb.buf[lb.pos : lb.pos+i]
			lb.pos += i + 1
			if err := h.record(lb, line, p, m); err != nil {
				return false, "", err
			}
			if stop, err := h.afterRecord(b); stop != "" || err != nil {
				return false, stop, err
			}
			continue
		}
		if err := lb.gather(lb.buf[lb.pos:lb.end]); err != nil {
			return false, "", err
		}
		lb.pos, lb.end = 0, 0
		if b.bytes <= 0 {
			if len(lb.rec) > 0 {
				return false, wire.ProgressRecordWork, nil
			}
			return false, wire.ProgressByteWork, nil
		}
		if b.expired() {
			return false, wire.ProgressDeadline, nil
		}
		n, rerr := h.f.Read(lb.buf[:b.readLimit(len(lb.buf))])
		b.bytes -= int64(n)
		lb.end = n
		if n > 0 {
			continue
		}
		if rerr != nil && rerr != io.EOF {
			return false, "", errUnreadable
		}
		if rerr == io.EOF || n == 0 {
			return true, "", h.finish(lb, p, m)
		}
	}
}

// record parses and applies one complete line; a line gathered across
// chunks is completed from rec first.
func (h *historyReader) record(lb *lineBuffer, line []byte, p *recordParser, m *cwdMatcher) error {
	if len(lb.rec) > 0 {
		if err := lb.gather(line); err != nil {
			return err
		}
		line = lb.rec
		defer func() { lb.rec = lb.rec[:0] }()
	} else if len(line) > MaxRecordBytes {
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
	if len(lb.rec) == 0 {
		return nil
	}
	line := lb.rec
	defer func() { lb.rec = lb.rec[:0] }()
	rec, err := p.parse(line)
	if err != nil {
		return err
	}
	return h.sum.apply(&rec, m)
}
