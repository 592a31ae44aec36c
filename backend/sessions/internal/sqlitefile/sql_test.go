package sqlitefile

import (
	"errors"
	"strings"
	"testing"
)

func TestParseCreateTable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sql   string
		cols  string // names, then ':alias index'
		alias int
		err   error
	}{
		{"CREATE TABLE t(a, b)", "a b", -1, nil},
		{"create temp table if not exists main.\"t\"(\"a\"\"x\" INTEGER primary key ASC autoincrement, [b c] text, `d` -- x, y\n, e /* ( */ NUMERIC(10, 2))", `a"x b c d e`, 0, nil},
		{"CREATE TABLE t(a INTEGER PRIMARY KEY DESC)", "a", -1, nil},
		{"CREATE TABLE t(a INT PRIMARY KEY)", "a", -1, nil},
		{"CREATE TABLE t(b, a INTEGER, CONSTRAINT pk PRIMARY KEY (a DESC))", "b a", 1, nil},
		{"CREATE TABLE t(a INTEGER, b, PRIMARY KEY (a, b))", "a b", -1, nil},
		{"CREATE TABLE t(a, b CHECK (b > (1)), c REFERENCES p(x) ON DELETE SET DEFAULT, d DEFAULT 4, FOREIGN KEY (a) REFERENCES p(y), UNIQUE (a, b))", "a b c d", -1, nil},
		{"CREATE TABLE t(a) WITHOUT ROWID", "", -1, ErrUnsupported},
		{"CREATE TABLE t(a, STRICT)", "a STRICT", -1, nil},
		{"CREATE TABLE t(a, b GENERATED ALWAYS AS (a) STORED)", "", -1, ErrUnsupported},
		{"CREATE TABLE t(a", "", -1, errSyntax},
		{"CREATE TABLE t()", "", -1, errSyntax},
		{"CREATE VIEW v AS SELECT 1", "", -1, errSyntax},
		{"CREATE TABLE t(a DEFAULT (", "", -1, errSyntax},
	} {
		d, err := parseCreateTable(tc.sql)
		if tc.err != nil || err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%q: %v, want %v", tc.sql, err, tc.err)
			}
			continue
		}
		var names []string
		for _, c := range d.cols {
			names = append(names, c.name)
		}
		if strings.Join(names, " ") != tc.cols || d.alias != tc.alias {
			t.Errorf("%q: columns %q alias %d, want %q %d", tc.sql, names, d.alias, tc.cols, tc.alias)
		}
	}
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	for sql, want := range map[string]string{
		"DEFAULT 7":                    "integer:7",
		"DEFAULT -7":                   "integer:-7",
		"DEFAULT +0x1F":                "integer:31",
		"DEFAULT -9223372036854775808": "integer:-9223372036854775808",
		"DEFAULT 9223372036854775808":  "real:9.2233720368547758e+18",
		"DEFAULT 1.5":                  "real:1.5",
		"DEFAULT -.5e1":                "real:-5",
		"DEFAULT 'a''b'":               "text:612762",
		"DEFAULT x'0aFF'":              "blob:0AFF",
		"DEFAULT NULL":                 "null:",
		"DEFAULT true":                 "integer:1",
		"DEFAULT FALSE":                "integer:0",
		"DEFAULT word":                 "text:776F7264",
		"DEFAULT ((3))":                "integer:3",
		"DEFAULT (-3)":                 "integer:-3",
		"DEFAULT (1 + 1)":              "unsupported",
		"DEFAULT CURRENT_TIME":         "unsupported",
		"DEFAULT -'a'":                 "unsupported",
		"":                             "null:",
	} {
		d, err := parseCreateTable("CREATE TABLE t(a " + sql + ", b)")
		if err != nil {
			t.Errorf("%q: %v", sql, err)
			continue
		}
		c := d.cols[0]
		got := fmtValue(c.def)
		if c.defErr != nil {
			got = "unsupported"
			if !errors.Is(c.defErr, ErrUnsupported) {
				got = c.defErr.Error()
			}
		}
		if got != want || len(d.cols) != 2 {
			t.Errorf("%q: %s (%d columns), want %s", sql, got, len(d.cols), want)
		}
	}
}

func TestParseCreateIndex(t *testing.T) {
	t.Parallel()
	for sql, want := range map[string]string{
		"CREATE INDEX i ON t(a)": "t a",
		"CREATE UNIQUE INDEX IF NOT EXISTS main.i ON `t` (\"a\" COLLATE nocase DESC, b)": "t a/nocase/desc b",
		"CREATE INDEX i ON t(a + 1, b)":      "t expr b",
		"CREATE INDEX i ON t(a) WHERE a > 0": "t a partial",
		"CREATE INDEX i ON t(lower(a))":      "t expr",
	} {
		d, err := parseCreateIndex(sql)
		if err != nil {
			t.Errorf("%q: %v", sql, err)
			continue
		}
		parts := []string{d.table}
		for _, c := range d.cols {
			s := c.name
			if c.expr {
				s = "expr"
			}
			if c.collate != "" {
				s += "/" + c.collate
			}
			if c.desc {
				s += "/desc"
			}
			parts = append(parts, s)
		}
		if d.partial {
			parts = append(parts, "partial")
		}
		if got := strings.Join(parts, " "); got != want {
			t.Errorf("%q: %s, want %s", sql, got, want)
		}
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	order := []Value{
		{}, {Type: Float, Float: -1e300}, IntValue(-9223372036854775808), IntValue(-1), {Type: Float, Float: -0.5},
		IntValue(0), {Type: Float, Float: 0.5}, IntValue(1), {Type: Float, Float: 9007199254740993}, IntValue(9223372036854775807),
		{Type: Float, Float: 1e19}, TextValue(""), TextValue("A"), TextValue("a"), TextValue("ab"), {Type: Blob}, {Type: Blob, Bytes: []byte{0}},
	}
	for i := range order {
		for j := range order {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := Compare(order[i], order[j]); got != want {
				t.Errorf("Compare(%v, %v) = %d, want %d", order[i], order[j], got, want)
			}
		}
	}
	if Compare(IntValue(3), Value{Type: Float, Float: 3}) != 0 || Compare(IntValue(-3), Value{Type: Float, Float: -2.5}) != -1 ||
		Compare(IntValue(-2), Value{Type: Float, Float: -2.5}) != 1 {
		t.Error("integers against floats")
	}
}

func TestVarint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		b []byte
		v uint64
		n int
	}{
		{[]byte{0x7f}, 127, 1},
		{[]byte{0x81, 0x00}, 128, 2},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1<<64 - 1, 9},
		{[]byte{0x81}, 0, 0},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 0, 0},
	} {
		if v, n := varint(tc.b); v != tc.v || n != tc.n {
			t.Errorf("varint(%x) = %d, %d; want %d, %d", tc.b, v, n, tc.v, tc.n)
		}
	}
}
