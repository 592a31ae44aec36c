package policy

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/scoutdev/scout/backend/fsguard"
)

// Ignore file names, in increasing precedence within one directory.
const (
	GitignoreFile = ".gitignore"
	IgnoreFile    = ".ignore"
)

// maxIgnoreBytes bounds one ignore file. A larger file contributes its first
// maxIgnoreBytes up to the last complete line: ignore rules hide noise, they
// are not protection, so a partial reading can only show more noise.
const maxIgnoreBytes = 1 << 20

// IgnoreFiles says which ignore files a directory listing contained, so a
// scan enters a directory without probing for files that are not there.
type IgnoreFiles uint8

// The ignore files a directory may hold.
const (
	HasGitignore IgnoreFiles = 1 << iota
	HasIgnore
	// HasGitDir marks .git at the root (its info/exclude): a directory, or
	// the file of a worktree or submodule naming its git directory.
	HasGitDir
	// ProbeIgnoreFiles makes Enter look for every ignore file itself.
	ProbeIgnoreFiles = HasGitignore | HasIgnore | HasGitDir
)

// IgnoreFileKind tells which IgnoreFiles bit an entry of a listing sets, or 0.
func IgnoreFileKind(name string, isDir bool) IgnoreFiles {
	switch {
	case name == GitignoreFile && !isDir:
		return HasGitignore
	case name == IgnoreFile && !isDir:
		return HasIgnore
	case name == ".git":
		return HasGitDir
	}
	return 0
}

// pattern is one ignore line. A simple pattern (no slash but a trailing
// one) is matched against the entry's own name; a path pattern against the
// entry's whole path below the pattern's directory, component by component
// as git does (wildmatch with FNM_PATHNAME), by matchComps; one component
// is matched by matchGlob (wildmatch.go), git's wildmatch, not by
// filepath.Match, whose bracket expressions differ ("[!a]", "[a-]",
// "[]a]", "[[:alpha:]]"). go-git's matcher is not used: it lets a pattern
// match a prefix of the path, so "!keep" re-included everything inside
// keep/ and "a/**/" matched files, and its "**/" could not match zero
// directories after the first component ("**/tmp/**" missed tmp/x).
type pattern struct {
	// comps are a path pattern's components with "**" runs collapsed;
	// fixed counts those that are not "**" (each needs one component).
	comps []string
	fixed int

	// A simple pattern is matched against one name: glob is its body
	// (without "!" and a trailing "/"), matched by matchGlob.
	simple    bool
	glob      string
	domainLen int
	dirOnly   bool
	result    matchResult // exclude, or include for "!"
	// lit and suffix are exact shortcuts for the commonest simple
	// patterns, equivalent to matchGlob on one name: "name" (lit) and
	// "*.ext" (suffix). Both empty: ask matchGlob.
	lit, suffix string
	// lead are the leading literal components of a path pattern (after a
	// leading "/"): an entry can match only below directories named so.
	lead []string
	// base are the components from the ignore file's directory down to the
	// workspace root, for an ignore file above the workspace (ancestors.go);
	// a path pattern matches base followed by the entry's path.
	base []string
	// git marks a rule of git's (a .gitignore or an info/exclude line):
	// it stops at a nested repository, where that repository's own rules
	// take over, as in git and fd; a .ignore rule goes on inside.
	git bool
}

// gitRules marks ps as git's rules and returns them.
func gitRules(ps []*pattern) []*pattern {
	for _, p := range ps {
		p.git = true
	}
	return ps
}

// match tests a pattern against the entry path (all components from the
// workspace root; the entry is the last). The caller only asks patterns of
// ignore files in the entry's ancestors, so the domain is a prefix.
func (p *pattern) match(path []string, isDir bool) matchResult {
	if len(path) <= p.domainLen {
		return noMatch
	}
	if p.simple {
		return p.matchName(path[len(path)-1], isDir)
	}
	rel := path[p.domainLen:]
	if len(p.base) > 0 {
		var buf [32]string
		rel = append(append(buf[:0], p.base...), rel...)
	}
	if (p.dirOnly && !isDir) || p.fixed > len(rel) || !matchComps(p.comps, rel) {
		return noMatch
	}
	return p.result
}

// matchComps reports whether the path components match the pattern
// components exactly: "**" stands for zero or more components (at the end,
// one or more: "a/**" is what is inside a), any other component for one
// name (matchGlob, where "*" never crosses a slash). It runs in
// O(len(pat)·len(path)) whatever the pattern.
func matchComps(pat, path []string) bool {
	// ok[j] says whether pat[i:] matches path[j:], for i from the end.
	var buf [32]bool // no allocation for the usual depth
	ok := buf[:0]
	if len(path)+1 > len(buf) {
		ok = make([]bool, len(path)+1)
	}
	ok = ok[:len(path)+1]
	clear(ok)
	ok[len(path)] = true
	for i := len(pat) - 1; i >= 0; i-- {
		last := i == len(pat)-1
		next := ok[len(path)]
		if pat[i] == "**" {
			ok[len(path)] = !last && next
		} else {
			ok[len(path)] = false
		}
		for j := len(path) - 1; j >= 0; j-- {
			here := ok[j] // pat[i+1:] on path[j:]
			switch {
			case pat[i] == "**" && last:
				ok[j] = true
			case pat[i] == "**":
				ok[j] = here || ok[j+1]
			case !next:
				ok[j] = false
			default:
				ok[j] = matchGlob(pat[i], path[j])
			}
			next = here
		}
	}
	return ok[0]
}

