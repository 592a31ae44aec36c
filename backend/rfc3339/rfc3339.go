// Package rfc3339 reads the times scout's files record (history records,
// lock files, catalog caches) by RFC 3339's own grammar (section 5.6), which
// Go's time.RFC3339 layout does not quite implement: the layout refuses a
// lower-case "t" and "z" and a leap second, and accepts a comma before the
// fraction and offsets such as "+24:00".
package rfc3339

import (
	"errors"
	"time"
)

// ErrSyntax is a string RFC 3339's date-time grammar does not produce.
var ErrSyntax = errors.New("not an RFC 3339 date-time")

// Parse reads an RFC 3339 date-time: "YYYY-MM-DDTHH:MM:SS", an optional
// fraction of any length after a full stop (nanoseconds kept), then "Z" or
// a numeric offset "+HH:MM"/"-HH:MM"; "T" and "Z" in either case. Every
// number is range-checked (the day against its month). A leap second
// (":60") is read as the second after ":59", the instant the next minute
// begins for clocks without leap seconds.
func Parse(s string) (time.Time, error) {
	if len(s) < len("2006-01-02T15:04:05Z") ||
		s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':' {
		return time.Time{}, ErrSyntax
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	sec, ok6 := digits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) ||
		month < 1 || month > 12 || day < 1 || day > daysIn(year, month) ||
		hour > 23 || minute > 59 || sec > 60 {
		return time.Time{}, ErrSyntax
	}
	rest := s[19:]
	nsec := 0
	if rest != "" && rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			if n <= 9 {
				nsec = nsec*10 + int(rest[n]-'0')
			}
			n++
		}
		if n == 1 {
			return time.Time{}, ErrSyntax
		}
		for k := n; k <= 9; k++ {
			nsec *= 10
		}
		rest = rest[n:]
	}
	offset := 0
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, okh := digits(rest[1:3])
		om, okm := digits(rest[4:6])
		if !okh || !okm || oh > 23 || om > 59 {
			return time.Time{}, ErrSyntax
		}
		offset = (oh*60 + om) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, ErrSyntax
	}
	leap := sec == 60
	if leap {
		sec = 59
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.FixedZone("", offset))
	if offset == 0 {
		t = t.UTC()
	}
	if leap {
		t = t.Add(time.Second)
	}
	return t, nil
}

// digits reads a run of ASCII digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
