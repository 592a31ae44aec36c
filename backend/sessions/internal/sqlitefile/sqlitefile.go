package sqlitefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Files are a database's files as opened by the caller.
type Files struct {
	// Main is the database file, of MainSize bytes.
	Main     io.ReaderAt
	MainSize int64
	// WAL is its -wal file, of WALSize bytes; nil reads the main file
	// alone (a database at rest).
	WAL     io.ReaderAt
	WALSize int64
	// SHM is its -shm file, read with WAL to detect checkpoints; nil
	// leaves Stable to compare the WAL header alone.
	SHM io.ReaderAt
}

// The errors of the package; the errors returned wrap one of them (test
// with errors.Is).
var (
	// ErrNotDatabase is a main file without SQLite's header.
	ErrNotDatabase = errors.New("sqlitefile: not a database")
	// ErrMalformed is any corruption: bad page types, cycles,
	// out-of-range pointers, bad varints, bad records.
	ErrMalformed = errors.New("sqlitefile: malformed database")
	// ErrUnsupported is a database or table this reader does not read:
	// UTF-16 text, WITHOUT ROWID or virtual tables, generated columns,
	// non-constant defaults.
	ErrUnsupported = errors.New("sqlitefile: unsupported database")
	// ErrNoTable is a table the schema does not have.
	ErrNoTable = errors.New("sqlitefile: no such table")
	// ErrChanged says a database changed while read (for callers that
	// retry when Stable is false).
	ErrChanged = errors.New("sqlitefile: changed while read")
)

// malformed is ErrMalformed with what was wrong (never a path or content).
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

const (
	magic       = "SQLite format 3\x00"
	headerSize  = 100
	maxDepth    = 20
	walHdrSize  = 32
	frameHdrLen = 24
)

// Version names the last commit a DB saw: comparable with ==, it changes
// with every commit (the WAL parts) and, without a WAL, with every
// rollback-mode commit (the header's change counter).
type Version struct {
	// ChangeCounter is the database header's file change counter (as the
	// snapshot's page 1 has it).
	ChangeCounter uint32
	// Salt1 and Salt2 are the WAL header's salts, Frame the 1-based index
	// of the last commit frame, Checksum1 and Checksum2 its cumulative
	// checksum: all zero without a WAL or commit in it.
	Salt1, Salt2         uint32
	Frame                uint32
	Checksum1, Checksum2 uint32
}

// DB is a snapshot of a database, opened by Open.
type DB struct {
	f        Files
	pageSize int
	usable   int
	nPages   uint32
	// frames maps a page to the offset of its newest committed copy in
	// the WAL.
	frames  map[uint32]int64
	version Version
	// walHdr is the WAL header as read by Open (nil: shorter); shmCk
	// the -shm checkpoint counters (shmOK: they were read).
	walHdr  []byte
	shmCk   [8]byte
	shmOK   bool
	mainHdr [headerSize]byte

	tables  []*tableDef
	indexes []*indexDef

	// mu guards interior, the interior b-tree pages read so far (their
	// bytes, interiorBytes in all): a snapshot's pages do not change.
	mu            sync.Mutex
	interior      map[uint32][]byte
	interiorBytes int
}

// Open reads a database's header, its WAL up to the last valid commit and
// its schema. The DB reads pages lazily from f afterwards, which must stay
// open while it is used.
func Open(f Files) (*DB, error) {
	if f.Main == nil || f.MainSize < 0 || f.WALSize < 0 {
		return nil, ErrNotDatabase
	}
	db := &DB{f: f}
	var hdr [headerSize]byte
	mainOK := false
	if f.MainSize >= int64(len(magic)) {
		n := min(f.MainSize, headerSize)
		if err := readFull(f.Main, hdr[:n], 0); err != nil {
			return nil, err
		}
		if string(hdr[:len(magic)]) != magic {
			return nil, ErrNotDatabase
		}
		if n < headerSize {
			return nil, malformed("header truncated")
		}
		ps, err := pageSizeOf(binary.BigEndian.Uint16(hdr[16:]))
		if err != nil {
			return nil, err
		}
		db.pageSize = ps
		mainOK = true
		db.mainHdr = hdr
	} else if f.MainSize != 0 || f.WAL == nil {
		return nil, ErrNotDatabase
	}
	if f.WAL != nil {
		if err := db.readWAL(); err != nil {
			return nil, err
		}
	}
	if db.pageSize == 0 {
		// An empty main file whose WAL holds no commit: no database.
		return nil, ErrNotDatabase
	}
	if db.version.Frame == 0 {
		if !mainOK {
			return nil, ErrNotDatabase
		}
		db.nPages = pageCount(hdr[:], f.MainSize, db.pageSize)
	}
	if err := db.checkHeader(); err != nil {
		return nil, err
	}
	if err := db.loadSchema(); err != nil {
		return nil, err
	}
	return db, nil
}

