package sqlitefile

import (
	"errors"
	"strconv"
	"strings"
)

// This file parses the CREATE TABLE and CREATE INDEX statements the
// schema keeps, for what reading needs: column names, the rowid alias,
// constant defaults, collations, WITHOUT ROWID, the columns of indexes
// and of PRIMARY KEY and UNIQUE constraints.

type tokKind uint8

const (
	tIdent  tokKind = iota + 1 // bare word (keywords too)
	tQuoted                    // "x", `x`, [x]
	tString                    // 'x'
	tNumber
	tBlob // X'hex', text the decoded bytes
	tPunct
)

type token struct {
	kind tokKind
	text string
}

// is says t is the bare word w (case-insensitive).
func (t token) is(w string) bool { return t.kind == tIdent && strings.EqualFold(t.text, w) }

// name says t can be a name (bare, quoted, or a string as SQLite allows).
func (t token) name() bool { return t.kind == tIdent || t.kind == tQuoted || t.kind == tString }

var errSyntax = errors.New("sqlitefile: cannot parse a schema statement")

// tokenize splits sql into tokens, dropping spaces and comments.
func tokenize(sql string) ([]token, error) {
	var toks []token
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				return toks, nil
			}
			i += j + 1
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				return toks, nil // SQLite ends an open comment at the end
			}
			i += j + 4
		case c == '\'' || c == '"' || c == '`':
			text, n, ok := quoted(sql[i:], c)
			if !ok {
				return nil, errSyntax
			}
			kind := tQuoted
			if c == '\'' {
				kind = tString
			}
			toks = append(toks, token{kind, text})
			i += n
		case c == '[':
			j := strings.IndexByte(sql[i:], ']')
			if j < 0 {
				return nil, errSyntax
			}
			toks = append(toks, token{tQuoted, sql[i+1 : i+j]})
			i += j + 1
		case (c == 'x' || c == 'X') && i+1 < len(sql) && sql[i+1] == '\'':
			text, n, ok := quoted(sql[i+1:], '\'')
			if !ok || len(text)%2 != 0 {
				return nil, errSyntax
			}
			b := make([]byte, len(text)/2)
			for k := range b {
				v, err := strconv.ParseUint(text[2*k:2*k+2], 16, 8)
				if err != nil {
					return nil, errSyntax
				}
				b[k] = byte(v)
			}
			toks = append(toks, token{tBlob, string(b)})
			i += 1 + n
		case isDigit(c) || (c == '.' && i+1 < len(sql) && isDigit(sql[i+1])):
			j := i
			if c == '0' && i+1 < len(sql) && (sql[i+1] == 'x' || sql[i+1] == 'X') {
				j += 2
				for j < len(sql) && isHex(sql[j]) {
					j++
				}
			} else {
				for j < len(sql) && (isDigit(sql[j]) || sql[j] == '.') {
					j++
				}
				if j < len(sql) && (sql[j] == 'e' || sql[j] == 'E') {
					k := j + 1
					if k < len(sql) && (sql[k] == '+' || sql[k] == '-') {
						k++
					}
					if k < len(sql) && isDigit(sql[k]) {
						for j = k; j < len(sql) && isDigit(sql[j]); j++ {
						}
					}
				}
			}
			toks = append(toks, token{tNumber, sql[i:j]})
			i = j
		case isWord(c):
			j := i
			for j < len(sql) && (isWord(sql[j]) || isDigit(sql[j]) || sql[j] == '$') {
				j++
			}
			toks = append(toks, token{tIdent, sql[i:j]})
			i = j
		default:
			toks = append(toks, token{tPunct, sql[i : i+1]})
			i++
		}
	}
	return toks, nil
}

// quoted reads the quoted text at the start of s (s[0] == q), a doubled q
// standing for one: the text, the length read and whether it closed.
func quoted(s string, q byte) (string, int, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != q {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == q {
			b.WriteByte(q)
			i++
			continue
		}
		return b.String(), i + 1, true
	}
	return "", 0, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }
func isWord(c byte) bool  { return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') || c >= 0x80 }

// parser walks a token list.
type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return token{}
}

func (p *parser) next() token {
	t := p.peek()
	if p.i < len(p.toks) {
		p.i++
	}
	return t
}

// accept consumes the bare words ws when they come next.
func (p *parser) accept(ws ...string) bool {
	for k, w := range ws {
		if p.i+k >= len(p.toks) || !p.toks[p.i+k].is(w) {
			return false
		}
	}
	p.i += len(ws)
	return true
}

