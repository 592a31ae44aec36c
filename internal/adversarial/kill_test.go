package adversarial

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/catalog"
	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/rpcclient"
)

// killable is an rpcclient whose children can be found and killed: the
// client starts a wrapper that records each child's pid and copies what
// the child writes into a transcript for the leak scan, then execs the
// real binary (same pid).
type killable struct {
	*rpcclient.Client
	pids, transcript string
}

func startKillable(t *testing.T, w world, caps []string, env ...string) *killable {
	t.Helper()
	dir := t.TempDir()
	k := &killable{pids: filepath.Join(dir, "pids"), transcript: filepath.Join(dir, "transcript")}
	wrapper := filepath.Join(dir, "scout-wrapper")
	script := fmt.Sprintf("#!/usr/bin/env bash\necho $$ >> %q\nexec > >(exec tee -a %q)\nexec %q \"$@\"\n", k.pids, k.transcript, scouttest.Binary(t))
	must(t, os.WriteFile(wrapper, []byte(script), 0o755))
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	c, err := rpcclient.Start(ctx, rpcclient.Options{
		Exe: wrapper, Dir: w.ws, Capabilities: caps, CloseTimeout: 5 * time.Second,
		Env: append(append(scouttest.Environ(), "SCOUT_HOME="+w.home), env...),
	})
	if err != nil {
		t.Fatalf("starting the client: %v", err)
	}
	k.Client = c
	scan.Add(w.canaries())
	t.Cleanup(func() {
		c.Close()
		k.scanTranscript(t)
	})
	return k
}

// pid is the current child's process id.
func (k *killable) pid(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile(k.pids)
	must(t, err)
	lines := strings.Fields(string(data))
	pid, err := strconv.Atoi(lines[len(lines)-1])
	must(t, err)
	return pid
}

// scanTranscript leak-scans every line the children wrote.
func (k *killable) scanTranscript(t *testing.T) {
	f, err := os.Open(k.transcript)
	must(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	lines := 0
	for sc.Scan() {
		lines++
		for _, found := range scan.Scan(sc.Bytes()) {
			t.Errorf("leak: %v", found)
		}
	}
	if lines == 0 {
		t.Error("the children's transcript is empty: the leak scan saw nothing")
	}
}

// homeFiles are the files of the home a request may write, with what they
// held before it.
type homeFiles struct {
	home           string
	cache, state   []byte
	trusted, local []byte
}

func snapshotHome(t *testing.T, w world) homeFiles {
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		return b
	}
	return homeFiles{
		home: w.home, cache: read(filepath.Join(w.home, "catalog", "p.json")), state: read(filepath.Join(w.home, "state.json")),
		trusted: read(filepath.Join(w.home, "trusted.json")), local: read(filepath.Join(w.ws, ".scout", "config.toml")),
	}
}

// checkWhole checks that every file a killed request may have been
// writing holds either its old bytes or a whole new document: the cache a
// whole catalog of the provider, state.json a whole selection, trusted.json
// a whole store that keeps every earlier decision. It returns the number
// of temporary files the kill left behind (they are never caches).
func checkWhole(t *testing.T, w world, before homeFiles) int {
	t.Helper()
	after := snapshotHome(t, w)
	if !bytes.Equal(after.cache, before.cache) {
		if st, entries := catalog.ParseCache(w.prov.provider(), after.cache); st != wire.CatalogAvailable || len(entries) == 0 {
			t.Errorf("the cache is neither old nor whole (%s): %q", st, after.cache)
		}
	}
	if !bytes.Equal(after.state, before.state) {
		var doc struct {
			Format    string          `json:"format"`
			Selection *wire.Selection `json:"selection"`
		}
		if wire.UnmarshalStrict(after.state, &doc) != nil || doc.Selection == nil {
			t.Errorf("state.json is neither old nor whole: %q", after.state)
		}
	}
	if !bytes.Equal(after.trusted, before.trusted) {
		store, err := config.ParseTrust(after.trusted)
		old, _ := config.ParseTrust(before.trusted)
		if err != nil || len(store.Workspaces) < len(old.Workspaces) {
			t.Errorf("trusted.json is neither old nor whole: %q", after.trusted)
		}
	}
	return tempsIn(w.home)
}

