package adversarial

import (
	"fmt"
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/leakscan"
)

// TestPlantedLeaksAreCaught proves the suite's leak scan on its own
// fixtures: a scanner with exactly the canaries a world registers (plus
// the temporary directory every fixture lives in) catches a planted leak
// of each kind in a line shaped like a real answer, and passes the same
// line without it.
func TestPlantedLeaksAreCaught(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := leakscan.New(leakscan.Canaries{Paths: []string{leakscan.TempDir()}})
	s.Add(w.canaries())
	s.Add(leakscan.Canaries{Keys: []string{"sk-" + w.tok + "-key"}})
	line := func(v string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":"t9","error":{"code":-32603,"message":%q,"data":{"code":"internal","ts":"2026-11-29T18:27:15.123Z"}}}`, v)
	}
	planted := []struct {
		kind  leakscan.Kind
		value string
	}{
		{leakscan.AbsolutePath, "cannot read " + w.ws + "/src"},
		{leakscan.AbsolutePath, "home " + w.home},
		{leakscan.ProtectedName, "skipped .env.local"},
		{leakscan.FileContent, "package main // " + w.tok},
		{leakscan.ProviderKey, "key sk-" + w.tok + "-key rejected"},
		{leakscan.URL, "GET " + w.srv.base("ok") + "/models failed"},
		{leakscan.OSError, "open src: permission denied"},
	}
	for _, p := range planted {
		found := s.Scan([]byte(line(p.value)))
		if !containsKind(found, p.kind) {
			t.Errorf("%s not caught in %q: %v", p.kind, p.value, found)
		}
	}
	if found := s.Scan([]byte(line("The backend failed; see its diagnostics."))); len(found) > 0 {
		t.Errorf("a clean line: %v", found)
	}
	if !strings.Contains(w.srv.url, "127.0.0.1") {
		t.Errorf("the provider server listens on %s", w.srv.url)
	}
}

func containsKind(found []leakscan.Finding, k leakscan.Kind) bool {
	for _, f := range found {
		if f.Kind == k {
			return true
		}
	}
	return false
}
