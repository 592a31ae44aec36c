package sqlitefile

import "encoding/binary"

// The b-tree page types.
const (
	indexInterior = 2
	tableInterior = 5
	indexLeaf     = 10
	tableLeaf     = 13
)

// btPage is one b-tree page: its usable bytes, type, cell count, where its
// cell pointer array starts, and (interior pages) its right-most child.
type btPage struct {
	data  []byte
	kind  byte
	n     int
	ptrs  int
	right uint32
	// kept says data is the snapshot's copy of an interior page, never
	// to be reused as a buffer.
	kept bool
}

// btreePage reads and checks page pgno's b-tree header.
func (db *DB) btreePage(pgno uint32) (*btPage, error) {
	return db.btreePageInto(pgno, nil)
}

// btreePageInto is btreePage reading into buf when it is a page's size.
// Interior pages are kept (see interior) and read once a snapshot.
func (db *DB) btreePageInto(pgno uint32, buf []byte) (*btPage, error) {
	db.mu.Lock()
	b, ok := db.interior[pgno]
	db.mu.Unlock()
	if !ok {
		if len(buf) != db.pageSize {
			buf = make([]byte, db.pageSize)
		}
		b = buf
		if err := db.readPageAt(pgno, 0, b); err != nil {
			return nil, err
		}
	}
	p, err := db.parsePage(pgno, b)
	if err != nil || ok || p.leaf() {
		return p, err
	}
	db.mu.Lock()
	if db.interiorBytes+len(b) <= maxInteriorBytes {
		if db.interior == nil {
			db.interior = map[uint32][]byte{}
		}
		db.interior[pgno] = b
		db.interiorBytes += len(b)
		p.kept = true
	}
	db.mu.Unlock()
	return p, nil
}

// maxInteriorBytes bounds the interior pages a snapshot keeps: a path from
// the root to any leaf of every b-tree read is then read once, however
// many rows are looked up by rowid or key.
const maxInteriorBytes = 4 << 20

// parsePage checks the b-tree header of page pgno, whose bytes are b.
func (db *DB) parsePage(pgno uint32, b []byte) (*btPage, error) {
	b = b[:db.usable]
	h := 0
	if pgno == 1 {
		h = headerSize
	}
	p := &btPage{data: b, kind: b[h]}
	switch p.kind {
	case tableLeaf, indexLeaf:
		p.ptrs = h + 8
	case tableInterior, indexInterior:
		p.ptrs = h + 12
		p.right = binary.BigEndian.Uint32(b[h+8:])
	default:
		return nil, malformed("page %d has type %d", pgno, p.kind)
	}
	p.n = int(binary.BigEndian.Uint16(b[h+3:]))
	if p.ptrs+2*p.n > len(b) {
		return nil, malformed("page %d has too many cells", pgno)
	}
	return p, nil
}

func (p *btPage) leaf() bool { return p.kind == tableLeaf || p.kind == indexLeaf }

// cell is the offset of cell i, checked to lie after the pointer array.
func (p *btPage) cell(i int) (int, error) {
	off := int(binary.BigEndian.Uint16(p.data[p.ptrs+2*i:]))
	if off < p.ptrs+2*p.n || off >= len(p.data) {
		return 0, malformed("cell pointer out of range")
	}
	return off, nil
}

// child reads the 4-byte left child pointer at off.
func (p *btPage) child(off int) (uint32, int, error) {
	if off+4 > len(p.data) {
		return 0, 0, malformed("cell past its page")
	}
	return binary.BigEndian.Uint32(p.data[off:]), off + 4, nil
}

// uvarint reads a varint at off.
func (p *btPage) uvarint(off int) (uint64, int, error) {
	v, n := varint(p.data[off:])
	if n == 0 {
		return 0, 0, malformed("varint past its page")
	}
	return v, off + n, nil
}

// tableLeafCell is cell i of a table leaf: its rowid and payload.
func (db *DB) tableLeafCell(p *btPage, i int) (int64, payload, error) {
	off, err := p.cell(i)
	if err != nil {
		return 0, payload{}, err
	}
	size, off, err := p.uvarint(off)
	if err != nil {
		return 0, payload{}, err
	}
	rowid, off, err := p.uvarint(off)
	if err != nil {
		return 0, payload{}, err
	}
	pl, err := db.cellPayload(p, off, size, true)
	return int64(rowid), pl, err
}

// tableInteriorCell is cell i of a table interior page: its left child and
// key (the largest rowid in that child).
func (p *btPage) tableInteriorCell(i int) (uint32, int64, error) {
	off, err := p.cell(i)
	if err != nil {
		return 0, 0, err
	}
	child, off, err := p.child(off)
	if err != nil {
		return 0, 0, err
	}
	key, _, err := p.uvarint(off)
	return child, int64(key), err
}