// tempsIn counts the temporary files of atomic writes below dir.
func tempsIn(dir string) int {
	n := 0
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasPrefix(fi.Name(), ".scout-tmp-") {
			n++
		}
		return nil
	})
	return n
}

// backdateTemps makes every temporary file below dir older than
// fsguard.StaleTempAge, as if the kill had happened long ago.
func backdateTemps(t *testing.T, dir string) {
	old := time.Now().Add(-fsguard.StaleTempAge - time.Minute)
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasPrefix(fi.Name(), ".scout-tmp-") {
			must(t, os.Chtimes(p, old, old))
		}
		return nil
	})
}

// killCase is one kind of request to kill the child in the middle of.
type killCase struct {
	method string
	params func(k *killable, i int) any
	// prepare runs before the request (e.g. a fresh revision for a
	// selection, a changed project configuration for a trust).
	prepare func(t *testing.T, k *killable, w world, i int)
	// writes is the directory of the home the request writes into, for
	// methods that write ("" for none, "." for the home itself).
	writes string
}

func killCases(w world) []killCase {
	var revision string
	var model string
	catalogFresh := func(t *testing.T, k *killable, _ world, _ int) {
		var st wire.CatalogStatusResult
		if err := k.Call(context.Background(), wire.MethodModelCatalogStatus, map[string]any{"cursor": nil}, &st); err != nil {
			t.Fatalf("status: %v", err)
		}
		revision, model = st.Revision, st.Choices[0].Model
	}
	var fileRef string
	listRoot := func(t *testing.T, k *killable, _ world, _ int) {
		var l wire.ListResult
		if err := k.Call(context.Background(), wire.MethodProjectList, map[string]any{"ref": "root"}, &l); err != nil {
			t.Fatalf("list: %v", err)
		}
		for _, e := range l.Entries {
			if e.Type == wire.TypeFile {
				fileRef = e.ID
			}
		}
	}
	none := func(*killable, int) any { return nil }
	cursor := func(*killable, int) any { return map[string]any{"cursor": nil} }
	return []killCase{
		{method: wire.MethodProjectFiles, params: func(*killable, int) any { return map[string]any{} }},
		{method: wire.MethodProjectList, params: func(*killable, int) any { return map[string]any{"ref": "root"} }},
		{method: wire.MethodProjectRead, prepare: listRoot, params: func(*killable, int) any { return map[string]any{"ref": fileRef} }},
		{method: wire.MethodSessionList, params: none},
		{method: wire.MethodSessionDiscover, params: cursor},
		{method: wire.MethodSessionOpen, params: func(_ *killable, i int) any { return map[string]any{"id": fmt.Sprintf("s-%04d", i%30)} }},
		{method: wire.MethodSessionNew, params: none},
		{method: wire.MethodModelCatalog, params: cursor},
		{method: wire.MethodModelCatalogStatus, params: cursor},
		{method: wire.MethodModelRefresh, writes: "catalog", params: func(*killable, int) any { return map[string]any{"provider": "p"} }},
		{method: wire.MethodModelSelect, writes: ".", prepare: catalogFresh, params: func(*killable, int) any {
			return map[string]any{"provider": "p", "model": model, "effort": "high", "revision": revision}
		}},
		{method: wire.MethodWorkspaceTrust, writes: ".", prepare: func(t *testing.T, _ *killable, w world, i int) {
			must(t, os.MkdirAll(filepath.Join(w.ws, ".scout"), 0o755))
			must(t, os.WriteFile(filepath.Join(w.ws, ".scout", "config.toml"), fmt.Appendf(nil, "[files]\ndeny = [\"gen-%d/**\"]\n", i), 0o644))
		}, params: none},
	}
}