// matchName tests a simple pattern against an entry's name.
func (p *pattern) matchName(name string, isDir bool) matchResult {
	if p.dirOnly && !isDir {
		return noMatch
	}
	switch {
	case p.lit != "":
		if name != p.lit {
			return noMatch
		}
	case p.suffix != "":
		if !strings.HasSuffix(name, p.suffix) {
			return noMatch
		}
	default:
		if !matchGlob(p.glob, name) {
			return noMatch
		}
	}
	return p.result
}

// parseLines turns the lines of an ignore file in the directory domain into
// patterns, skipping blanks and comments as git does.
func parseLines(data []byte, domain []string) []*pattern {
	var out []*pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxIgnoreBytes)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			line = strings.TrimPrefix(line, "\ufeff") // git skips a BOM
			first = false
		}
		line = strings.TrimSuffix(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		c := compile(line, domain)
		out = append(out, &c)
	}
	return out
}

// compile parses one pattern line for the directory domain.
func compile(line string, domain []string) pattern {
	p := pattern{domainLen: len(domain), result: exclude}
	body := trimTrailingSpaces(line)
	if strings.HasPrefix(body, "!") {
		body, p.result = body[1:], include
	}
	if strings.HasSuffix(body, "/") {
		body, p.dirOnly = body[:len(body)-1], true
	}
	if !strings.Contains(body, "/") {
		p.simple, p.glob = true, body
		switch {
		case !strings.ContainsAny(body, "*?[\\"):
			p.lit = body
		case strings.HasPrefix(body, "*") && len(body) > 1 && !strings.ContainsAny(body[1:], "*?[\\"):
			p.suffix = body[1:]
		}
		return p
	}
	literal := true
	for _, c := range splitPattern(strings.TrimPrefix(body, "/")) {
		if c == "**" && len(p.comps) > 0 && p.comps[len(p.comps)-1] == "**" {
			continue // "**/**" is "**"
		}
		if c != "**" {
			p.fixed++
		}
		p.comps = append(p.comps, c)
		if literal = literal && c != "" && !strings.ContainsAny(c, "*?[\\"); literal {
			p.lead = append(p.lead, c)
		}
	}
	return p
}

// trimTrailingSpaces drops the unescaped spaces at the end of a pattern
// line, as git's trim_trailing_spaces does: "a\\  " keeps its escaped space.
func trimTrailingSpaces(line string) string {
	end := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			continue
		case '\\':
			i++
			if i == len(line) {
				return line
			}
		}
		end = i + 1
	}
	return line[:end]
}

// readIgnoreFile reads one ignore file of d. A missing, unsafe (symlink,
// special file) or unreadable ignore file contributes nothing, as in git.
func readIgnoreFile(d *fsguard.Dir, name string) []byte {
	f, _, err := d.OpenFile(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	// One byte past the bound tells a file of exactly maxIgnoreBytes, whose
	// last line is complete even without a newline, from a longer one.
	data, err := io.ReadAll(io.LimitReader(f, maxIgnoreBytes+1))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	if len(data) > maxIgnoreBytes {
		data = data[:maxIgnoreBytes]
		data = data[:bytes.LastIndexByte(data, '\n')+1]
	}
	return data
}

// readExclude reads the info/exclude of the repository whose work tree's
// top is d (at the absolute path dir): .git/info/exclude when .git is a
// directory. A worktree's or a submodule's .git is a file naming its git
// directory ("gitdir: PATH", relative to dir when not absolute); a
// worktree's git directory names the repository's own in its commondir
// file, and git reads the info/exclude there, as this does.
func readExclude(d *fsguard.Dir, dir string) []byte {
	data, _ := repositoryExclude(d, dir)
	return data
}

// repositoryExclude is readExclude, and whether d is the top of a work
// tree at all: .git is a git directory (HEAD, objects/ and refs/ in it,
// as git tells one: a folder merely named .git is not a repository), or
// a file naming a git directory.
func repositoryExclude(d *fsguard.Dir, dir string) ([]byte, bool) {
	if git, err := d.OpenDir(".git"); err == nil {
		defer git.Close()
		return readInfoExclude(git), isGitDir(git)
	}
	gitdir := firstLine(readIgnoreFile(d, ".git"))
	gitdir, ok := strings.CutPrefix(gitdir, "gitdir:")
	if gitdir = strings.TrimSpace(gitdir); !ok || gitdir == "" {
		return nil, false
	}
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(dir, gitdir)
	}
	g := openAbsDir(gitdir)
	if g == nil {
		return nil, true
	}
	defer g.Close()
	common := strings.TrimSpace(firstLine(readIgnoreFile(g, "commondir")))
	if common == "" {
		return readInfoExclude(g), true // a submodule's: a whole git directory
	}
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitdir, common)
	}
	c := openAbsDir(common)
	if c == nil {
		return nil, true
	}
	defer c.Close()
	return readInfoExclude(c), true
}

// isGitDir reports whether git holds what every git directory does: a
// HEAD file and the objects and refs folders.
func isGitDir(git *fsguard.Dir) bool {
	head, _, err := git.OpenFile("HEAD")
	if err != nil {
		return false
	}
	head.Close()
	for _, name := range []string{"objects", "refs"} {
		sub, err := git.OpenDir(name)
		if err != nil {
			return false
		}
		sub.Close()
	}
	return true
}

// readInfoExclude reads info/exclude of the git directory git.
func readInfoExclude(git *fsguard.Dir) []byte {
	info, err := git.OpenDir("info")
	if err != nil {
		return nil
	}
	defer info.Close()
	return readIgnoreFile(info, "exclude")
}

// openAbsDir opens the directory at the absolute path dir, or returns nil.
func openAbsDir(dir string) *fsguard.Dir {
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	d, err := root.OpenDir(".")
	if err != nil {
		return nil
	}
	return d
}

// firstLine is data's first line, without its line ending.
func firstLine(data []byte) string {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return string(bytes.TrimSuffix(line, []byte("\r")))
}
