// Package leakscan looks for what no backend message may carry
// (docs/protocol.md §2 and §4): absolute paths, the names the visibility policy
// protects, file contents outside project.read, provider keys, URLs and raw
// OS error text. The adversarial suite feeds it every line the backend
// writes; a test fixture tells it its own canaries (the workspace and home
// paths, protected names, file contents and keys it planted).
//
// Every string of a message is checked, member values and array elements
// at any depth. A line that is not JSON is checked as one string. Values
// that are random tokens (cursors, refs, ids) skip the short OS error
// words, which a random token could spell by chance; every other rule
// applies to them too.
package leakscan

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"
)

// Kind is a class of leak.
type Kind string

// The kinds of leak the scanner reports.
const (
	AbsolutePath  Kind = "absolute_path"
	ProtectedName Kind = "protected_name"
	FileContent   Kind = "file_content"
	ProviderKey   Kind = "provider_key"
	URL           Kind = "url"
	OSError       Kind = "os_error"
)

// Finding is one leak: its kind, what matched, and the line it was in.
type Finding struct {
	Kind  Kind
	Match string
	Line  string
}

func (f Finding) String() string {
	line := f.Line
	if len(line) > 300 {
		line = line[:300] + "…"
	}
	return fmt.Sprintf("%s %q in %s", f.Kind, f.Match, line)
}

// Canaries are what one fixture planted and must never see again.
type Canaries struct {
	// Paths are absolute paths of the fixture (workspace, home, temporary
	// directories, the binary): any occurrence is a leak.
	Paths []string
	// ProtectedNames are names the policy hides (built-in credential names
	// made unique, deny-glob matches, credential files, ignored names).
	ProtectedNames []string
	// Contents are strings written inside files: allowed only as the
	// content of a project.read result.
	Contents []string
	// Keys are provider credentials.
	Keys []string
}

// Scanner checks lines against its canaries and the fixed rules, and
// keeps what it found. It is safe for concurrent use.
type Scanner struct {
	mu       sync.Mutex
	canaries Canaries
	lines    int
	findings []Finding
}

// New returns a scanner for c.
func New(c Canaries) *Scanner { return &Scanner{canaries: c} }

// Add adds canaries (a test's own fixture) to the scanner.
func (s *Scanner) Add(c Canaries) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.canaries.Paths = append(s.canaries.Paths, c.Paths...)
	s.canaries.ProtectedNames = append(s.canaries.ProtectedNames, c.ProtectedNames...)
	s.canaries.Contents = append(s.canaries.Contents, c.Contents...)
	s.canaries.Keys = append(s.canaries.Keys, c.Keys...)
}

// Lines is the number of lines scanned so far.
func (s *Scanner) Lines() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lines
}

// Findings returns everything found so far.
func (s *Scanner) Findings() []Finding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Finding(nil), s.findings...)
}

// Scan checks one line (a backend message without its newline), records
// and returns its findings.
func (s *Scanner) Scan(line []byte) []Finding { return s.scan(line, nil) }

// MCPAnswers are the texts scout mcp answers by design (docs/design.md: one
// identical answer for every path it does not serve, and the failures it
// names). They read like OS errors but carry nothing of the file system.
var MCPAnswers = []string{"no such file or directory", "is a directory", "not a directory"}

// ScanMCP checks one line scout mcp wrote: the same rules, except that a
// string that is exactly one of MCPAnswers is not an OS error.
func (s *Scanner) ScanMCP(line []byte) []Finding { return s.scan(line, MCPAnswers) }

func (s *Scanner) scan(line []byte, allowed []string) []Finding {
	s.mu.Lock()
	c := s.canaries
	s.lines++
	s.mu.Unlock()
	var out []Finding
	report := func(k Kind, match string) {
		out = append(out, Finding{Kind: k, Match: match, Line: string(line)})
	}
	var msg any
	if json.Unmarshal(line, &msg) != nil {
		checkString(c, string(line), "", false, report)
	} else {
		walk(c, msg, "", readContent(msg), func(k Kind, match, value string) {
			if k != OSError || !slices.Contains(allowed, value) {
				report(k, match)
			}
		})
	}
	if len(out) > 0 {
		s.mu.Lock()
		s.findings = append(s.findings, out...)
		s.mu.Unlock()
	}
	return out
}

