package catalog

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// cacheDecoder reads a cache document in one pass with jsontext (strict:
// valid UTF-8, no duplicate member names, nothing after the object). It
// tells a syntax error (invalid_format) from a schema violation
// (invalid_schema) and keeps reading after the latter, so that the format
// member is judged first wherever it stands. Decoding by hand instead of by
// reflection keeps a 2,048-entry cache to a few allocations per entry.
// Not shared with wire's or sessions' byte scanners: small untrusted caches want jsontext's strict tokens.
type cacheDecoder struct {
	dec       *jsontext.Decoder
	formatOK  bool
	schemaBad bool
	doc       Cache
	seen      map[string]bool
}

var errSyntax = errors.New("cache: not strict JSON")

// decodeCache returns the decoded document, whether the format member is
// right, and whether the schema holds; err is set for a syntax error.
func decodeCache(data []byte) (doc *Cache, formatOK, schemaOK bool, err error) {
	d := &cacheDecoder{dec: jsontext.NewDecoder(bytes.NewReader(data)), seen: map[string]bool{}}
	if err := d.top(); err != nil {
		return nil, false, false, errSyntax
	}
	if _, err := d.dec.ReadToken(); err != io.EOF {
		return nil, false, false, errSyntax
	}
	for _, k := range []string{"format", "provider", "fingerprint", "fetched_at", "entries"} {
		d.schemaBad = d.schemaBad || !d.seen[k]
	}
	return &d.doc, d.formatOK, !d.schemaBad, nil
}

func (d *cacheDecoder) top() error {
	if tok, err := d.dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return errSyntax
	}
	for d.dec.PeekKind() != '}' {
		name, err := d.dec.ReadToken()
		if err != nil {
			return err
		}
		if err := d.member(name.String()); err != nil {
			return err
		}
	}
	_, err := d.dec.ReadToken()
	return err
}

func (d *cacheDecoder) member(name string) error {
	d.seen[name] = true
	switch name {
	case "format":
		s, ok, err := d.str()
		d.formatOK = ok && s == CacheFormat
		return err
	case "provider":
		return d.into(&d.doc.Provider)
	case "fingerprint":
		return d.into(&d.doc.Fingerprint)
	case "fetched_at":
		return d.into(&d.doc.FetchedAt)
	case "entries":
		return d.entries()
	}
	d.schemaBad = true
	return d.dec.SkipValue()
}

// str reads a value; ok reports whether it was a string.
func (d *cacheDecoder) str() (string, bool, error) {
	if d.dec.PeekKind() != '"' {
		return "", false, d.dec.SkipValue()
	}
	tok, err := d.dec.ReadToken()
	return tok.String(), err == nil, err
}

// into reads a string member into dst, marking the schema bad otherwise.
func (d *cacheDecoder) into(dst *string) error {
	s, ok, err := d.str()
	*dst, d.schemaBad = s, d.schemaBad || !ok
	return err
}

func (d *cacheDecoder) entries() error {
	if d.dec.PeekKind() != '[' {
		d.schemaBad = true
		return d.dec.SkipValue()
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return err
	}
	d.doc.Entries = []Entry{}
	for d.dec.PeekKind() != ']' {
		if err := d.entry(); err != nil {
			return err
		}
	}
	_, err := d.dec.ReadToken()
	return err
}

// entry reads one entry; all four members are required, no other allowed.
func (d *cacheDecoder) entry() error {
	if d.dec.PeekKind() != '{' {
		d.schemaBad = true
		return d.dec.SkipValue()
	}
	d.dec.ReadToken()
	var e Entry
	var have int
	for d.dec.PeekKind() != '}' {
		name, err := d.dec.ReadToken()
		if err != nil {
			return err
		}
		switch name.String() {
		case "id":
			have |= 1
			err = d.into(&e.ID)
		case "name":
			have |= 2
			err = d.into(&e.Name)
		case "efforts":
			have |= 4
			e.Efforts, err = d.strings()
		case "context_window":
			have |= 8
			e.ContextWindow, err = d.count()
		default:
			d.schemaBad = true
			err = d.dec.SkipValue()
		}
		if err != nil {
			return err
		}
	}
	d.schemaBad = d.schemaBad || have != 15
	if len(d.doc.Entries) < MaxModels+1 {
		d.doc.Entries = append(d.doc.Entries, e)
	}
	_, err := d.dec.ReadToken()
	return err
}

// strings reads an array of strings.
func (d *cacheDecoder) strings() ([]string, error) {
	if d.dec.PeekKind() != '[' {
		d.schemaBad = true
		return nil, d.dec.SkipValue()
	}
	d.dec.ReadToken()
	out := []string{}
	for d.dec.PeekKind() != ']' {
		s, ok, err := d.str()
		if err != nil {
			return nil, err
		}
		d.schemaBad = d.schemaBad || !ok
		out = append(out, s)
	}
	_, err := d.dec.ReadToken()
	return out, err
}

// count reads a non-negative integer that fits an int64.
func (d *cacheDecoder) count() (int64, error) {
	if d.dec.PeekKind() != '0' {
		d.schemaBad = true
		return 0, d.dec.SkipValue()
	}
	tok, err := d.dec.ReadToken()
	if err != nil {
		return 0, err
	}
	raw := tok.String()
	var n int64
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c < '0' || c > '9' || n > (1<<62)/10 {
			d.schemaBad = true
			return 0, nil
		}
		n = n*10 + int64(c-'0')
	}
	return n, nil
}
