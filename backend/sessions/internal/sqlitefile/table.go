package sqlitefile

import (
	"errors"
	"fmt"
	"strings"
)

// Table is a rowid table of a DB.
type Table struct {
	db  *DB
	def *tableDef
}

// Row is one row of a Table, valid only during the callback that gives it
// (Scan), or as long as it is kept (Get).
type Row struct {
	t      *Table
	rowid  int64
	rec    record
	parsed bool
}

// Table returns the rowid table called name (case-insensitive, as SQLite
// compares names): ErrNoTable when the schema has none, ErrUnsupported
// when it is a WITHOUT ROWID or virtual table or one this reader cannot
// decode (generated columns, an unparsable definition).
func (db *DB) Table(name string) (*Table, error) {
	if strings.EqualFold(name, "sqlite_master") {
		name = "sqlite_schema"
	}
	for _, d := range db.tables {
		if strings.EqualFold(d.name, name) {
			if d.err != nil {
				return nil, d.err
			}
			return &Table{db: db, def: d}, nil
		}
	}
	return nil, ErrNoTable
}

// Tables lists the names of the schema's tables (all of them, readable or
// not), in schema order.
func (db *DB) Tables() []string {
	names := make([]string, len(db.tables))
	for i, d := range db.tables {
		names[i] = d.name
	}
	return names
}

// Name is the table's name as the schema spells it.
func (t *Table) Name() string { return t.def.name }

// Columns lists the table's columns in declaration order.
func (t *Table) Columns() []string {
	names := make([]string, len(t.def.cols))
	for i, c := range t.def.cols {
		names[i] = c.name
	}
	return names
}

// Column is the index in Columns of the column called name
// (case-insensitive), or -1.
func (t *Table) Column(name string) int {
	for i, c := range t.def.cols {
		if strings.EqualFold(c.name, name) {
			return i
		}
	}
	return -1
}

// Scan calls fn with every row in rowid order; an error from fn stops the
// scan and is returned. The row is valid only during fn.
func (t *Table) Scan(fn func(r *Row) error) error {
	w := walker{db: t.db, seen: map[uint32]bool{}}
	r := &Row{t: t}
	return w.table(t.def.root, 0, func(rowid int64, pl payload) error {
		r.rowid, r.rec.p, r.parsed = rowid, pl, false
		return fn(r)
	})
}

// Get returns the row of rowid, with false when there is none.
func (t *Table) Get(rowid int64) (*Row, bool, error) {
	db := t.db
	pgno := t.def.root
	for depth := 0; ; depth++ {
		if depth > maxDepth {
			return nil, false, malformed("b-tree too deep")
		}
		p, err := db.btreePage(pgno)
		if err != nil {
			return nil, false, err
		}
		switch p.kind {
		case tableLeaf:
			for i := range p.n {
				id, pl, err := db.tableLeafCell(p, i)
				if err != nil {
					return nil, false, err
				}
				if id == rowid {
					return &Row{t: t, rowid: id, rec: record{p: pl}}, true, nil
				}
			}
			return nil, false, nil
		case tableInterior:
			next := p.right
			for i := range p.n {
				child, key, err := p.tableInteriorCell(i)
				if err != nil {
					return nil, false, err
				}
				if rowid <= key {
					next = child
					break
				}
			}
			pgno = next
		default:
			return nil, false, malformed("index page in a table b-tree")
		}
	}
}

// Rowid is the row's rowid.
func (r *Row) Rowid() int64 { return r.rowid }

// Value is column i of the row (an index in Columns). The INTEGER PRIMARY
// KEY column gives the rowid; a column added after the row was written
// gives its constant DEFAULT (ErrUnsupported when that is not constant).
// Overflow pages are read only when the value lies in them.
func (r *Row) Value(i int) (Value, error) {
	d := r.t.def
	if i < 0 || i >= len(d.cols) {
		return Value{}, fmt.Errorf("sqlitefile: column %d out of range", i)
	}
	if i == d.alias {
		return Value{Type: Integer, Int: r.rowid}, nil
	}
	if !r.parsed {
		if err := r.rec.parse(); err != nil {
			return Value{}, err
		}
		r.parsed = true
	}
	c := &d.cols[i]
	v := c.def
	if i >= len(r.rec.types) {
		if c.defErr != nil {
			return Value{}, c.defErr
		}
	} else {
		var err error
		if v, err = r.rec.value(i); err != nil {
			return Value{}, err
		}
	}
	if c.real && v.Type == Integer {
		v = Value{Type: Float, Float: float64(v.Int)}
	}
	return v, nil
}

