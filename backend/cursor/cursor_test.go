package cursor

import (
	"os"
	"testing"

	"github.com/scoutdev/scout/internal/testhome"
)

func TestMain(m *testing.M) {
	testhome.Isolate()
	os.Exit(testhome.Wrap(m).Run())
}

func TestCodec(t *testing.T) {
	c := New("d1")
	for _, v := range [][2]uint64{{1, 1}, {0, 0}, {^uint64(0), ^uint64(0)}, {36, 1295}} {
		s := c.Encode(v[0], v[1])
		if len(s) > MaxBytes {
			t.Errorf("cursor %q is %d bytes", s, len(s))
		}
		walk, seq, ok := c.Decode(s)
		if !ok || walk != v[0] || seq != v[1] {
			t.Errorf("Decode(%q) = %d %d %v", s, walk, seq, ok)
		}
		if _, _, ok := New("d1").Decode(s); ok {
			t.Errorf("another child's codec accepted %q", s)
		}
		if _, _, ok := WithKey("x1", c.key).Decode(s); ok {
			t.Errorf("another method's codec with the same secret accepted %q", s)
		}
		for i := range len(s) {
			b := []byte(s)
			b[i] ^= 1
			if _, _, ok := c.Decode(string(b)); ok {
				t.Errorf("tampered cursor %q accepted", b)
			}
		}
	}
	for _, bad := range []string{"", ".", "d1", "d1...", "d1.1.1.", "d1.01.1." + c.Encode(1, 1)[7:]} {
		if _, _, ok := c.Decode(bad); ok {
			t.Errorf("made-up cursor %q accepted", bad)
		}
	}
}

func TestLongestVersionFits(t *testing.T) {
	v := "abcdefghijklm"[:maxVersion]
	if s := New(v).Encode(^uint64(0), ^uint64(0)); len(s) != MaxBytes {
		t.Errorf("longest cursor %q is %d bytes, want %d", s, len(s), MaxBytes)
	}
	for _, bad := range []string{"", "a.b", v + "x"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("version %q was accepted", bad)
				}
			}()
			New(bad)
		}()
	}
}

// FuzzDecode checks the cursor decoder: it never panics, accepts only what
// Encode produces (byte for byte), and round-trips every pair within the
// 64-byte bound.
func FuzzDecode(f *testing.F) {
	c := WithKey("x1", [32]byte{1, 2, 3})
	f.Add(c.Encode(1, 1), uint64(1), uint64(2))
	f.Add("x1.1.1.AAAAAAAAAAAAAAAAAAAAAA", uint64(0), uint64(0))
	f.Add("x1..", uint64(99), uint64(1<<63))
	f.Add("d1.8f2c.3.Qz", uint64(36), uint64(37))
	f.Fuzz(func(t *testing.T, s string, walk, seq uint64) {
		if gotWalk, gotSeq, ok := c.Decode(s); ok && c.Encode(gotWalk, gotSeq) != s {
			t.Fatalf("accepted %q, which encodes as %q", s, c.Encode(gotWalk, gotSeq))
		}
		enc := c.Encode(walk, seq)
		if len(enc) > MaxBytes {
			t.Fatalf("cursor of %d bytes", len(enc))
		}
		if gotWalk, gotSeq, ok := c.Decode(enc); !ok || gotWalk != walk || gotSeq != seq {
			t.Fatalf("round trip of %d.%d failed", walk, seq)
		}
	})
}
