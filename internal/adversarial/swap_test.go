package adversarial

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// swapper exchanges two names atomically (renameat2 RENAME_EXCHANGE) as
// fast as it can until stopped: at any moment one name is the real entry
// and the other its impostor (a symbolic link leading outside, a FIFO),
// which is the sharpest form of a check-then-open race.
type swapper struct {
	stop, done chan struct{}
	swaps      int
}

func startSwapper(t *testing.T, a, b string) *swapper {
	t.Helper()
	s := &swapper{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			select {
			case <-s.stop:
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("exchange: %v", err)
				return
			}
			if s.swaps++; s.swaps%64 == 0 {
				time.Sleep(100 * time.Microsecond) // leave the small machine's cores to the readers now and then
			}
		}
	}()
	t.Cleanup(s.halt)
	return s
}

// halt stops the swapper and returns how many exchanges it made.
func (s *swapper) halt() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	<-s.done
}

// TestSwappedUnderTheReader exchanges, while requests read them, a
// workspace directory with a symbolic link to a directory outside, a
// history with a symbolic link to a history outside (and with a FIFO), and
// a catalog cache with a symbolic link to another cache (and with a FIFO).
// Nothing behind a link may ever be listed or read (everything there holds
// the token, which the leak scan looks for, and the other cache's models
// are "evil-"), no FIFO may hang a request, and every answer is one the
// protocol allows for an unsafe entry.
func TestSwappedUnderTheReader(t *testing.T) {
	t.Parallel()
	t.Run("directory and symlink", func(t *testing.T) {
		t.Parallel()
		tok := token(t)
		outside := makefs.MustMake(t, "out-"+tok+"/deeper-"+tok, "file-"+tok)
		ws := makefs.MustMake(t, "a/real/inside.txt", "a/real/sub/x.go", "README.md")
		must(t, os.Symlink(outside, filepath.Join(ws, "a", "impostor")))
		sw := startSwapper(t, filepath.Join(ws, "a", "real"), filepath.Join(ws, "a", "impostor"))
		p := start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + t.TempDir()}},
			leakscan.Canaries{Paths: []string{outside}, ProtectedNames: []string{tok}})
		p.Initialize(wire.MethodProjectFiles)
		for range rounds(200, 50) {
			r := p.Call(wire.MethodProjectFiles, map[string]any{})
			if r.Error != nil {
				t.Fatalf("project.files: %s", r.Raw)
			}
			checkSnapshot(t, r, tok)
		}
		sw.halt()
		t.Logf("%d exchanges", sw.swaps)
	})
	t.Run("listed file and folder, symlinks and a FIFO", func(t *testing.T) {
		t.Parallel()
		tok := token(t)
		outside := makefs.MustMake(t, "secret.txt << "+tok, "dir/inner-"+tok+" << "+tok)
		ws := makefs.MustMake(t, "f.txt << "+visibleContent, "g.txt << "+visibleContent, "d/x.txt << "+visibleContent)
		must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "f-link")))
		must(t, os.Symlink(filepath.Join(outside, "dir"), filepath.Join(ws, "d-link")))
		must(t, syscall.Mkfifo(filepath.Join(ws, "g-fifo"), 0o644))
		sws := []*swapper{
			startSwapper(t, filepath.Join(ws, "f.txt"), filepath.Join(ws, "f-link")),
			startSwapper(t, filepath.Join(ws, "d"), filepath.Join(ws, "d-link")),
			startSwapper(t, filepath.Join(ws, "g.txt"), filepath.Join(ws, "g-fifo")),
		}
		p := start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + t.TempDir()}},
			leakscan.Canaries{Paths: []string{outside}, ProtectedNames: []string{tok}})
		p.Initialize(wire.MethodProjectList, wire.MethodProjectRead)
		w := &listWalk{t: t, p: p, tok: tok, limit: 2, answers: map[string]int{}, seen: map[string]string{}}
		for range rounds(200, 50) {
			w.walk(wire.RootRef, "")
		}
		for _, sw := range sws {
			sw.halt()
		}
		t.Logf("answers %v", w.answers)
	})
	t.Run("project configuration and symlink", func(t *testing.T) {
		t.Parallel()
		tok := token(t)
		real := "[files]\ndeny = [\"secret-*\"]\n"
		outside := makefs.MustMake(t, "config.toml << [files]\nrespect_ignore = false\n# "+tok+"\n")
		ws := makefs.MustMake(t, ".scout/config.toml << "+real, "secret-"+tok+" << "+tok, "ok.txt")
		must(t, os.Symlink(filepath.Join(outside, "config.toml"), filepath.Join(ws, ".scout", "impostor")))
		home := t.TempDir()
		p := start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}},
			leakscan.Canaries{Paths: []string{outside, home}, ProtectedNames: []string{tok}})
		p.Initialize(wire.MethodWorkspaceTrust, wire.MethodProjectFiles)
		// Trusted once for real: its deny glob is protection for good.
		p.MustCall(wire.MethodWorkspaceTrust, nil, nil)
		sw := startSwapper(t, filepath.Join(ws, ".scout", "config.toml"), filepath.Join(ws, ".scout", "impostor"))
		answers := map[string]int{}
		for range rounds(60, 20) {
			m := p.Call(wire.MethodWorkspaceTrust, nil)
			switch m.Code() {
			case "", wire.CodeTrustFailed:
			default:
				t.Errorf("workspace.trust answered %s", m.Raw)
			}
			var r wire.TrustResult
			if m.Error == nil {
				m.Decode(t, &r)
			}
			answers[string(m.Code())+r.Trust]++
			if f := p.Call(wire.MethodProjectFiles, map[string]any{}); f.Error == nil {
				checkSnapshot(t, f, tok)
			}
		}
		sw.halt()
		store, err := config.ParseTrust(mustRead(t, filepath.Join(home, "trusted.json")))
		sum := sha256.Sum256([]byte(real))
		if err != nil || len(store.Workspaces) != 1 || store.Workspaces[0].SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("trusted.json records %+v (%v); want only the real file's SHA-256", store, err)
		}
		t.Logf("answers %v", answers)
	})
	t.Run("history and impostors", func(t *testing.T) {
		t.Parallel()
		s := newStore(t, 20)
		elsewhere := t.TempDir()
		sessionstest.MustWrite(t, elsewhere, sessionstest.History{ID: "h-0005", Cwds: []string{s.ws}, UserText: "outside " + s.tok, Title: "outside " + s.tok})
		must(t, os.Symlink(filepath.Join(elsewhere, "h-0005.jsonl"), s.path("link.jsonl")))
		must(t, syscall.Mkfifo(s.path("fifo.jsonl"), 0o644))
		sw1 := startSwapper(t, s.path("h-0005.jsonl"), s.path("link.jsonl"))
		sw2 := startSwapper(t, s.path("h-0006.jsonl"), s.path("fifo.jsonl"))
		p := s.start(t)
		for i := range rounds(100, 30) {
			var m scouttest.Msg
			switch i % 3 {
			case 0:
				m = discoverPage(p, nil)
			case 1:
				m = p.Call(wire.MethodSessionList, nil)
			default:
				m = p.Call(wire.MethodSessionOpen, map[string]any{"id": []string{"h-0005", "h-0006", "link", "fifo"}[i%4]})
			}
			switch m.Code() {
			case "", wire.CodeStaleRevision, wire.CodeNotFound, wire.CodeSessionInvalid:
			default:
				t.Errorf("%s", m.Raw)
			}
		}
		sw1.halt()
		sw2.halt()
		t.Logf("%d and %d exchanges", sw1.swaps, sw2.swaps)
	})
	t.Run("cache and impostors", func(t *testing.T) {
		t.Parallel()
		prov := catalogProvider{id: "p", typ: "openai-compatible", base: "http://127.0.0.1:9/v1", enabled: append(numbered("good", 5), numbered("evil", 5)...)}
		q := prov
		q.id = "q"
		home := catalogHome(t, "", prov, q)
		cat := filepath.Join(home, "catalog")
		must(t, os.WriteFile(filepath.Join(cat, "p.json"), encodeCache(t, prov, numbered("good", 5)), 0o600))
		must(t, os.WriteFile(filepath.Join(cat, "q.json"), encodeCache(t, q, numbered("good", 5)), 0o600))
		evil := filepath.Join(t.TempDir(), "evil.json")
		must(t, os.WriteFile(evil, encodeCache(t, prov, numbered("evil", 5)), 0o600))
		must(t, os.Symlink(evil, filepath.Join(cat, "link")))
		must(t, syscall.Mkfifo(filepath.Join(cat, "fifo"), 0o600))
		sw1 := startSwapper(t, filepath.Join(cat, "p.json"), filepath.Join(cat, "link"))
		sw2 := startSwapper(t, filepath.Join(cat, "q.json"), filepath.Join(cat, "fifo"))
		p := start(t, scouttest.Options{Env: []string{"SCOUT_HOME=" + home}}, leakscan.Canaries{Paths: []string{home}})
		p.Initialize(catalogCaps...)
		codes := map[wire.Code]int{}
		for range rounds(100, 30) {
			m := p.Call(wire.MethodModelCatalogStatus, map[string]any{"cursor": nil})
			codes[m.Code()]++
			switch m.Code() {
			case "":
				if strings.Contains(string(m.Raw), "evil-") {
					t.Fatalf("a cache behind a symbolic link was read: %s", m.Raw)
				}
			case wire.CodeCatalogUnavailable:
			default:
				t.Errorf("%s", m.Raw)
			}
		}
		sw1.halt()
		sw2.halt()
		t.Logf("answers %v; %d and %d exchanges", codes, sw1.swaps, sw2.swaps)
	})
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	return b
}