func (p *parser) punct(s string) bool {
	if t := p.peek(); t.kind == tPunct && t.text == s {
		p.i++
		return true
	}
	return false
}

// list splits the parenthesised, comma-separated list that comes next
// into its items, nested parentheses kept whole.
func (p *parser) list() ([][]token, error) {
	if !p.punct("(") {
		return nil, errSyntax
	}
	var items [][]token
	depth, start := 0, p.i
	for ; p.i < len(p.toks); p.i++ {
		t := p.toks[p.i]
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(":
			depth++
		case ")":
			if depth == 0 {
				items = append(items, p.toks[start:p.i])
				p.i++
				return items, nil
			}
			depth--
		case ",":
			if depth == 0 {
				items = append(items, p.toks[start:p.i])
				start = p.i + 1
			}
		}
	}
	return nil, errSyntax
}

// qualifiedName reads [schema.]name.
func (p *parser) qualifiedName() (string, error) {
	t := p.next()
	if !t.name() {
		return "", errSyntax
	}
	if p.punct(".") {
		if t = p.next(); !t.name() {
			return "", errSyntax
		}
	}
	return t.text, nil
}

// colDef is a table column.
type colDef struct {
	name, typ, collate string
	// real says the column has REAL affinity: SQLite stores its integral
	// values as integers, and reads them back as floats.
	real       bool
	pk, pkDesc bool
	// def is its constant DEFAULT (NULL without one); defErr says it has
	// one that is not constant.
	def    Value
	defErr error
}

// tableDef is a table of the schema.
type tableDef struct {
	name  string
	root  uint32
	cols  []colDef
	alias int // the INTEGER PRIMARY KEY column, or -1
	// keys are the columns of the PRIMARY KEY (when not the rowid) and
	// UNIQUE constraints, in the order SQLite numbers their automatic
	// indexes.
	keys [][]idxCol
	err  error
}

// idxCol is a column of an index: a name, or an expression.
type idxCol struct {
	name, collate string
	desc, expr    bool
}

// indexDef is an index of the schema.
type indexDef struct {
	name, table string
	root        uint32
	cols        []idxCol
	partial     bool
}

// constraint words end a column's type.
var constraintWords = map[string]bool{
	"CONSTRAINT": true, "PRIMARY": true, "NOT": true, "NULL": true, "UNIQUE": true, "CHECK": true,
	"DEFAULT": true, "COLLATE": true, "REFERENCES": true, "GENERATED": true, "AS": true,
}

// createParser tokenizes sql and reads its opening, CREATE [modifier]
// kind [IF NOT EXISTS], modifier being at most one of modifiers; the
// parser is left at the name that follows.
func createParser(sql, kind string, modifiers ...string) (*parser, error) {
	toks, err := tokenize(sql)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	if !p.accept("CREATE") {
		return nil, errSyntax
	}
	for _, m := range modifiers {
		if p.accept(m) {
			break
		}
	}
	if !p.accept(kind) {
		return nil, errSyntax
	}
	p.accept("IF", "NOT", "EXISTS")
	return p, nil
}

// parseCreateTable parses a CREATE TABLE statement.
func parseCreateTable(sql string) (*tableDef, error) {
	p, err := createParser(sql, "TABLE", "TEMP", "TEMPORARY")
	if err != nil {
		return nil, err
	}
	d := &tableDef{alias: -1}
	if d.name, err = p.qualifiedName(); err != nil {
		return nil, err
	}
	if p.peek().is("AS") {
		return nil, unsupported("CREATE TABLE AS")
	}
	items, err := p.list()
	if err != nil {
		return nil, err
	}
	for _, item := range items {
		if len(item) == 0 {
			return nil, errSyntax
		}
		if t := item[0]; t.is("CONSTRAINT") || t.is("PRIMARY") || t.is("UNIQUE") || t.is("CHECK") || t.is("FOREIGN") {
			if err := d.tableConstraint(item); err != nil {
				return nil, err
			}
			continue
		}
		c, keys, err := parseColumn(item)
		if err != nil {
			return nil, err
		}
		d.cols = append(d.cols, c)
		if c.pk && strings.EqualFold(c.typ, "INTEGER") && !c.pkDesc {
			d.alias = len(d.cols) - 1
		}
		for _, k := range keys {
			if !(k.pk && d.alias == len(d.cols)-1) {
				d.addKey([]idxCol{k.col})
			}
		}
	}
	if len(d.cols) == 0 {
		return nil, errSyntax
	}
	for p.i < len(p.toks) {
		if p.accept("WITHOUT", "ROWID") {
			return nil, unsupported("WITHOUT ROWID table")
		}
		p.next()
	}
	return d, nil
}

