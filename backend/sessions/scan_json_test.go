package sessions

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// scanPieces are the parts string bodies are made of in the scanner tests:
// what stops the word-at-a-time scan (escapes of every kind, valid and not,
// UTF-8 of every length, valid and not, control characters, quotes), and
// plain runs of several lengths so each lands at every offset of a word.
var scanPieces = []string{
	"a", "abcdefg", strings.Repeat("x", 37),
	`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\\\"`, `\\\\`,
	`\u00e9`, `\u00E9`, `\ud83d\ude00`, `\uD83D\uDE00`, `\ud83d`, `\ude00`, `\ud83d\u0041`, `\ud83d\\ude00`,
	`\u12`, `\u12g4`, `\x`, `\'`, `\` + "\x01", `\` + "é", `\`,
	"é", "—", "😀", "\u2028", "\x7f",
	"\xff", "\xc3", "\xe2\x80", "\xf0\x9f\x98", "\xed\xa0\x80", "\xe0\x80\x80", "\xc0\x80", "\xf4\x90\x80\x80", "\x80",
	"\x00", "\x01", "\t", "\n", "\x1f",
	`"`,
}

// checkScanLine holds the record parser to jsontext on
// `{"type":"user","text":"<body>"}`, and on the same line with a long
// member after the text, so that the scan reads the end of the text in
// 64-byte blocks too (it does only with 64 bytes left to read); when the
// line is valid, the parser must report the text's literal.
func checkScanLine(t *testing.T, body string) {
	t.Helper()
	const head = `{"type":"user","text":`
	for _, tail := range []string{`}`, `,"x":"` + strings.Repeat("y", 80) + `"}`} {
		line := []byte(head + `"` + body + `"` + tail)
		rec, err := ParseRecord(line)
		valid := jsontext.Value(line).IsValid()
		if (err == nil) != valid {
			t.Fatalf("%q: parser error %v, jsontext valid %v", line, err, valid)
		}
		if valid && !bytes.Equal(rec.Text, line[len(head):len(line)-len(tail)]) {
			t.Fatalf("%q: text %q", line, rec.Text)
		}
	}
}

// TestScanStringPieces: every piece and every pair of pieces, after a
// plain prefix of 0 to 16 bytes and after one of 40 to 103 bytes, so each
// lands on every offset of a word and of a 64-byte block (the scanner
// reads a string a word at a time, then in blocks), and the string ends
// right after them or after more plain bytes.
func TestScanStringPieces(t *testing.T) {
	pads := []int{}
	for pad := 0; pad <= 16; pad++ {
		pads = append(pads, pad)
	}
	if !testing.Short() {
		for pad := 40; pad < 104; pad++ {
			pads = append(pads, pad)
		}
	}
	for _, pad := range pads {
		prefix := strings.Repeat("p", pad)
		for _, a := range scanPieces {
			checkScanLine(t, prefix+a)
			checkScanLine(t, prefix+a+"0123456789")
			for _, b := range scanPieces {
				checkScanLine(t, prefix+a+b)
				checkScanLine(t, prefix+a+b+"abcdefghijklmnopq")
			}
		}
	}
}

// TestScanStringRandom: longer random mixes of the pieces.
func TestScanStringRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			p := scanPieces[rng.IntN(len(scanPieces))]
			if rng.IntN(3) > 0 { // mostly valid: the scan goes further
				for !jsontext.Value(`"` + p + `"`).IsValid() {
					p = scanPieces[rng.IntN(len(scanPieces))]
				}
			}
			b.WriteString(p)
		}
		checkScanLine(t, b.String())
	}
}

