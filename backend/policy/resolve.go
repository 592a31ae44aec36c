package policy

import (
	"errors"
	"strings"

	"github.com/scoutdev/scout/backend/fsguard"
)

// ErrHidden is returned by Resolve for a path that is missing, unsafe,
// protected, skipped or otherwise not visible. Callers must not tell these
// cases apart to clients.
var ErrHidden = errors.New("policy: not visible")

// Resolved is a visible entry found by Resolve. Dir is its parent directory,
// left open for the caller to open the entry relative to it (and to close);
// for the root, Dir is the root itself and Name is "".
type Resolved struct {
	Dir   *fsguard.Dir
	Frame *Frame // the frame of Dir
	Name  string
	Info  fsguard.Info
}

// Close closes the parent directory.
func (r *Resolved) Close() error { return r.Dir.Close() }

// Resolve walks rel ("." or "" is the root; otherwise slash-separated,
// relative, no empty, "." or ".." components) from the root, one component
// at a time: each is checked with Check in its parent's frame, each
// directory is opened through fsguard and its ignore rules are loaded. Any
// failure is ErrHidden, except errors of the root itself.
func (p *Policy) Resolve(root *fsguard.Root, rel string) (*Resolved, error) {
	d, err := root.OpenDir(".")
	if err != nil {
		return nil, err
	}
	f := p.RootFrame(d, ProbeIgnoreFiles)
	if rel == "" || rel == "." {
		info, err := d.Stat()
		if err != nil || p.closed {
			d.Close()
			return nil, ErrHidden
		}
		return &Resolved{Dir: d, Frame: f, Info: info}, nil
	}
	comps := strings.Split(rel, "/")
	for i, name := range comps {
		info, err := d.Lstat(name)
		if err != nil || p.Check(f, name, info.Mode.Type()) != Visible {
			d.Close()
			return nil, ErrHidden
		}
		if i == len(comps)-1 {
			return &Resolved{Dir: d, Frame: f, Name: name, Info: info}, nil
		}
		child, err := d.OpenDir(name)
		d.Close()
		if err != nil {
			return nil, ErrHidden
		}
		d, f = child, p.Enter(f, name, child, ProbeIgnoreFiles)
	}
	panic("unreachable")
}