// colKey is a PRIMARY KEY or UNIQUE column constraint.
type colKey struct {
	col idxCol
	pk  bool
}

// parseColumn parses a column definition: the column, and the PRIMARY
// KEY and UNIQUE constraints it has, in order.
func parseColumn(toks []token) (colDef, []colKey, error) {
	var c colDef
	if !toks[0].name() {
		return c, nil, errSyntax
	}
	c.name = toks[0].text
	i := 1
	var typ []string
	for i < len(toks) && toks[i].kind == tIdent && !constraintWords[strings.ToUpper(toks[i].text)] {
		typ = append(typ, toks[i].text)
		i++
	}
	c.typ = strings.Join(typ, " ")
	c.real = realAffinity(c.typ)
	if i < len(toks) && toks[i].kind == tPunct && toks[i].text == "(" {
		j := skipParens(toks, i)
		for _, t := range toks[i:j] {
			c.typ += t.text
		}
		i = j
	}
	var keys []colKey
	for i < len(toks) {
		t := toks[i]
		i++
		switch {
		case t.is("CONSTRAINT"):
			i++
		case t.is("PRIMARY") && i < len(toks) && toks[i].is("KEY"):
			i++
			c.pk = true
			if i < len(toks) && toks[i].is("DESC") {
				c.pkDesc = true
			}
			keys = append(keys, colKey{col: idxCol{name: c.name, desc: c.pkDesc}, pk: true})
		case t.is("UNIQUE"):
			keys = append(keys, colKey{col: idxCol{name: c.name}})
		case t.is("DEFAULT") && !(i >= 2 && toks[i-2].is("SET")):
			var n int
			c.def, n, c.defErr = defaultValue(toks[i:])
			i += n
		case t.is("COLLATE"):
			if i >= len(toks) || !toks[i].name() {
				return c, nil, errSyntax
			}
			c.collate = toks[i].text
			i++
		case t.is("GENERATED") || t.is("AS"):
			return c, nil, unsupported("generated column")
		case t.kind == tPunct && t.text == "(":
			i = skipParens(toks, i-1)
		}
	}
	// A key's collation is the column's.
	for k := range keys {
		keys[k].col.collate = c.collate
	}
	return c, keys, nil
}

// realAffinity says a declared type gives REAL affinity (SQLite's rules,
// in order: INT is INTEGER, CHAR, CLOB or TEXT is TEXT, BLOB or none is
// BLOB, then REAL, FLOA or DOUB is REAL).
func realAffinity(typ string) bool {
	u := strings.ToUpper(typ)
	for _, s := range []string{"INT", "CHAR", "CLOB", "TEXT", "BLOB"} {
		if strings.Contains(u, s) {
			return false
		}
	}
	return strings.Contains(u, "REAL") || strings.Contains(u, "FLOA") || strings.Contains(u, "DOUB")
}

// skipParens returns the index after the parenthesis closing the one at
// toks[i] (len(toks) when it does not close).
func skipParens(toks []token, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		if toks[i].kind != tPunct {
			continue
		}
		switch toks[i].text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return i
}

// defaultValue parses the term after DEFAULT: the value when constant
// (signed numbers, strings, blobs, NULL, TRUE, FALSE, a bare name read as
// a string as SQLite reads it), else an ErrUnsupported error; and how
// many tokens it took.
func defaultValue(toks []token) (Value, int, error) {
	nonConst := unsupported("non-constant DEFAULT")
	if len(toks) == 0 {
		return Value{}, 0, errSyntax
	}
	t := toks[0]
	switch {
	case t.kind == tPunct && (t.text == "+" || t.text == "-"):
		if len(toks) < 2 || toks[1].kind != tNumber {
			return Value{}, 1, nonConst
		}
		v, err := number(toks[1].text, t.text == "-")
		return v, 2, err
	case t.kind == tNumber:
		v, err := number(t.text, false)
		return v, 1, err
	case t.kind == tString:
		return Value{Type: Text, Bytes: []byte(t.text)}, 1, nil
	case t.kind == tBlob:
		return Value{Type: Blob, Bytes: []byte(t.text)}, 1, nil
	case t.is("NULL"):
		return Value{}, 1, nil
	case t.is("TRUE"):
		return IntValue(1), 1, nil
	case t.is("FALSE"):
		return IntValue(0), 1, nil
	case t.is("CURRENT_TIME") || t.is("CURRENT_DATE") || t.is("CURRENT_TIMESTAMP"):
		return Value{}, 1, nonConst
	case t.kind == tIdent || t.kind == tQuoted:
		return Value{Type: Text, Bytes: []byte(t.text)}, 1, nil
	case t.kind == tPunct && t.text == "(":
		// A parenthesised literal is one (SQLite drops the parentheses);
		// anything else in them is an expression.
		end := skipParens(toks, 0)
		if end >= 3 && toks[end-1].kind == tPunct && toks[end-1].text == ")" {
			if v, n, err := defaultValue(toks[1 : end-1]); err == nil && n == end-2 {
				return v, end, nil
			}
		}
		return Value{}, end, nonConst
	}
	return Value{}, 1, nonConst
}

