package wire

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json"
)

// reflectIndex is ProjectIndexResult without its methods: the json
// package's own encoding and decoding, by reflection.
type reflectIndex ProjectIndexResult

// pagesForCodec are pages whose encoding the codec must reproduce.
func pagesForCodec() []*ProjectIndexResult {
	cur := "x1.9d.4.Qk"
	odd := "q\"<&>\u2028"
	var many []FileEntry
	for _, rep := range reportsForCodec() {
		many = append(many, rep.Entries...)
	}
	return []*ProjectIndexResult{
		{},
		{Generation: 3, Entries: []FileEntry{}, Complete: true, Progress: ProgressComplete, Stamp: Stamp{TS: "2026-11-29T18:00:00.000Z"}},
		{Generation: -1, Entries: []FileEntry{{Path: "cmd", Kind: KindDirectory}}, Cursor: &cur, Progress: ProgressPageEntries},
		{Generation: 1 << 40, Entries: many, Cursor: &odd, Progress: "p\u00e9", Stamp: Stamp{TS: "t"}},
	}
}

// TestIndexCodecIsJSON holds AppendJSON to the json package's output and
// the decoder to its decoding.
func TestIndexCodecIsJSON(t *testing.T) {
	t.Parallel()
	for i, page := range pagesForCodec() {
		want, err := json.Marshal((*reflectIndex)(page))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := page.AppendJSON(nil); err != nil || string(got) != string(want) {
			t.Fatalf("%d: AppendJSON = %s, %v\nwant %s", i, got, err, want)
		}
		var dec ProjectIndexResult
		if err := Unmarshal(want, &dec); err != nil {
			t.Fatal(err)
		}
		var ref reflectIndex
		if err := json.Unmarshal(want, &ref); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(dec, ProjectIndexResult(ref)) {
			t.Fatalf("%d: decoded %+v, want %+v", i, dec, ref)
		}
	}
	if _, err := (&ProjectIndexResult{Entries: []FileEntry{{Path: "bad\xff"}}}).AppendJSON(nil); err == nil {
		t.Error("invalid UTF-8 was encoded")
	}
}

// TestIndexDecodeLikeReflection decodes odd but valid pages, and invalid
// ones, both ways: the same values or both an error.
func TestIndexDecodeLikeReflection(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`null`, `{}`, `[]`, `"x"`,
		`{"entries":null,"cursor":null,"generation":null,"complete":null,"progress":null,"ts":null}`,
		`{"cursor":"a","cursor":null,"extra":[{"x":1}],"entries":[{"path":"a","kind":"file","size":1},null]}`,
		`{"cursor":3}`, `{"complete":"true"}`, `{"progress":null,"generation":2.0}`,
		`{"c\u0075rsor":"\u0041","entries":[{"p\u0061th":"\\"}]}`,
		`{"entries":[{"path":"a"}]`,
	} {
		var got ProjectIndexResult
		gotErr := Unmarshal([]byte(in), &got)
		var want reflectIndex
		wantErr := json.Unmarshal([]byte(in), &want)
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: error %v, reflection %v", in, gotErr, wantErr)
			continue
		}
		if gotErr == nil && !reflect.DeepEqual(got, ProjectIndexResult(want)) {
			t.Errorf("%s: %+v, reflection %+v", in, got, want)
		}
	}
	// Every prefix of a page holding every odd entry, some plain ones and
	// the odd cursor and progress after them: each byte of each field is
	// where one ends. (5,000 random prefixes of the 3,011-entry page
	// decoded 300 MB under -race, 5 s of CPU, and cut inside its odd
	// entries and its last fields rarely.)
	page := *pagesForCodec()[3]
	page.Entries = page.Entries[:40]
	doc, _ := page.AppendJSON(nil)
	buf := make([]byte, len(doc))
	for n := range len(doc) + 1 {
		b := buf[:n:n] // capacity n: nothing past the prefix can be read
		copy(b, doc)
		var r ProjectIndexResult
		_ = r.DecodeValid(b) // broken JSON: an error or a partial result, never a panic
	}
}

// FuzzIndexCodec holds the page codec to the json package on any input,
// as FuzzReportCodec does for the report.
func FuzzIndexCodec(f *testing.F) {
	for _, page := range pagesForCodec()[:3] {
		doc, err := page.AppendJSON(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc)
	}
	f.Add([]byte(`{"cursor":"\u0000","entries":[{"path":"a"},null],"complete":true,"x":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var raw ProjectIndexResult
		_ = raw.DecodeValid(data)
		var got ProjectIndexResult
		gotErr := Unmarshal(data, &got)
		var want reflectIndex
		wantErr := json.Unmarshal(data, &want)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, reflection %v", data, gotErr, wantErr)
		}
		if gotErr != nil {
			return
		}
		if !reflect.DeepEqual(got, ProjectIndexResult(want)) {
			t.Fatalf("%q: %+v, reflection %+v", data, got, want)
		}
		enc, err := got.AppendJSON(nil)
		ref, refErr := json.Marshal((*reflectIndex)(&got))
		if (err == nil) != (refErr == nil) || string(enc) != string(ref) {
			t.Fatalf("%q: AppendJSON %s (%v), Marshal %s (%v)", data, enc, err, ref, refErr)
		}
	})
}

// BenchmarkIndexPageDecode decodes a full page of the generated trees'
// paths, as the client does with each of a walk's lines.
func BenchmarkIndexPageDecode(b *testing.B) {
	page := &ProjectIndexResult{Generation: 1, Progress: ProgressPageEntries, Stamp: Stamp{TS: "2026-12-02T03:00:00.000Z"}}
	for i := range DefaultIndexExtension.PageEntries {
		page.Entries = append(page.Entries, FileEntry{Path: fmt.Sprintf("pkg%02d/mod%02d/part%02d/file%04d.txt", i/1000%10, i/100%10, i/10%10, i), Kind: KindFile})
	}
	cursor := "x1.1.2.0123456789abcdef0123456789abcdef"
	page.Cursor = &cursor
	data, _ := page.AppendJSON(nil)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var r ProjectIndexResult
		r.DecodeValid(data)
	}
}
