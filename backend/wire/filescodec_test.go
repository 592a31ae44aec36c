package wire

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json"
)

// reportsForCodec are reports whose encoding the codec must reproduce:
// empty, nil entries, plain paths, and strings the encoder escapes.
func reportsForCodec() []*ProjectFilesResult {
	odd := []string{`a"b`, `back\slash`, "tab\there", "ctl\x01", "é/ü.go", "<&>", "\u2028x", "emoji😀", ""}
	reps := []*ProjectFilesResult{
		{},
		{CommandID: "r7", Generation: 3, Entries: []FileEntry{}, Stamp: Stamp{TS: "2026-11-29T18:00:00.000Z"}},
		{CommandID: "c:1.x-y_z", Generation: -4, Truncated: true, Entries: []FileEntry{{Path: "cmd", Kind: KindDirectory}, {Path: "cmd/main.go", Kind: KindFile}}},
	}
	var es []FileEntry
	for i, p := range odd {
		es = append(es, FileEntry{Path: p, Kind: []string{KindFile, KindDirectory, "other\n"}[i%3]})
	}
	reps = append(reps, &ProjectFilesResult{CommandID: `id"q`, Entries: es, Stamp: Stamp{TS: "t"}})
	rng := rand.New(rand.NewPCG(1, 1))
	var many []FileEntry
	for i := range 3000 {
		many = append(many, FileEntry{Path: fmt.Sprintf("d%d/f%d_%d.go", rng.IntN(50), i, rng.IntN(9)), Kind: KindFile})
	}
	return append(reps, &ProjectFilesResult{CommandID: "big", Generation: 1 << 40, Entries: many, Stamp: Stamp{TS: "x"}})
}

// TestReportCodecIsJSON holds AppendJSON to the json package's output and
// UnmarshalJSONFrom to its decoding, in both directions.
func TestReportCodecIsJSON(t *testing.T) {
	t.Parallel()
	for i, rep := range reportsForCodec() {
		want, err := json.Marshal((*reflectReport)(rep))
		if err != nil {
			t.Fatal(err)
		}
		got, err := rep.AppendJSON(nil)
		if err != nil || string(got) != string(want) {
			t.Fatalf("%d: AppendJSON = %s, %v\nwant %s", i, got, err, want)
		}
		if m, err := Marshal(rep); err != nil || string(m) != string(want) {
			t.Fatalf("%d: Marshal = %s, %v\nwant %s", i, m, err, want)
		}
		var dec ProjectFilesResult
		if err := Unmarshal(want, &dec); err != nil {
			t.Fatal(err)
		}
		var ref reflectReport
		if err := json.Unmarshal(want, &ref); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(dec, ProjectFilesResult(ref)) {
			t.Fatalf("%d: decoded %+v, want %+v", i, dec, ref)
		}
	}
	if _, err := (&ProjectFilesResult{Entries: []FileEntry{{Path: "bad\xff"}}}).AppendJSON(nil); err == nil {
		t.Error("invalid UTF-8 was encoded")
	}
}

// reflectReport is ProjectFilesResult without its methods: the json
// package's own encoding and decoding, by reflection.
type reflectReport ProjectFilesResult

// TestReportDecodeLikeReflection decodes odd but valid reports, and
// invalid ones, both ways: the same values or both an error.
func TestReportDecodeLikeReflection(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`null`,
		`{}`,
		`{"entries":null,"command_id":null,"generation":null,"truncated":null,"ts":null}`,
		`{"extra":{"a":[1,2,{"b":null}]},"entries":[{"path":"a","kind":"file","size":3}],"more":"x"}`,
		`{"entries":[{"kind":"directory"},{"path":null,"kind":null},{}]}`,
		`{"p\u0061th":1,"entries":[{"p\u0061th":"x\u0079","\u006bind":"fi\u006ce"}],"ts":"\u00e9"}`,
		`{"command_id":"a","command_id":"b"}`,
		`{"generation":1.5}`,
		`{"generation":"3"}`,
		`{"generation":99999999999999999999}`,
		`{"truncated":1}`,
		`{"entries":{}}`,
		`{"entries":[1]}`,
		`{"entries":[{"path":3}]}`,
		`{"entries":[{"kind":true}]}`,
		`[]`,
		`"x"`,
		`{"entries":[{"path":"a"}]`,
		`{"Entries":[{"path":"a","kind":"file"}],"TS":"t"}`,
		`{"generation":1e3}`,
		`{"generation":-0}`,
		`{"generation":-12,"truncated":true}`,
		` { "entries" : [ { "path" : "a b" , "kind" : "file" } , null ] , "ts" : "" } `,
		`{"entries":[null]}`,
		`{"entries":[],"command_id":""}`,
		`{"command_id":"\"q\"","entries":[{"path":"\\","kind":"\u0066ile"}]}`,
	}
	for _, in := range inputs {
		var got ProjectFilesResult
		gotErr := Unmarshal([]byte(in), &got)
		var want reflectReport
		wantErr := json.Unmarshal([]byte(in), &want)
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: error %v, reflection %v", in, gotErr, wantErr)
			continue
		}
		if gotErr == nil && !reflect.DeepEqual(got, ProjectFilesResult(want)) {
			t.Errorf("%s: %+v, reflection %+v", in, got, want)
		}
	}
}

