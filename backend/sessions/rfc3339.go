package sessions

import (
	"errors"
	"time"
)

// errNotRFC3339 is a time that RFC 3339's grammar does not produce.
var errNotRFC3339 = errors.New("sessions: not an RFC 3339 time")

// parseRFC3339 parses an RFC 3339 date-time as histories and locks record
// it. It accepts what the RFC's grammar accepts and Go's time.RFC3339Nano
// layout does not: a lower-case "t" and "z" (RFC 3339 §5.6 note) and a
// leap second ("23:59:60"), which is read as the second after ":59" (the
// instant the next minute begins, as UTC clocks without leap seconds see
// it).
func parseRFC3339(s string) (time.Time, error) {
	const secondAt = len("2006-01-02T15:04:")
	if len(s) <= secondAt+1 {
		return time.Time{}, errNotRFC3339
	}
	b := []byte(s)
	if b[10] == 't' {
		b[10] = 'T'
	}
	if last := len(b) - 1; b[last] == 'z' {
		b[last] = 'Z'
	}
	leap := b[secondAt] == '6' && b[secondAt+1] == '0'
	if leap {
		b[secondAt] = '5'
		b[secondAt+1] = '9'
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return time.Time{}, err
	}
	if leap {
		t = t.Add(time.Second)
	}
	return t, nil
}
