package leakscan

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

var fixture = Canaries{
	Paths:          []string{"/srv/fixture-ws-4711", "/srv/fixture-home-4711"},
	ProtectedNames: []string{"id_rsa_canary4711", "secret-canary4711"},
	Contents:       []string{"CONTENT-CANARY-4711"},
	Keys:           []string{"sk-canary-4711"},
}

// TestCatchesPlantedLeaks plants one leak of each kind in an otherwise
// well-formed message and expects the scanner to name that kind.
func TestCatchesPlantedLeaks(t *testing.T) {
	tests := []struct {
		name string
		line string
		want Kind
	}{
		{"workspace path in a message", `{"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"cannot open /srv/fixture-ws-4711/x","data":{"code":"internal","ts":"t"}}}`, AbsolutePath},
		{"home path inside an entry", `{"jsonrpc":"2.0","id":"a","result":{"entries":[{"path":"a/srv/fixture-home-4711","kind":"file"}]}}`, AbsolutePath},
		{"absolute entry path", `{"jsonrpc":"2.0","id":"a","result":{"entries":[{"path":"/etc/passwd","kind":"file"}]}}`, AbsolutePath},
		{"temp directory", `{"jsonrpc":"2.0","id":"a","result":{"title":"see /tmp/x"}}`, AbsolutePath},
		{"path of any root", `{"jsonrpc":"2.0","id":"a","result":{"x":"/anything"}}`, AbsolutePath},
		{"protected name listed", `{"jsonrpc":"2.0","id":"a","result":{"entries":[{"path":"src/id_rsa_canary4711","kind":"file"}]}}`, ProtectedName},
		{"protected name in a notification", `{"jsonrpc":"2.0","method":"x","params":{"p":["secret-canary4711"]}}`, ProtectedName},
		{"content in a listing", `{"jsonrpc":"2.0","id":"a","result":{"title":"CONTENT-CANARY-4711"}}`, FileContent},
		{"content in a read of another shape", `{"jsonrpc":"2.0","id":"a","result":{"content":"CONTENT-CANARY-4711"}}`, FileContent},
		{"content beside a read", `{"jsonrpc":"2.0","id":"a","result":{"generation":1,"size":3,"binary":false,"truncated":false,"content":"ok","extra":"CONTENT-CANARY-4711"}}`, FileContent},
		{"provider key", `{"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"Bearer sk-canary-4711 rejected","data":{"code":"internal","ts":"t"}}}`, ProviderKey},
		{"provider URL", `{"jsonrpc":"2.0","id":"a","result":{"reason":"http://example.invalid/models failed"}}`, URL},
		{"loopback address", `{"jsonrpc":"2.0","id":"a","result":{"m":"dial 127.0.0.1:80"}}`, URL},
		{"ENOENT text", `{"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"open x: no such file or directory","data":{"code":"internal","ts":"t"}}}`, OSError},
		{"EACCES text", `{"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"Permission denied","data":{"code":"internal","ts":"t"}}}`, OSError},
		{"errno name", `{"jsonrpc":"2.0","id":"a","result":{"m":"EACCES"}}`, OSError},
		{"Go network error", `{"jsonrpc":"2.0","id":"a","result":{"m":"read: connection reset by peer"}}`, OSError},
		{"not JSON at all", `panic: runtime error: index out of range`, OSError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(fixture)
			got := s.Scan([]byte(tt.line))
			if !slices.ContainsFunc(got, func(f Finding) bool { return f.Kind == tt.want }) {
				t.Errorf("%s not caught: %v", tt.want, got)
			}
			if len(s.Findings()) != len(got) || s.Lines() != 1 {
				t.Errorf("findings not recorded: %d of %d, %d lines", len(s.Findings()), len(got), s.Lines())
			}
		})
	}
}

// TestCleanMessages are real-shaped messages that must pass: relative
// paths, cursors and ids, member names in messages, and file content as
// the content of a project.read result.
func TestCleanMessages(t *testing.T) {
	clean := []string{
		`{"jsonrpc":"2.0","id":"t1","result":{"command_id":"t1","generation":1,"entries":[{"path":"src","kind":"directory"},{"path":"src/lib/tmp/x.go","kind":"file"},{"path":"home","kind":"directory"}],"truncated":false,"ts":"2026-11-29T18:27:15.123Z"}}`,
		`{"jsonrpc":"2.0","id":"t2","error":{"code":-32602,"message":"params.limit has the wrong type or value.","data":{"code":"invalid_params","ts":"2026-11-29T18:27:15.123Z"}}}`,
		`{"jsonrpc":"2.0","id":"t3","result":{"sessions":[],"cursor":"d1.2.3.EACCESenoentEPERMxx","complete":false}}`,
		`{"jsonrpc":"2.0","id":"t4","result":{"generation":1,"size":19,"binary":false,"truncated":false,"content":"CONTENT-CANARY-4711","ts":"t"}}`,
		`{"jsonrpc":"2.0","method":"rpc.command.started","params":{"command_id":"eperm","method":"project.files","ts":"t"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"The frame is not valid JSON.","data":{"code":"parse_error","ts":"t"}}}`,
	}
	for _, line := range clean {
		if got := New(fixture).Scan([]byte(line)); len(got) > 0 {
			t.Errorf("false positive in %s: %v", line, got)
		}
	}
}

// TestMCPAnswers: scout mcp's designed answers pass ScanMCP, and only
// ScanMCP, and only as whole values; anything else in the line is still
// checked.
func TestMCPAnswers(t *testing.T) {
	hidden := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"no such file or directory"}],"isError":true}}`
	if got := New(fixture).ScanMCP([]byte(hidden)); len(got) > 0 {
		t.Errorf("the designed answer was flagged: %v", got)
	}
	if got := New(fixture).Scan([]byte(hidden)); len(got) == 0 {
		t.Error("Scan let an OS error text through")
	}
	leaky := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"open /srv/x: no such file or directory"}],"isError":true}}`
	if got := New(fixture).ScanMCP([]byte(leaky)); len(got) == 0 {
		t.Error("ScanMCP let a raw error with a path through")
	}
	named := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"path\":\"id_rsa_canary4711\"}"}]}}`
	if got := New(fixture).ScanMCP([]byte(named)); len(got) == 0 {
		t.Error("ScanMCP let a protected name through")
	}
}

// TestPrefiltersKeepEveryMatch: the cheap tests run before the regexps
// never skip a string a regexp would match: mayHoldURL holds for every
// match of urlPattern, and systemDirs matches nothing without a slash,
// over planted URLs, hosts in every case and random strings from an
// alphabet of their fragments.
func TestPrefiltersKeepEveryMatch(t *testing.T) {
	t.Parallel()
	samples := []string{"http://x", "see HTTPS://a", "wss://h", "FiLe://x", "ftp://", "127.0.0.1:80", "[::1]:8080",
		"LOCALHOST", "a localhost b", "LocalHost:1", "/tmp/x", "at /etc", "no url here", ""}
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "hpstfilecoaLHOSTw:/.127[]0 x"
	for range 20000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		samples = append(samples, string(b))
	}
	matched := 0
	for _, v := range samples {
		if urlPattern.MatchString(v) {
			matched++
			if !mayHoldURL(v) {
				t.Errorf("%q matches urlPattern, mayHoldURL says no", v)
			}
		}
		if systemDirs.MatchString(v) && !strings.Contains(v, "/") {
			t.Errorf("%q matches systemDirs without a slash", v)
		}
	}
	if matched < 10 {
		t.Fatalf("only %d samples match urlPattern: the test checks little", matched)
	}
}