// TestKilledMidRequest kills the child with SIGKILL in the middle of each
// kind of request, at a random moment (at once, or up to 4 ms after the
// request was sent), a few times each. The pending call fails with the
// child's exit (or succeeded, if it won the race); Restart brings up a new
// child that serves the same request; every file of the home the request
// may have been writing holds its old bytes or a whole new document; and
// the temporary files a kill leaves behind are removed by the next write
// into their directory once they are stale (backdated here).
func TestKilledMidRequest(t *testing.T) {
	t.Parallel()
	base := newWorld(t)
	for _, kc := range killCases(base) {
		t.Run(kc.method, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.prov.enabled = append(numbered("m", 2000), "good-1")
			w.home = catalogHome(t, "", w.prov)
			must(t, os.MkdirAll(filepath.Join(w.home, "sessions"), 0o700))
			copySessions(t, base, w)
			must(t, os.WriteFile(filepath.Join(w.home, "catalog", "p.json"), encodeCache(t, w.prov, numbered("m", 2000)), 0o600))
			k := startKillable(t, w, allCaps)
			kc := killCases(w)[slices.IndexFunc(killCases(w), func(c killCase) bool { return c.method == kc.method })]
			rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 3))
			outcomes, temps := map[string]int{}, 0
			for i := range rounds(4, 3) {
				if kc.prepare != nil {
					kc.prepare(t, k, w, i)
				}
				before := snapshotHome(t, w)
				delay := time.Duration(rng.IntN(4000)) * time.Microsecond
				if i%2 == 0 {
					delay = 0
				}
				outcomes[killDuring(t, k, kc, i, delay)]++
				temps += checkWhole(t, w, before)
				backdateTemps(t, w.home)
				ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
				if err := k.Restart(ctx); err != nil {
					t.Fatalf("restart: %v", err)
				}
				cancel()
				if kc.prepare != nil {
					kc.prepare(t, k, w, i)
				}
				err := k.Call(context.Background(), kc.method, kc.params(k, i), nil)
				if err != nil && !isBusy(err) {
					t.Fatalf("the restarted child answered %s with %v", kc.method, err)
				}
				if left := tempsIn(filepath.Join(w.home, kc.writes)); err == nil && kc.writes != "" && left > 0 {
					t.Errorf("%d stale temporary files survived a write into their directory", left)
				}
			}
			t.Logf("%s: %v; temporary files left by kills: %d", kc.method, outcomes, temps)
		})
	}
}

func isBusy(err error) bool {
	var we *wire.Error
	return errors.As(err, &we) && we.Code == wire.CodeBusy
}

// killDuring sends the request, kills the child after delay, and says how
// the call ended.
func killDuring(t *testing.T, k *killable, kc killCase, i int, delay time.Duration) string {
	t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- k.Call(context.Background(), kc.method, kc.params(k, i), nil) }()
	time.Sleep(delay)
	must(t, syscall.Kill(k.pid(t), syscall.SIGKILL))
	var err error
	select {
	case err = <-errc:
	case <-time.After(scouttest.DefaultTimeout):
		t.Fatal("the call never returned after its child was killed")
	}
	var exit *rpcclient.ExitError
	switch {
	case err == nil:
		return "answered before the kill"
	case errors.As(err, &exit):
		return "child exit"
	default:
		var we *wire.Error
		if errors.As(err, &we) {
			return string(we.Code) // answered (an error) before the kill
		}
		t.Fatalf("%s ended with %T %v", kc.method, err, err)
	}
	return ""
}

// copySessions copies base's histories, recorded for base's workspace, as
// histories of w's.
func copySessions(t *testing.T, base, w world) {
	src := filepath.Join(base.home, "sessions")
	ents, err := os.ReadDir(src)
	must(t, err)
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		must(t, err)
		data = bytes.ReplaceAll(data, []byte(base.ws), []byte(w.ws))
		must(t, os.WriteFile(filepath.Join(w.home, "sessions", e.Name()), data, 0o600))
	}
}