// pageSizeOf decodes the header's page size field.
func pageSizeOf(v uint16) (int, error) {
	ps := int(v)
	if v == 1 {
		ps = 65536
	}
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		return 0, malformed("page size %d", ps)
	}
	return ps, nil
}

// pageCount is the database's size in pages by its header when valid (a
// nonzero count written by the commit that set the change counter), else
// by the file size.
func pageCount(hdr []byte, size int64, pageSize int) uint32 {
	n := binary.BigEndian.Uint32(hdr[28:])
	if n != 0 && bytes.Equal(hdr[24:28], hdr[92:96]) {
		return n
	}
	pages := (size + int64(pageSize) - 1) / int64(pageSize)
	if pages > 1<<32-1 {
		pages = 1<<32 - 1
	}
	return uint32(pages)
}

// checkHeader validates page 1's header as the snapshot has it.
func (db *DB) checkHeader() error {
	if db.nPages < 1 {
		return malformed("no pages")
	}
	var hdr [headerSize]byte
	if err := db.readPageAt(1, 0, hdr[:]); err != nil {
		return err
	}
	if string(hdr[:len(magic)]) != magic {
		return malformed("page 1 has no header")
	}
	ps, err := pageSizeOf(binary.BigEndian.Uint16(hdr[16:]))
	if err != nil {
		return err
	}
	if ps != db.pageSize {
		return malformed("page size changed")
	}
	if hdr[19] > 2 || hdr[18] > 2 {
		return unsupported("file format version %d", hdr[19])
	}
	if hdr[21] != 64 || hdr[22] != 32 || hdr[23] != 32 {
		return malformed("payload fractions")
	}
	db.usable = ps - int(hdr[20])
	if db.usable < 480 {
		return malformed("usable size %d", db.usable)
	}
	switch enc := binary.BigEndian.Uint32(hdr[56:]); enc {
	case 0, 1:
	case 2, 3:
		return unsupported("UTF-16 text encoding")
	default:
		return malformed("text encoding %d", enc)
	}
	db.version.ChangeCounter = binary.BigEndian.Uint32(hdr[24:])
	return nil
}

// Version names the last commit the snapshot holds.
func (db *DB) Version() Version { return db.version }

// PageSize is the database's page size in bytes.
func (db *DB) PageSize() int { return db.pageSize }

// PageCount is the database's size in pages as the snapshot has it.
func (db *DB) PageCount() uint32 { return db.nPages }

// readFull reads len(b) bytes at off, any short read being ErrMalformed
// (a file shorter than its header says) and any other error returned.
func readFull(r io.ReaderAt, b []byte, off int64) error {
	n, err := r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return malformed("file truncated")
	}
	return err
}

// readPageAt reads len(b) bytes at offset off of page pgno as the snapshot
// has it: its newest committed frame in the WAL, else the main file.
func (db *DB) readPageAt(pgno uint32, off int, b []byte) error {
	if pgno < 1 || pgno > db.nPages {
		return malformed("page %d out of range", pgno)
	}
	if off < 0 || off+len(b) > db.pageSize {
		return malformed("read past a page")
	}
	if at, ok := db.frames[pgno]; ok {
		return readFull(db.f.WAL, b, at+int64(off))
	}
	pos := int64(pgno-1)*int64(db.pageSize) + int64(off)
	if pos+int64(len(b)) > db.f.MainSize {
		return malformed("page %d past the end of the file", pgno)
	}
	return readFull(db.f.Main, b, pos)
}
