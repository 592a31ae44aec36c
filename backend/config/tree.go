package config

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

	"github.com/BurntSushi/toml"
)

// MaxFileBytes bounds every configuration file.
const MaxFileBytes = 1 << 20

// table is a decoded TOML table being validated: every key read is marked,
// and done reports the keys nobody read as unknown.
type table struct {
	file string
	path string // key path of this table, "" for the document
	m    map[string]any
	seen map[string]bool
}

// decode parses TOML into a generic tree. Syntax errors keep their line and
// lose their message, which may quote content.
func decode(file string, data []byte) (*table, error) {
	if len(data) > MaxFileBytes {
		return nil, &Error{File: file, Msg: "the file is larger than 1 MiB"}
	}
	m := map[string]any{}
	if _, err := toml.Decode(string(data), &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{File: file, Line: errorLine(data, pe.Position), Msg: "not valid TOML (syntax error, duplicate key or bad value)"}
		}
		return nil, &Error{File: file, Msg: "not valid TOML"}
	}
	return newTable(file, "", m), nil
}

// errorLine is the line of the byte a parse error points at. The
// parser's own line has already counted a newline it stopped at ("[files"
// and the end of its line is an error of line 1, which it calls 2).
func errorLine(data []byte, pos toml.Position) int {
	if pos.Start < 0 || pos.Start > len(data) {
		return pos.Line
	}
	return bytes.Count(data[:pos.Start], []byte("\n")) + 1
}

func newTable(file, path string, m map[string]any) *table {
	return &table{file: file, path: path, m: m, seen: map[string]bool{}}
}

func (t *table) keyPath(k string) string {
	if t.path == "" {
		return keyName(k)
	}
	return t.path + "." + keyName(k)
}

func (t *table) errf(k, format string, args ...any) error {
	return &Error{File: t.file, Key: t.keyPath(k), Msg: fmt.Sprintf(format, args...)}
}

// done fails on the first key (in sorted order) that was never read.
func (t *table) done() error {
	var unknown []string
	for k := range t.m {
		if !t.seen[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return &Error{File: t.file, Key: t.keyPath(unknown[0]), Msg: "unknown key"}
}

func (t *table) get(k string) (any, bool) {
	t.seen[k] = true
	v, ok := t.m[k]
	return v, ok
}

func (t *table) str(k string) (string, bool, error) {
	v, ok := t.get(k)
	if !ok {
		return "", false, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", true, t.errf(k, "must be a string")
	}
	return s, true, nil
}

func (t *table) boolean(k string) (*bool, error) {
	v, ok := t.get(k)
	if !ok {
		return nil, nil
	}
	b, isBool := v.(bool)
	if !isBool {
		return nil, t.errf(k, "must be true or false")
	}
	return &b, nil
}

func (t *table) strings(k string, max int) ([]string, error) {
	v, ok := t.get(k)
	if !ok {
		return nil, nil
	}
	arr, isArr := v.([]any)
	if !isArr {
		return nil, t.errf(k, "must be an array of strings")
	}
	if len(arr) > max {
		return nil, t.errf(k, "has more than %d entries", max)
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, isStr := e.(string)
		if !isStr {
			return nil, t.errf(k, "must be an array of strings")
		}
		out = append(out, s)
	}
	return out, nil
}

func (t *table) sub(k string) (*table, error) {
	v, ok := t.get(k)
	if !ok {
		return nil, nil
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		return nil, t.errf(k, "must be a table ([%s])", keyName(k))
	}
	return newTable(t.file, t.keyPath(k), m), nil
}

func (t *table) tables(k string) ([]*table, error) {
	v, ok := t.get(k)
	if !ok {
		return nil, nil
	}
	arr, isArr := v.([]map[string]any)
	if !isArr {
		return nil, t.errf(k, "must be an array of tables ([[%s]])", keyName(k))
	}
	out := make([]*table, len(arr))
	for i, m := range arr {
		out[i] = newTable(t.file, fmt.Sprintf("%s[%d]", t.keyPath(k), i+1), m)
	}
	return out, nil
}