// indexCell is cell i of an index page: its left child (interior pages)
// and payload (the key record).
func (db *DB) indexCell(p *btPage, i int) (uint32, payload, error) {
	off, err := p.cell(i)
	if err != nil {
		return 0, payload{}, err
	}
	var child uint32
	if !p.leaf() {
		if child, off, err = p.child(off); err != nil {
			return 0, payload{}, err
		}
	}
	size, off, err := p.uvarint(off)
	if err != nil {
		return 0, payload{}, err
	}
	pl, err := db.cellPayload(p, off, size, false)
	return child, pl, err
}

// cellPayload is the payload of size bytes whose local part starts at off,
// split between the page and an overflow chain as SQLite splits it.
func (db *DB) cellPayload(p *btPage, off int, size uint64, table bool) (payload, error) {
	if size > uint64(db.f.MainSize+db.f.WALSize) {
		return payload{}, malformed("payload larger than the files")
	}
	u := int64(db.usable)
	x := u - 35
	if !table {
		x = (u-12)*64/255 - 23
	}
	m := (u-12)*32/255 - 23
	local := int64(size)
	if local > x {
		local = m + (int64(size)-m)%(u-4)
		if local > x {
			local = m
		}
	}
	end := int64(off) + local
	pl := payload{db: db, size: int64(size)}
	if local < int64(size) {
		if end+4 > int64(len(p.data)) {
			return payload{}, malformed("cell past its page")
		}
		pl.first = binary.BigEndian.Uint32(p.data[end:])
		if pl.first == 0 {
			return payload{}, malformed("missing overflow page")
		}
	} else if end > int64(len(p.data)) {
		return payload{}, malformed("cell past its page")
	}
	pl.local = p.data[off:end]
	return pl, nil
}

// payload is a cell's payload: local bytes in its page, the rest in a
// chain of overflow pages (each a 4-byte next pointer and usable-4 bytes)
// followed only as far as a read needs.
type payload struct {
	db    *DB
	local []byte
	size  int64
	first uint32
	chain []uint32
	// inChain holds the pages of chain, to fail on a loop.
	inChain map[uint32]bool
}

// read returns n bytes of the payload at off: a slice of the page when
// they are local, else a new buffer filled from the overflow pages.
func (p *payload) read(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off+n > p.size {
		return nil, malformed("read past a payload")
	}
	l := int64(len(p.local))
	if off+n <= l {
		return p.local[off : off+n], nil
	}
	out := make([]byte, n)
	var done int64
	if off < l {
		done = int64(copy(out, p.local[off:]))
	}
	chunk := int64(p.db.usable - 4)
	for done < n {
		pos := off + done - l
		pg, err := p.overflowPage(pos / chunk)
		if err != nil {
			return nil, err
		}
		in := pos % chunk
		m := min(chunk-in, n-done)
		if err := p.db.readPageAt(pg, int(4+in), out[done:done+m]); err != nil {
			return nil, err
		}
		done += m
	}
	return out, nil
}

// overflowPage is the k-th page (from 0) of the overflow chain, reading
// the next pointers of those before it not yet known. k is below the
// chain's length the payload size implies, which bounds the walk.
func (p *payload) overflowPage(k int64) (uint32, error) {
	for int64(len(p.chain)) <= k {
		next := p.first
		if n := len(p.chain); n > 0 {
			var b [4]byte
			if err := p.db.readPageAt(p.chain[n-1], 0, b[:]); err != nil {
				return 0, err
			}
			next = binary.BigEndian.Uint32(b[:])
		}
		if next < 1 || next > p.db.nPages {
			return 0, malformed("overflow chain ends early")
		}
		if p.inChain == nil {
			p.inChain = map[uint32]bool{}
		}
		if p.inChain[next] {
			return 0, malformed("overflow chain loops")
		}
		p.inChain[next] = true
		p.chain = append(p.chain, next)
	}
	return p.chain[k], nil
}

// record is a record's decoded header over its payload.
type record struct {
	p     payload
	types []uint64
	offs  []int64
}

// parse decodes the record header: the serial types and where each
// value's bytes start.
func (r *record) parse() error {
	r.types, r.offs = r.types[:0], r.offs[:0]
	b, err := r.p.read(0, min(r.p.size, 9))
	if err != nil {
		return err
	}
	h, n := varint(b)
	if n == 0 || h < uint64(n) || h > uint64(r.p.size) {
		return malformed("bad record header size")
	}
	hdr, err := r.p.read(0, int64(h))
	if err != nil {
		return err
	}
	body := int64(h)
	for pos := n; pos < len(hdr); {
		st, m := varint(hdr[pos:])
		if m == 0 {
			return malformed("bad serial type")
		}
		sz := serialSize(st)
		if sz < 0 || sz > r.p.size-body {
			return malformed("bad serial type")
		}
		r.types = append(r.types, st)
		r.offs = append(r.offs, body)
		body += sz
		pos += m
	}
	return nil
}

// value decodes field i (i < len(r.types)).
func (r *record) value(i int) (Value, error) {
	st := r.types[i]
	b, err := r.p.read(r.offs[i], serialSize(st))
	if err != nil {
		return Value{}, err
	}
	return decodeValue(st, b), nil
}
