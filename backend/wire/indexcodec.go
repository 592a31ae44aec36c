package wire

import (
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// A project.index page is as large as a project.files report (10,000
// entries in a 1 MiB line) and a complete walk sends many, so it has the
// same codec (filescodec.go): AppendJSON writes exactly Marshal's bytes,
// DecodeValid reads what Unmarshal reads, every path in one allocation.

// AppendJSON appends r's JSON encoding to b: exactly Marshal's output,
// without reflection.
func (r *ProjectIndexResult) AppendJSON(b []byte) ([]byte, error) {
	need := len(`{"generation":-9223372036854775808,"entries":,"cursor":"","complete":false,"progress":"","ts":""}`) +
		len(r.Progress) + len(r.TS)
	if r.Cursor != nil {
		need += len(*r.Cursor)
	}
	b = slices.Grow(b, need+entriesSize(r.Entries))
	var err error
	b = append(b, `{"generation":`...)
	b = strconv.AppendInt(b, r.Generation, 10)
	b = append(b, `,"entries":`...)
	if b, err = appendEntries(b, r.Entries); err != nil {
		return nil, err
	}
	b = append(b, `,"cursor":`...)
	if r.Cursor == nil {
		b = append(b, "null"...)
	} else if b, err = appendString(b, *r.Cursor); err != nil {
		return nil, err
	}
	b = append(b, `,"complete":`...)
	b = strconv.AppendBool(b, r.Complete)
	b = append(b, `,"progress":`...)
	if b, err = appendString(b, r.Progress); err != nil {
		return nil, err
	}
	b = append(b, `,"ts":`...)
	if b, err = appendString(b, r.TS); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSONTo is AppendJSON for the json package.
func (r *ProjectIndexResult) MarshalJSONTo(enc *jsontext.Encoder) error {
	b, err := r.AppendJSON(nil)
	if err != nil {
		return err
	}
	return enc.WriteValue(b)
}

// UnmarshalJSONFrom reads one value from dec (which checks it) and
// decodes it with DecodeValid.
func (r *ProjectIndexResult) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	return r.DecodeValid(v)
}

// DecodeValid decodes a page from data, which must be valid JSON, as
// Unmarshal would by reflection (unknown members skipped, null making a
// member zero); every path shares one allocation. On input that is not
// valid JSON it returns an error or a partial result, never panics.
func (r *ProjectIndexResult) DecodeValid(data []byte) error {
	d := listDecoder{scan: scan{b: data}}
	d.ws()
	if d.null() {
		*r = ProjectIndexResult{}
		return d.end()
	}
	err := d.object(func(key []byte) error { return d.indexMember(r, key) })
	if err != nil {
		return err
	}
	d.finish(&r.Entries, frozen(d.buf))
	return d.end()
}

func (d *listDecoder) indexMember(r *ProjectIndexResult, key []byte) error {
	null := d.null()
	var err error
	switch string(key) {
	case "generation":
		r.Generation = 0
		if !null {
			r.Generation, err = d.int()
		}
	case "entries":
		err = d.list(null)
	case "cursor":
		r.Cursor = nil
		if !null {
			var c string
			c, err = d.string()
			r.Cursor = &c
		}
	case "complete":
		r.Complete = false
		if !null {
			r.Complete, err = d.bool()
		}
	case "progress":
		r.Progress = ""
		if !null {
			r.Progress, err = d.string()
		}
	case "ts":
		r.TS = ""
		if !null {
			r.TS, err = d.string()
		}
	default:
		if !null {
			err = d.skip()
		}
	}
	return err
}