// number is a numeric literal's value: an integer when it is one that
// fits, else a float.
func number(s string, neg bool) (Value, error) {
	if len(s) > 2 && (s[1] == 'x' || s[1] == 'X') {
		u, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			return Value{}, unsupported("hex literal")
		}
		v := int64(u)
		if neg {
			v = -v
		}
		return IntValue(v), nil
	}
	if neg {
		s = "-" + s
	}
	if !strings.ContainsAny(s, ".eE") {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil {
			return IntValue(v), nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Value{}, errSyntax
	}
	return Value{Type: Float, Float: f}, nil
}

// tableConstraint handles a table constraint: PRIMARY KEY and UNIQUE
// ones make keys (or, for a single INTEGER column, the rowid alias).
func (d *tableDef) tableConstraint(toks []token) error {
	p := &parser{toks: toks}
	if p.accept("CONSTRAINT") {
		p.next()
	}
	pk := p.accept("PRIMARY", "KEY")
	if !pk && !p.accept("UNIQUE") {
		return nil // CHECK, FOREIGN KEY
	}
	items, err := p.list()
	if err != nil {
		return err
	}
	cols := indexedColumns(items)
	if pk && len(cols) == 1 && !cols[0].expr {
		for i, c := range d.cols {
			if strings.EqualFold(c.name, cols[0].name) && strings.EqualFold(c.typ, "INTEGER") {
				d.alias = i
				return nil
			}
		}
	}
	for k := range cols {
		if cols[k].collate == "" && !cols[k].expr {
			for _, c := range d.cols {
				if strings.EqualFold(c.name, cols[k].name) {
					cols[k].collate = c.collate
				}
			}
		}
	}
	d.addKey(cols)
	return nil
}

// addKey adds a key unless one with the same columns exists (SQLite then
// makes no second index).
func (d *tableDef) addKey(cols []idxCol) {
	for _, k := range d.keys {
		if sameKey(k, cols) {
			return
		}
	}
	d.keys = append(d.keys, cols)
}

func sameKey(a, b []idxCol) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].expr || b[i].expr || !strings.EqualFold(a[i].name, b[i].name) ||
			!strings.EqualFold(collation(a[i].collate), collation(b[i].collate)) {
			return false
		}
	}
	return true
}

func collation(c string) string {
	if c == "" {
		return "BINARY"
	}
	return c
}

// indexedColumns parses the items of an indexed-column list: a name, or
// an expression, then [COLLATE name] [ASC|DESC].
func indexedColumns(items [][]token) []idxCol {
	cols := make([]idxCol, len(items))
	for k, item := range items {
		n := len(item)
		if n > 0 && (item[n-1].is("ASC") || item[n-1].is("DESC")) {
			cols[k].desc = item[n-1].is("DESC")
			n--
		}
		if n >= 2 && item[n-2].is("COLLATE") && item[n-1].name() {
			cols[k].collate = item[n-1].text
			n -= 2
		}
		if n == 1 && item[0].name() {
			cols[k].name = item[0].text
		} else {
			cols[k].expr = true
		}
	}
	return cols
}

// parseCreateIndex parses a CREATE INDEX statement.
func parseCreateIndex(sql string) (*indexDef, error) {
	p, err := createParser(sql, "INDEX", "UNIQUE")
	if err != nil {
		return nil, err
	}
	d := &indexDef{}
	if d.name, err = p.qualifiedName(); err != nil {
		return nil, err
	}
	if !p.accept("ON") {
		return nil, errSyntax
	}
	if t := p.next(); t.name() {
		d.table = t.text
	} else {
		return nil, errSyntax
	}
	items, err := p.list()
	if err != nil {
		return nil, err
	}
	d.cols = indexedColumns(items)
	d.partial = p.accept("WHERE")
	return d, nil
}
