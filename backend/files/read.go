package files

import (
	"bytes"
	"io"
	"os"
	"unicode/utf8"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
)

// OpenFile resolves rel under pol, re-checking every component through
// fsguard, and opens it for reading. A path that is not a visible regular
// file with exactly one link is ErrHidden, or ErrIsDir when it is a
// directory OpenFolder would serve (readable and searchable). The
// descriptor is checked to be the file that was resolved.
func OpenFile(root *fsguard.Root, pol *policy.Policy, rel string) (*os.File, fsguard.Info, error) {
	if root == nil || rel == "" || rel == "." {
		if root != nil && !pol.IsClosed() {
			return nil, fsguard.Info{}, ErrIsDir
		}
		return nil, fsguard.Info{}, ErrHidden
	}
	res, err := pol.Resolve(root, rel)
	if err != nil {
		return nil, fsguard.Info{}, ErrHidden
	}
	defer res.Close()
	if res.Info.IsDir() {
		if !res.Dir.Readable(res.Name, true) {
			return nil, fsguard.Info{}, ErrHidden // not "is a directory": that would tell it exists
		}
		return nil, fsguard.Info{}, ErrIsDir
	}
	if res.Info.Nlink != 1 {
		return nil, fsguard.Info{}, ErrHidden
	}
	f, info, err := res.Dir.OpenFile(res.Name)
	if err != nil {
		return nil, fsguard.Info{}, ErrHidden
	}
	if !info.SameFile(res.Info) || info.Nlink != 1 {
		f.Close()
		return nil, fsguard.Info{}, ErrHidden
	}
	return f, info, nil
}

// Head is the start of a file as project.read serves it.
type Head struct {
	Size      int64 // the file's size when it was opened
	Binary    bool  // the head holds a NUL byte; Text is empty
	Truncated bool  // the file has more than the bytes read
	Text      string
}

// ReadHead reads the first max bytes of f as UTF-8 text. Invalid
// sequences become U+FFFD, one per byte that cannot start or continue a
// character; a character cut by the bound at the end is dropped, not
// replaced. A NUL byte anywhere in the head makes it binary.
func ReadHead(f *os.File, info fsguard.Info, max int) (Head, error) {
	buf := make([]byte, max+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return Head{}, err
	}
	h := Head{Size: info.Size, Truncated: n > max}
	data := buf[:min(n, max)]
	if bytes.IndexByte(data, 0) >= 0 {
		h.Binary = true
		return h, nil
	}
	if h.Truncated {
		data = data[:len(data)-cutRune(data)]
	}
	h.Text = ValidText(data)
	return h, nil
}

// cutRune is the length of an incomplete UTF-8 sequence at the end of b
// (0 when b ends on a character boundary or in bytes that are invalid
// anyway).
func cutRune(b []byte) int {
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return i
			}
			return 0
		}
	}
	return 0
}

// ValidText returns b as a string with every byte that is not part of a
// valid UTF-8 sequence replaced by U+FFFD.
func ValidText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+len(b)/2)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return string(out)
}