// TestDecodeValidNeverPanics feeds DecodeValid broken documents: cut
// short and with bytes replaced. It may fail, but must not panic.
func TestDecodeValidNeverPanics(t *testing.T) {
	t.Parallel()
	doc, err := reportsForCodec()[3].AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 3))
	buf := make([]byte, len(doc)) // one copy reused: a large allocation each round cost more than the decoding under -race
	for i := range 20000 {
		n := rng.IntN(len(doc) + 1)
		b := buf[:n:n] // capacity n: nothing past the prefix can be read
		copy(b, doc)
		if i%2 == 0 && len(b) > 0 {
			const noise = "{}[]\\\",:n0 x"
			b[rng.IntN(len(b))] = noise[rng.IntN(len(noise))]
		}
		var r ProjectFilesResult
		_ = r.DecodeValid(b)
	}
}

func BenchmarkReportEncode(b *testing.B) {
	rep := reportsForCodec()[4]
	b.Run("reflection", func(b *testing.B) {
		for b.Loop() {
			json.Marshal((*reflectReport)(rep))
		}
	})
	b.Run("codec", func(b *testing.B) {
		for b.Loop() {
			rep.AppendJSON(nil)
		}
	})
}

func BenchmarkReportDecode(b *testing.B) {
	data, _ := reportsForCodec()[4].AppendJSON(nil)
	b.Run("reflection", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r reflectReport
			json.Unmarshal(data, &r)
		}
	})
	b.Run("codec", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r ProjectFilesResult
			Unmarshal(data, &r)
		}
	})
	b.Run("valid", func(b *testing.B) { // what the client does with a result already checked
		b.ReportAllocs()
		for b.Loop() {
			var r ProjectFilesResult
			r.DecodeValid(data)
		}
	})
}

// TestPlainString holds the word-at-a-time test to a byte loop.
func TestPlainString(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 5))
	for range 50000 {
		b := make([]byte, rng.IntN(30))
		for i := range b {
			const alphabet = "a/\"\\\x1f\x20\x00\x7f\x80\xffz!#"
			b[i] = alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(3) > 0 {
				b[i] = 'q'
			}
		}
		want := true
		for _, c := range b {
			want = want && c >= 0x20 && c != '"' && c != '\\' && c < 0x80
		}
		if got := plainString(string(b)); got != want {
			t.Fatalf("plainString(%q) = %v", b, got)
		}
	}
}

// FuzzReportCodec holds the report's own codec to the json package on any
// input: decoding agrees with reflection (both fail, or the same value),
// DecodeValid never panics even on broken JSON, and what decoded encodes
// with AppendJSON exactly as Marshal encodes it by reflection.
func FuzzReportCodec(f *testing.F) {
	for _, rep := range reportsForCodec()[:4] {
		doc, err := rep.AppendJSON(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc)
	}
	f.Add([]byte(`{"entries":[{"path":"a\u0000\ud83d\ude00","kind":"file"}],"generation":-0,"x":[{}]}`))
	f.Add([]byte(`{"entries":[{"path":"a"},null,{"kind":"directory","path":"b","path":"c"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var raw ProjectFilesResult
		_ = raw.DecodeValid(data) // broken JSON: an error or a partial result
		var got ProjectFilesResult
		gotErr := Unmarshal(data, &got)
		var want reflectReport
		wantErr := json.Unmarshal(data, &want)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, reflection %v", data, gotErr, wantErr)
		}
		if gotErr != nil {
			return
		}
		if !reflect.DeepEqual(got, ProjectFilesResult(want)) {
			t.Fatalf("%q: %+v, reflection %+v", data, got, want)
		}
		enc, err := got.AppendJSON(nil)
		ref, refErr := json.Marshal((*reflectReport)(&got))
		if (err == nil) != (refErr == nil) || string(enc) != string(ref) {
			t.Fatalf("%q: AppendJSON %s (%v), Marshal %s (%v)", data, enc, err, ref, refErr)
		}
	})
}