// readContent returns the content of a project.read result (the one
// place file content may appear), or nil.
func readContent(msg any) any {
	m, _ := msg.(map[string]any)
	res, _ := m["result"].(map[string]any)
	if res == nil {
		return nil
	}
	for _, k := range []string{"generation", "size", "binary", "truncated", "content"} {
		if _, ok := res[k]; !ok {
			return nil
		}
	}
	return res["content"]
}

// tokenMembers hold random tokens: they skip the OS error words.
var tokenMembers = map[string]bool{"cursor": true, "id": true, "ref": true, "next_ref": true, "revision": true, "catalog_revision": true, "request_id": true, "command_id": true, "session_id": true}

func walk(c Canaries, v any, key string, content any, report func(k Kind, match, value string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			walk(c, e, k, content, report)
		}
	case []any:
		for _, e := range v {
			walk(c, e, key, content, report)
		}
	case string:
		isContent := content != nil && key == "content"
		if cs, ok := content.(string); ok && cs != v {
			isContent = false
		}
		checkString(c, v, key, isContent, func(k Kind, match string) { report(k, match, v) })
	}
}

// systemDirs are absolute path prefixes no message has a reason to hold.
var systemDirs = regexp.MustCompile(`(^|[^A-Za-z0-9._-])/(tmp|home|root|proc|etc|usr|var|dev|sys|run|opt|work|mnt|srv|bin|lib)(/|$|[^A-Za-z0-9._-])`)

var urlPattern = regexp.MustCompile(`(?i)\b(https?|file|ftp|wss?)://|\b127\.0\.0\.1\b|\blocalhost\b|\[::1\]`)

// osErrors are fragments of the OS's and Go's error texts, lower case.
var osErrors = []string{
	"no such file", "permission denied", "eacces", "enoent", "eperm", "eisdir", "enotdir", "eloop",
	"not a directory", "is a directory", "too many open files", "operation not permitted",
	"input/output error", "connection refused", "connection reset", "broken pipe", "i/o timeout",
	"context deadline exceeded", "context canceled", "unexpected eof", "file exists",
	"bad file descriptor", "no space left", "read-only file system", "too many levels of symbolic links",
	"lstat ", "openat", "fstatat", "readlinkat", "getdents", "renameat", "unlinkat", "dial tcp",
	"net/http", "x509:", "tls:", "goroutine ", "panic:", "runtime error",
}

// mayHoldURL reports whether v holds a fragment every match of
// urlPattern holds ("://", "127.0.0.1", "[::1]" or "localhost" in any
// case): most strings hold none, and the regexp's backtracking was a
// quarter of a flood test's CPU (with systemDirs').
func mayHoldURL(v string) bool {
	if strings.Contains(v, "://") || strings.Contains(v, "127.0.0.1") || strings.Contains(v, "[::1]") {
		return true
	}
	const host = "localhost"
	for i := 0; i+len(host) <= len(v); i++ {
		if (v[i] == 'l' || v[i] == 'L') && strings.EqualFold(v[i:i+len(host)], host) {
			return true
		}
	}
	return false
}

func checkString(c Canaries, v, key string, isContent bool, report func(Kind, string)) {
	for _, p := range c.Paths {
		if p != "" && strings.Contains(v, p) {
			report(AbsolutePath, p)
		}
	}
	if strings.IndexByte(v, '/') >= 0 { // systemDirs needs one: skip the regexp
		if m := systemDirs.FindString(v); m != "" {
			report(AbsolutePath, m)
		}
	}
	if strings.HasPrefix(v, "/") {
		report(AbsolutePath, v)
	}
	for _, n := range c.ProtectedNames {
		if n != "" && strings.Contains(v, n) {
			report(ProtectedName, n)
		}
	}
	if !isContent {
		for _, n := range c.Contents {
			if n != "" && strings.Contains(v, n) {
				report(FileContent, n)
			}
		}
	}
	for _, k := range c.Keys {
		if k != "" && strings.Contains(v, k) {
			report(ProviderKey, k)
		}
	}
	if mayHoldURL(v) {
		if m := urlPattern.FindString(v); m != "" {
			report(URL, m)
		}
	}
	if tokenMembers[key] {
		return
	}
	lower := strings.ToLower(v)
	for _, e := range osErrors {
		if strings.Contains(lower, e) {
			report(OSError, e)
		}
	}
}

// TempDir is the process's temporary directory, a path every fixture
// lives under and no message may name.
func TempDir() string { return strings.TrimSuffix(os.TempDir(), "/") + "/" }
