package sqlitefile

import (
	"fmt"
	"strconv"
	"strings"
)

// schemaTable is sqlite_schema, the table on page 1 describing the others.
func schemaTable(name string) *tableDef {
	d := &tableDef{name: name, root: 1, alias: -1}
	for _, c := range []string{"type", "name", "tbl_name", "rootpage", "sql"} {
		d.cols = append(d.cols, colDef{name: c})
	}
	return d
}

// loadSchema reads sqlite_schema: its tables (each with its definition or
// why it cannot be read) and its indexes.
func (db *DB) loadSchema() error {
	schema := &Table{db: db, def: schemaTable("sqlite_schema")}
	db.tables = []*tableDef{schema.def}
	auto := map[string][]*indexDef{}
	err := schema.Scan(func(r *Row) error {
		var f [5]Value
		for i := range f {
			v, err := r.Value(i)
			if err != nil {
				return err
			}
			f[i] = v
		}
		typ, name, tbl, sql := string(f[0].Bytes), string(f[1].Bytes), string(f[2].Bytes), string(f[4].Bytes)
		root := uint32(0)
		if f[3].Type == Integer && f[3].Int > 0 && f[3].Int <= int64(db.nPages) {
			root = uint32(f[3].Int)
		}
		switch typ {
		case "table":
			db.tables = append(db.tables, db.tableFrom(name, root, sql))
		case "index":
			if root == 0 {
				return nil
			}
			if f[4].Type == Null {
				d := &indexDef{name: name, table: tbl, root: root}
				auto[strings.ToLower(tbl)] = append(auto[strings.ToLower(tbl)], d)
				db.indexes = append(db.indexes, d)
				return nil
			}
			d, err := parseCreateIndex(sql)
			if err != nil {
				return nil // an index this reader cannot parse is not offered
			}
			d.name, d.table, d.root = name, tbl, root
			db.indexes = append(db.indexes, d)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, t := range db.tables {
		mapAutoIndexes(t, auto[strings.ToLower(t.name)])
	}
	return nil
}

// tableFrom makes the definition of a table row of the schema.
func (db *DB) tableFrom(name string, root uint32, sql string) *tableDef {
	if toks, _ := tokenize(sql); len(toks) >= 2 && toks[0].is("CREATE") && toks[1].is("VIRTUAL") {
		return &tableDef{name: name, err: unsupported("virtual table")}
	}
	d, err := parseCreateTable(sql)
	if err != nil {
		if err == errSyntax {
			err = unsupported("table definition not understood")
		}
		return &tableDef{name: name, err: err}
	}
	d.name = name
	if root == 0 {
		return &tableDef{name: name, err: malformed("table without a root page")}
	}
	d.root = root
	return d
}

// mapAutoIndexes gives the automatic indexes of t (sqlite_autoindex_T_N,
// numbered in the order of t's PRIMARY KEY and UNIQUE constraints) their
// columns when their number is the number of keys the definition has;
// otherwise they stay without columns, never offered.
func mapAutoIndexes(t *tableDef, auto []*indexDef) {
	if t.err != nil || len(auto) != len(t.keys) {
		return
	}
	prefix := "sqlite_autoindex_" + t.name + "_"
	for _, ix := range auto {
		if len(ix.name) <= len(prefix) || !strings.EqualFold(ix.name[:len(prefix)], prefix) {
			return
		}
		n, err := strconv.Atoi(ix.name[len(prefix):])
		if err != nil || n < 1 || n > len(t.keys) {
			return
		}
	}
	for _, ix := range auto {
		n, _ := strconv.Atoi(ix.name[len(prefix):])
		ix.cols = t.keys[n-1]
	}
}

// String describes a Version, for logs and test failures.
func (v Version) String() string {
	return fmt.Sprintf("counter %d, wal %08x:%08x frame %d checksum %08x%08x", v.ChangeCounter, v.Salt1, v.Salt2, v.Frame, v.Checksum1, v.Checksum2)
}