// walker walks b-trees, failing on a page seen twice (a cycle, or a page
// shared by two parents) or a tree deeper than maxDepth.
type walker struct {
	db   *DB
	seen map[uint32]bool
	// spare is a leaf page's buffer, free again once its cells were
	// visited (what they gave is valid only during the visit).
	spare []byte
}

func (w *walker) enter(pgno uint32, depth int) (*btPage, error) {
	if depth > maxDepth {
		return nil, malformed("b-tree too deep")
	}
	if w.seen[pgno] {
		return nil, malformed("page %d reached twice", pgno)
	}
	w.seen[pgno] = true
	buf := w.spare
	w.spare = nil
	return w.db.btreePageInto(pgno, buf)
}

// release gives a leaf page's buffer back for the next leaf.
func (w *walker) release(p *btPage) {
	if p.kept {
		return
	}
	w.spare = p.data[:cap(p.data)]
}

// table calls visit with every cell of the table b-tree at pgno in order.
func (w *walker) table(pgno uint32, depth int, visit func(int64, payload) error) error {
	p, err := w.enter(pgno, depth)
	if err != nil {
		return err
	}
	switch p.kind {
	case tableLeaf:
		for i := range p.n {
			rowid, pl, err := w.db.tableLeafCell(p, i)
			if err != nil {
				return err
			}
			if err := visit(rowid, pl); err != nil {
				return err
			}
		}
		w.release(p)
		return nil
	case tableInterior:
		for i := range p.n {
			child, _, err := p.tableInteriorCell(i)
			if err != nil {
				return err
			}
			if err := w.table(child, depth+1, visit); err != nil {
				return err
			}
		}
		return w.table(p.right, depth+1, visit)
	}
	return malformed("index page in a table b-tree")
}

// Index is an index of a table, usable to find its rows by equality on
// the index's first column.
type Index struct {
	db  *DB
	def *indexDef
}

// Name is the index's name as the schema spells it.
func (ix *Index) Name() string { return ix.def.name }

// Index returns an index of t whose first column is column
// (case-insensitive) with the BINARY collation, ascending, and not
// partial, or nil when t has none. PRIMARY KEY and UNIQUE constraints'
// automatic indexes count when their columns are known for sure.
func (t *Table) Index(column string) *Index {
	ci := t.Column(column)
	if ci < 0 {
		return nil
	}
	for _, ix := range t.db.indexes {
		if !strings.EqualFold(ix.table, t.def.name) || ix.partial || len(ix.cols) == 0 {
			continue
		}
		c := ix.cols[0]
		if c.expr || c.desc || !strings.EqualFold(c.name, column) {
			continue
		}
		coll := c.collate
		if coll == "" {
			coll = t.def.cols[ci].collate
		}
		if coll != "" && !strings.EqualFold(coll, "BINARY") {
			continue
		}
		return &Index{db: t.db, def: ix}
	}
	return nil
}

// errStop ends a walk early without an error.
var errStop = errors.New("stop")

// Seek calls fn with the rowid of every entry whose first column equals
// key (by Compare), in index order, until fn returns false or an error
// (returned).
func (ix *Index) Seek(key Value, fn func(rowid int64) (more bool, err error)) error {
	return ix.walk(func(first Value) int { return Compare(first, key) }, func(_ Value, rowid int64) (bool, error) {
		return fn(rowid)
	})
}

// After calls fn with the first column and the rowid of every entry
// whose first column sorts after key (by Compare), in index order, until
// fn returns false or an error (returned): keyset paging over an index.
// first is valid only during fn.
func (ix *Index) After(key Value, fn func(first Value, rowid int64) (more bool, err error)) error {
	// Entries at or before key order as -1 (skipped, with the children
	// before them), the others as 0 (emitted); none ends the walk.
	return ix.walk(func(first Value) int { return min(Compare(first, key), 1) - 1 }, fn)
}