// TestScanStringEdges names the cases the fast path must get right.
func TestScanStringEdges(t *testing.T) {
	long := strings.Repeat("a", 61)
	for _, tt := range []struct {
		body string
		ok   bool
	}{
		{long + "\xff", false},                        // invalid UTF-8 right after a long ASCII run
		{long + "abc\xe2\x80", false},                 // a truncated sequence before the quote
		{long + "ab\xe2\x80\x94", true},               // a sequence across a word boundary
		{long + "abcdefg\xf0\x9f\x98\x80", true},      // four bytes across a word boundary
		{long + `abcdefg\"`, true},                    // an escape across a word boundary
		{long + `abcdefg\\`, true},                    // an escaped backslash across it
		{long + `abcdefg\`, false},                    // the backslash escapes the closing quote
		{long + `abcdef\\\"x`, true},                  // an odd run ending in an escaped quote
		{long + `abcde\ud83d\ude00`, true},            // a surrogate pair across words
		{long + `abcde\ud83d`, false},                 // a lone high surrogate
		{long + `abcde\ude00`, false},                 // a lone low surrogate
		{long + `\ud83d\ude00\ude00`, false},          // a pair, then a lone low one
		{long + `\\ude00`, true},                      // no escape: an escaped backslash, then text
		{long + "abcdefg\x1f", false},                 // a control character at a word's end
		{long + "abcdefgh\x00ijkl", false},            // NUL inside
		{long + "\x7f", true},                         // DEL is allowed
		{long + "\xed\x9f\xbf", true},                 // U+D7FF
		{long + "\xed\xa0\x80", false},                // an encoded surrogate
		{long + "\xef\xbf\xbf\xf4\x8f\xbf\xbf", true}, // U+FFFF, U+10FFFF
	} {
		line := []byte(`{"text":"` + tt.body + `"}`)
		if _, err := ParseRecord(line); (err == nil) != tt.ok {
			t.Errorf("%q: error %v, want ok=%v", tt.body, err, tt.ok)
		}
		checkScanLine(t, tt.body)
	}
}

// TestScanStringUnterminated: a string that never ends, whatever its last
// bytes, is refused, at every length around a word.
func TestScanStringUnterminated(t *testing.T) {
	for n := range 20 {
		for _, end := range []string{"", `\`, `\"`, `\\`, "é", "\xe2\x80", `\u12`, `\ud83d`} {
			line := []byte(`{"text":"` + strings.Repeat("a", n) + end)
			if _, err := ParseRecord(line); err == nil {
				t.Errorf("%q accepted", line)
			}
		}
	}
}

// TestSpecialMask: in words of bytes drawn mostly from the ones that
// matter (and their neighbours, where borrows would show), every special
// byte is flagged and the lowest flag is a special byte.
func TestSpecialMask(t *testing.T) {
	special := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }
	near := []byte{0, 1, 0x1f, 0x20, 0x21, '"', '#', '!', '[', '\\', ']', 0x7f, 0x80, 0xa2, 0xdc, 0xff, 'a'}
	rng := rand.New(rand.NewPCG(3, 4))
	var words [][8]byte
	for p := range 256 { // every byte after every byte (borrows from below)
		for c := range 256 {
			words = append(words, [8]byte{'a', 'b', 'c', byte(p), byte(c), 'd', '"', 0x80})
		}
	}
	for range 1 << 20 {
		var b [8]byte
		for k := range b {
			if rng.IntN(4) == 0 {
				b[k] = byte(rng.IntN(256))
			} else {
				b[k] = near[rng.IntN(len(near))]
			}
		}
		words = append(words, b)
	}
	for _, b := range words {
		w := uint64(0)
		for k := 7; k >= 0; k-- {
			w = w<<8 | uint64(b[k])
		}
		m := specialMask(w)
		first := -1
		for k, c := range b {
			if special(c) {
				if m>>(8*k+7)&1 == 0 {
					t.Fatalf("% x: byte %d not flagged (mask %x)", b, k, m)
				}
				if first < 0 {
					first = k
				}
			}
		}
		if m != 0 && bits.TrailingZeros64(m)/8 != first {
			t.Fatalf("% x: lowest flag at %d, first special at %d", b, bits.TrailingZeros64(m)/8, first)
		}
		if p := pack(m); p != 0 && bits.TrailingZeros64(p) != bits.TrailingZeros64(m)/8 || bits.OnesCount64(p) != bits.OnesCount64(m) {
			t.Fatalf("pack(%x) = %x", m, p)
		}
	}
}
