package sqlitefile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// Type is the storage class of a Value.
type Type uint8

// The storage classes, in SQLite's sort order.
const (
	Null Type = iota
	Integer
	Float
	Text
	Blob
)

// String names t as SQLite's typeof() does.
func (t Type) String() string {
	switch t {
	case Null:
		return "null"
	case Integer:
		return "integer"
	case Float:
		return "real"
	case Text:
		return "text"
	case Blob:
		return "blob"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Value is one column's value. Int holds an Integer, Float a Float and
// Bytes a Text (UTF-8) or a Blob. Bytes may alias the reader's buffers:
// it is valid only while the row it came from is (during the Scan or
// Seek callback that gave the row); copy it to keep it.
type Value struct {
	Type  Type
	Int   int64
	Float float64
	Bytes []byte
}

// IntValue is an Integer value.
func IntValue(i int64) Value { return Value{Type: Integer, Int: i} }

// TextValue is a Text value of s.
func TextValue(s string) Value { return Value{Type: Text, Bytes: []byte(s)} }

// Compare orders a and b as SQLite does with the BINARY collation: NULL
// first, then numbers (integers and floats compared by value), then text
// (by bytes), then blobs (by bytes). It returns -1, 0 or +1.
func Compare(a, b Value) int {
	ca, cb := class(a.Type), class(b.Type)
	if ca != cb {
		if ca < cb {
			return -1
		}
		return 1
	}
	switch ca {
	case 0:
		return 0
	case 1:
		return compareNumbers(a, b)
	default:
		return bytes.Compare(a.Bytes, b.Bytes)
	}
}

// class is t's rank in the sort order: integers and floats share one.
func class(t Type) int {
	switch t {
	case Null:
		return 0
	case Integer, Float:
		return 1
	case Text:
		return 2
	default:
		return 3
	}
}

func compareNumbers(a, b Value) int {
	switch {
	case a.Type == Integer && b.Type == Integer:
		return cmp3(a.Int < b.Int, a.Int > b.Int)
	case a.Type == Float && b.Type == Float:
		return compareFloats(a.Float, b.Float)
	case a.Type == Integer:
		return compareIntFloat(a.Int, b.Float)
	default:
		return -compareIntFloat(b.Int, a.Float)
	}
}

// compareFloats orders NaN first, as SQLite (which stores none) would
// treat it like NULL.
func compareFloats(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	if an || bn {
		return cmp3(an && !bn, bn && !an)
	}
	return cmp3(a < b, a > b)
}

// compareIntFloat compares i and f exactly, even where float64(i) rounds.
func compareIntFloat(i int64, f float64) int {
	switch {
	case math.IsNaN(f):
		return 1
	case f < -9223372036854775808.0:
		return 1
	case f >= 9223372036854775808.0:
		return -1
	}
	t := math.Trunc(f)
	if c := cmp3(i < int64(t), i > int64(t)); c != 0 {
		return c
	}
	return cmp3(f > t, f < t)
}

func cmp3(less, greater bool) int {
	if less {
		return -1
	}
	if greater {
		return 1
	}
	return 0
}

// varint decodes SQLite's big-endian variable-length integer at the start
// of b: its value and length, or length 0 when b ends inside it.
func varint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 8; i++ {
		if i >= len(b) {
			return 0, 0
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}

// serialSize is the length in the record body of a value of serial type
// st, or -1 for the reserved types 10 and 11.
func serialSize(st uint64) int64 {
	switch {
	case st <= 4:
		return [...]int64{0, 1, 2, 3, 4}[st]
	case st == 5:
		return 6
	case st == 6 || st == 7:
		return 8
	case st == 8 || st == 9:
		return 0
	case st == 10 || st == 11:
		return -1
	}
	return int64((st - 12) / 2)
}

// decodeValue makes the value of serial type st from its body bytes b
// (len(b) == serialSize(st)).
func decodeValue(st uint64, b []byte) Value {
	switch {
	case st == 0:
		return Value{}
	case st <= 6:
		var v int64
		if b[0]&0x80 != 0 {
			v = -1
		}
		for _, c := range b {
			v = v<<8 | int64(c)
		}
		return Value{Type: Integer, Int: v}
	case st == 7:
		return Value{Type: Float, Float: math.Float64frombits(binary.BigEndian.Uint64(b))}
	case st == 8:
		return Value{Type: Integer, Int: 0}
	case st == 9:
		return Value{Type: Integer, Int: 1}
	case st%2 == 0:
		return Value{Type: Blob, Bytes: b}
	default:
		return Value{Type: Text, Bytes: b}
	}
}