// walk calls fn with the first column and the rowid of the entries order
// places at 0, in index order: order tells, from an entry's first
// column, whether it sorts before the entries wanted (-1), among them (0)
// or after them (1, which ends the walk).
func (ix *Index) walk(order func(first Value) int, fn func(first Value, rowid int64) (bool, error)) error {
	w := walker{db: ix.db, seen: map[uint32]bool{}}
	var rec record
	var first Value
	cmp := func(pl payload) (int, error) {
		rec.p = pl
		if err := rec.parse(); err != nil {
			return 0, err
		}
		if len(rec.types) < 2 {
			return 0, malformed("index record too short")
		}
		v, err := rec.value(0)
		if err != nil {
			return 0, err
		}
		first = v
		return order(v), nil
	}
	emit := func() error {
		id, err := rec.value(len(rec.types) - 1)
		if err != nil {
			return err
		}
		if id.Type != Integer {
			return malformed("index entry without a rowid")
		}
		more, err := fn(first, id.Int)
		if err == nil && !more {
			err = errStop
		}
		return err
	}
	_, err := w.seek(ix.def.root, 0, cmp, emit)
	if err == errStop {
		return nil
	}
	return err
}

// seek walks the index b-tree at pgno in order, skipping the children
// that can hold no entry equal to the key: cmp orders an entry against
// the key, emit reports the entry cmp last saw; done says an entry past
// the key was met, which ends the walk.
func (w *walker) seek(pgno uint32, depth int, cmp func(payload) (int, error), emit func() error) (done bool, err error) {
	p, err := w.enter(pgno, depth)
	if err != nil {
		return false, err
	}
	if p.kind != indexLeaf && p.kind != indexInterior {
		return false, malformed("table page in an index b-tree")
	}
	for i := range p.n {
		child, pl, err := w.db.indexCell(p, i)
		if err != nil {
			return false, err
		}
		c, err := cmp(pl)
		if err != nil {
			return false, err
		}
		if !p.leaf() && c >= 0 {
			// The child's entries sort at most as the cell's and before it.
			if done, err := w.seek(child, depth+1, cmp, emit); err != nil || done {
				return done, err
			}
			if c, err = cmp(pl); err != nil {
				return false, err
			}
		}
		if c > 0 {
			return true, nil
		}
		if c == 0 {
			if err := emit(); err != nil {
				return false, err
			}
		}
	}
	if p.leaf() {
		return false, nil
	}
	return w.seek(p.right, depth+1, cmp, emit)
}

// walkIndex calls visit with every entry of the index b-tree at pgno in
// order (for checks and fuzzing).
func (w *walker) walkIndex(pgno uint32, depth int, visit func(payload) error) error {
	p, err := w.enter(pgno, depth)
	if err != nil {
		return err
	}
	if p.kind != indexLeaf && p.kind != indexInterior {
		return malformed("table page in an index b-tree")
	}
	for i := range p.n {
		child, pl, err := w.db.indexCell(p, i)
		if err != nil {
			return err
		}
		if !p.leaf() {
			if err := w.walkIndex(child, depth+1, visit); err != nil {
				return err
			}
		}
		if err := visit(pl); err != nil {
			return err
		}
	}
	if p.leaf() {
		return nil
	}
	return w.walkIndex(p.right, depth+1, visit)
}

// Scan calls fn with every entry of the index in order: its key values
// (the indexed columns, then the rowid: at least two), valid only during
// fn.
func (ix *Index) Scan(fn func(key []Value) error) error {
	w := walker{db: ix.db, seen: map[uint32]bool{}}
	var rec record
	var vals []Value
	return w.walkIndex(ix.def.root, 0, func(pl payload) error {
		rec.p = pl
		if err := rec.parse(); err != nil {
			return err
		}
		if len(rec.types) < 2 {
			return malformed("index record too short")
		}
		vals = vals[:0]
		for i := range rec.types {
			v, err := rec.value(i)
			if err != nil {
				return err
			}
			vals = append(vals, v)
		}
		return fn(vals)
	})
}
