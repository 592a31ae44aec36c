package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/scoutdev/scout/backend/fsguard"
)

// Rules are the configurable inputs of a policy.
type Rules struct {
	// RespectIgnore turns .gitignore/.ignore/.git/info/exclude rules on.
	RespectIgnore bool
	// Deny are protected globs in .gitignore syntax, relative to the
	// workspace root as if written in its top-level .gitignore ("secrets/**",
	// "*.sqlite"). Negations are not allowed (ValidDeny).
	Deny []string
	// Protected are absolute paths that are protected wherever they lie:
	// provider credential files and the backend home. Paths outside the
	// workspace are ignored.
	Protected []string
}

// ValidDeny checks one deny glob: not empty, not a negation, at most 4,096
// bytes, no control characters. The error names no glob.
func ValidDeny(glob string) error {
	switch {
	case strings.TrimSpace(glob) == "" || strings.HasPrefix(strings.TrimSpace(glob), "#"):
		return errors.New("a deny glob is empty or a comment")
	case strings.HasPrefix(glob, "!"):
		return errors.New("a deny glob may not be a negation (\"!\")")
	case len(glob) > 4096:
		return errors.New("a deny glob is longer than 4096 bytes")
	case strings.ContainsFunc(glob, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return errors.New("a deny glob contains a control character")
	}
	return nil
}

// Verdict is why Check hid an entry, or Visible.
type Verdict uint8

// The verdicts, in the order Check tests them.
const (
	Visible   Verdict = iota
	Unsafe            // a symlink, special file, or unsafe name
	Protected         // credential name, deny glob, credential file, home
	Noise             // .git and friends
	Ignored           // excluded by ignore rules
)

func (v Verdict) String() string {
	return [...]string{"visible", "unsafe", "protected", "noise", "ignored"}[v]
}

// Policy is one generation's visibility decision. It is immutable and safe
// for concurrent use.
type Policy struct {
	generation    int64
	respectIgnore bool
	deny          []*pattern
	prot          *protNode
	// closed hides everything: the configuration could not be read (so its
	// deny globs are unknown), or the workspace is (or lies inside) the
	// backend home or a directory of a protected name.
	closed bool
	// inProtected is set when closed is for where the workspace lies: it
	// is (or lies inside) a protected path, such as the backend home, or
	// its own path passes through a protected name.
	inProtected bool
	// extraNoise are names skipped as noise besides noiseNames (WithNoise).
	extraNoise map[string]bool
	// repo is the repository the workspace lies inside, whose ignore
	// files above the workspace apply too; nil when there is none.
	repo *repository
	// root is the workspace root, absolute, symlinks resolved.
	root string
}

// New builds the policy of generation gen for the workspace root (an
// absolute path; symlinks in it are resolved here). reserved are earlier
// protections that are never forgotten; they are added to rules.
func New(gen int64, workspace string, rules Rules, reserved ...Rules) (*Policy, error) {
	p := &Policy{generation: gen, respectIgnore: rules.RespectIgnore, prot: &protNode{}}
	root := canonical(workspace)
	p.root = root
	// A root whose own path passes through a protected name (a shell in
	// ~/.aws) shows nothing: every entry would lie inside it.
	p.inProtected = protectedPath(filepath.Clean(workspace)) || protectedPath(root)
	p.closed = p.inProtected
	if rules.RespectIgnore {
		p.repo = findRepository(root)
	}
	for _, r := range append([]Rules{rules}, reserved...) {
		for _, g := range r.Deny {
			if err := ValidDeny(g); err != nil {
				return nil, err
			}
			c := compile(g, nil)
			p.deny = append(p.deny, &c)
		}
		for _, abs := range r.Protected {
			p.protect(root, abs)
		}
	}
	return p, nil
}

// protectedPath reports whether a component of the absolute path abs is a
// built-in credential name (§4.3).
func protectedPath(abs string) bool {
	for _, c := range strings.Split(abs, string(filepath.Separator)) {
		if c != "" && BuiltinProtected(c) {
			return true
		}
	}
	return false
}

// Closed returns a policy of generation gen under which nothing is visible:
// the safe answer to a configuration that cannot be read.
func Closed(gen int64) *Policy { return &Policy{generation: gen, closed: true, prot: &protNode{}} }

// protect adds abs, as written and with symlinks resolved, when it lies
// inside the workspace root. The root itself, or a root inside abs (a
// workspace inside the backend home), closes the policy: every entry would
// lie inside the protected path.
func (p *Policy) protect(root, abs string) {
	if !filepath.IsAbs(abs) {
		return
	}
	for _, cand := range []string{filepath.Clean(abs), canonical(abs)} {
		if _, inside := relativeTo(cand, root); inside {
			p.closed, p.inProtected = true, true
			continue
		}
		if comps, ok := relativeTo(root, cand); ok {
			p.prot.add(comps)
		}
	}
}

// WithNoise returns a copy of p that also skips names as noise, whatever
// their type, in every directory: for a caller whose view is stricter than
// the protocol's (`scout mcp` also skips dist). p itself is unchanged.
func (p *Policy) WithNoise(names ...string) *Policy {
	q := *p
	q.extraNoise = make(map[string]bool, len(p.extraNoise)+len(names))
	for n := range p.extraNoise {
		q.extraNoise[n] = true
	}
	for _, n := range names {
		q.extraNoise[n] = true
	}
	return &q
}

// Generation is the policy's generation.
func (p *Policy) Generation() int64 { return p.generation }

// IsClosed reports whether the policy hides everything.
func (p *Policy) IsClosed() bool { return p.closed }

// InProtected reports whether the policy hides everything because of where
// the workspace lies: it is, or lies inside, a protected path (the backend
// home, a protected path that names a directory) or a directory of a
// protected name.
func (p *Policy) InProtected() bool { return p.inProtected }

// RespectIgnore reports whether ignore rules apply.
func (p *Policy) RespectIgnore() bool { return p.respectIgnore }

// Frame is the policy state of one open directory during a walk: its path
// components and the ignore rules that apply inside it. Frames are
// immutable once made and may be shared by goroutines.
type Frame struct {
	comps []string
	// rules are the ignore patterns of this directory and its ancestors in
	// increasing precedence; ignore and deny are what compileRules keeps of
	// them and of the deny globs for entries of this directory.
	rules  []*pattern
	ignore []active
	deny   []active
	prot   *protNode
}

// Path returns the directory's workspace-relative components (nil: root).
func (f *Frame) Path() []string { return f.comps }

// RootFrame is the frame of the workspace root directory d. has says which
// ignore files its listing contains (ProbeIgnoreFiles when unknown).
func (p *Policy) RootFrame(d *fsguard.Dir, has IgnoreFiles) *Frame {
	f := &Frame{prot: p.prot}
	if p.respectIgnore && !p.closed {
		if p.repo != nil {
			f.rules = p.repo.rules()
		}
		if has&HasGitDir != 0 {
			f.rules = append(f.rules, gitRules(parseLines(readExclude(d, p.root), nil))...)
		}
		f.rules = append(f.rules, p.readRules(d, nil, has)...)
	}
	p.compile(f)
	return f
}

// Enter is the frame of the child directory name of parent, open as d. The
// caller has already checked that name is Visible in parent.
func (p *Policy) Enter(parent *Frame, name string, d *fsguard.Dir, has IgnoreFiles) *Frame {
	comps := make([]string, len(parent.comps)+1)
	copy(comps, parent.comps)
	comps[len(parent.comps)] = name
	f := &Frame{comps: comps, rules: parent.rules, prot: parent.prot.child(name)}
	if p.respectIgnore && !p.closed {
		if has&HasGitDir != 0 {
			// A nested repository (its .git a directory or a file): the
			// enclosing repositories' rules stop here and its own
			// info/exclude applies, as git and fd see it.
			if rules := p.nestedRepository(parent.rules, d, comps); rules != nil {
				f.rules = rules
			}
		}
		if own := p.readRules(d, comps, has); len(own) > 0 {
			f.rules = append(append([]*pattern{}, f.rules...), own...)
		}
	}
	p.compile(f)
	return f
}

// nestedRepository is the rules inherited at the top of a nested
// repository open as d (comps from the workspace root): the enclosing
// rules but git's, then its info/exclude. nil: the same as inherited (no
// rule of git's to drop, no exclude).
func (p *Policy) nestedRepository(inherited []*pattern, d *fsguard.Dir, comps []string) []*pattern {
	data, isRepo := repositoryExclude(d, filepath.Join(append([]string{p.root}, comps...)...))
	if !isRepo {
		return nil // probed: no .git here
	}
	exclude := gitRules(parseLines(data, comps))
	if len(exclude) == 0 && !slices.ContainsFunc(inherited, func(r *pattern) bool { return r.git }) {
		return nil
	}
	out := make([]*pattern, 0, len(inherited)+len(exclude))
	for _, r := range inherited {
		if !r.git {
			out = append(out, r)
		}
	}
	return append(out, exclude...)
}

func (p *Policy) compile(f *Frame) {
	f.ignore = compileRules(f.rules, f.comps, nil)
	f.deny = compileRules(p.deny, f.comps, nil)
}

func (p *Policy) readRules(d *fsguard.Dir, domain []string, has IgnoreFiles) []*pattern {
	var out []*pattern
	if has&HasGitignore != 0 {
		out = append(out, gitRules(parseLines(readIgnoreFile(d, GitignoreFile), domain))...)
	}
	if has&HasIgnore != 0 {
		out = append(out, parseLines(readIgnoreFile(d, IgnoreFile), domain)...)
	}
	return out
}

// Check decides whether the entry name of type typ (fs.FileMode type bits)
// inside the directory of frame f is visible. It is the one decision
// function of docs/protocol.md §4.
func (p *Policy) Check(f *Frame, name string, typ fs.FileMode) Verdict {
	isDir := typ.IsDir()
	switch {
	case p.closed:
		return Protected
	case !isDir && !typ.IsRegular():
		return Unsafe
	case !fsguard.SafeName(name):
		return Unsafe
	case BuiltinProtected(name):
		return Protected
	case f.prot.child(name) != nil && f.prot.child(name).here:
		return Protected
	case noiseNames[name] || p.extraNoise[name]:
		return Noise
	}
	var path []string
	if len(f.deny) > 0 && decide(f.deny, f, name, isDir, &path) == exclude {
		return Protected
	}
	if len(f.ignore) > 0 && decide(f.ignore, f, name, isDir, &path) == exclude {
		return Ignored
	}
	return Visible
}

// String describes the policy for diagnostics (no paths).
func (p *Policy) String() string {
	return fmt.Sprintf("generation %d, ignore rules %v, %d deny globs, closed %v", p.generation, p.respectIgnore, len(p.deny), p.closed)
}
