package policy

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

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
	// HasGitDir marks a real .git directory at the root (.git/info/exclude).
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
	case name == ".git" && isDir:
		return HasGitDir
	}
	return 0
}

// pattern is one ignore line, matched by go-git with the corrections that
// make it agree with git check-ignore (see match).
type pattern struct {
	p gitignore.Pattern
	// contentsOnly: the pattern ends in "/**", which in git matches
	// everything inside a directory but not the directory itself.
	contentsOnly bool
	// depth is the number of leading fixed components of a contentsOnly
	// pattern relative to its domain, plus the domain length.
	depth int

	// A simple pattern has no slash (other than a trailing one): go-git
	// matches it against every component below its domain. name is the
	// same pattern without a domain, to test one name on its own.
	simple    bool
	name      gitignore.Pattern
	domainLen int
	dirOnly   bool
	result    gitignore.MatchResult // Exclude, or Include for "!"
	// lit and suffix are exact shortcuts for the commonest simple
	// patterns, equivalent to filepath.Match on one name: "name" (lit) and
	// "*.ext" (suffix). Both empty: ask go-git.
	lit, suffix string
	// lead are the leading literal components of a path pattern (after a
	// leading "/"): an entry can match only below directories named so.
	lead []string
}

func (p *pattern) match(path []string, isDir bool) gitignore.MatchResult {
	if p.contentsOnly && len(path) <= p.depth {
		return gitignore.NoMatch
	}
	return p.p.Match(path, isDir)
}

// matchName tests a simple pattern against one name directly below a
// directory in which no ancestor component matched it.
func (p *pattern) matchName(name string, isDir bool) gitignore.MatchResult {
	if p.dirOnly && !isDir {
		return gitignore.NoMatch
	}
	switch {
	case p.lit != "":
		if name != p.lit {
			return gitignore.NoMatch
		}
	case p.suffix != "":
		if !strings.HasSuffix(name, p.suffix) {
			return gitignore.NoMatch
		}
	default:
		return p.name.Match([]string{name}, isDir)
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
	p := pattern{p: gitignore.ParsePattern(line, domain), domainLen: len(domain), result: gitignore.Exclude}
	body := line
	if !strings.HasSuffix(body, "\\ ") {
		body = strings.TrimRight(body, " ")
	}
	if strings.HasPrefix(body, "!") {
		body, p.result = body[1:], gitignore.Include
	}
	if strings.HasSuffix(body, "/**") {
		p.contentsOnly = true
		p.depth = len(domain) + strings.Count(strings.TrimPrefix(strings.TrimSuffix(body, "/**"), "/"), "/") + 1
	}
	if strings.HasSuffix(body, "/") {
		body, p.dirOnly = body[:len(body)-1], true
	}
	if strings.Contains(body, "/") {
		for _, c := range strings.Split(strings.TrimPrefix(body, "/"), "/") {
			if c == "" || strings.ContainsAny(c, "*?[\\") {
				break
			}
			p.lead = append(p.lead, c)
		}
	} else {
		p.simple = true
		p.name = gitignore.ParsePattern(line, nil)
		switch {
		case !strings.ContainsAny(body, "*?[\\"):
			p.lit = body
		case strings.HasPrefix(body, "*") && len(body) > 1 && !strings.ContainsAny(body[1:], "*?[\\"):
			p.suffix = body[1:]
		}
	}
	return p
}

// readIgnoreFile reads one ignore file of d. A missing, unsafe (symlink,
// special file) or unreadable ignore file contributes nothing, as in git.
func readIgnoreFile(d *fsguard.Dir, name string) []byte {
	f, info, err := d.OpenFile(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	n := min(info.Size, maxIgnoreBytes)
	data, err := io.ReadAll(io.LimitReader(f, n))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	if int64(len(data)) == maxIgnoreBytes {
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		}
	}
	return data
}

// readExclude reads .git/info/exclude below the root directory d.
func readExclude(d *fsguard.Dir) []byte {
	git, err := d.OpenDir(".git")
	if err != nil {
		return nil
	}
	defer git.Close()
	info, err := git.OpenDir("info")
	if err != nil {
		return nil
	}
	defer info.Close()
	return readIgnoreFile(info, "exclude")
}
