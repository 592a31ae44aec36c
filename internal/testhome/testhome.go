// Package testhome gives a test process a home of its own: HOME, the XDG
// base directories and SCOUT_HOME point into one temporary directory, and
// the variables that would lead a test to a real agent store or a real
// provider (CLAUDE_CONFIG_DIR, CODEX_HOME, OPENAI_API_KEY, …) are unset.
// Every package with tests calls Isolate first thing in its TestMain, so
// nothing a test or a scout child it starts does can reach the real home.
//
// The Go toolchain's own directories (build cache, module cache, GOPATH,
// its env file) are pinned to where they were before, so a `go build` run
// by a test still finds the caches instead of downloading and compiling
// everything again into the temporary home.
package testhome

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// unset are the variables that name a store or a credential outside the
// home: each would let a test read (or, for a provider, call) something
// real. Tests that need one set it themselves, pointing at a fixture.
var unset = []string{
	"CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "OPENCODE_DB", "CRUSH_GLOBAL_DATA",
	"OPENAI_API_KEY", "OPENAI_BASE_URL",
	"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
	"OPENROUTER_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
	"OLLAMA_HOST",
	"SCOUT_MAX_INDEXED", "SCOUT_CTRL_T_OPTS", "SCOUT_ALT_C_OPTS",
	"NO_COLOR",
}

// prefix names the temporary homes, one per test process. A process
// removes its own at the end of Wrap's Run; a later process removes those
// of processes that exited without getting there (a panic, a kill, a
// timeout).
const prefix = "scout-testhome-"

// Dir is the temporary home of this process, set by Isolate.
var Dir string

// Isolate points HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME,
// XDG_CACHE_HOME and SCOUT_HOME into a new temporary directory, unsets the
// variables of unset, and pins GOCACHE, GOMODCACHE, GOPATH and GOENV. It
// panics when it cannot: a test run that might write into the real home
// must not start. Under -race it also makes this process and its
// children exit at once (exitAtOnce, quickRaceExit).
func Isolate() {
	exitAtOnce()
	removeStale()
	pinGo()
	Dir = filepath.Join(os.TempDir(), fmt.Sprintf("%s%d", prefix, os.Getpid()))
	if err := os.RemoveAll(Dir); err != nil {
		panic(err)
	}
	for _, sub := range []string{"home", "config", "data", "state", "cache", "scout"} {
		if err := os.MkdirAll(filepath.Join(Dir, sub), 0o700); err != nil {
			panic(err)
		}
	}
	set("HOME", filepath.Join(Dir, "home"))
	set("XDG_CONFIG_HOME", filepath.Join(Dir, "config"))
	set("XDG_DATA_HOME", filepath.Join(Dir, "data"))
	set("XDG_STATE_HOME", filepath.Join(Dir, "state"))
	set("XDG_CACHE_HOME", filepath.Join(Dir, "cache"))
	set("SCOUT_HOME", filepath.Join(Dir, "scout"))
	for _, k := range unset {
		os.Unsetenv(k)
	}
	quickRaceExit()
}

// quickRaceExit adds atexit_sleep_ms=0 to GORACE when the tests are built
// with -race, for every child they start: the scout binary a test runs is
// built with -race then too (scouttest.Binary), and the race runtime
// sleeps 1 s before a process exits with status 0, by default. A test
// waits for that second each time it runs scout to its end, holding one
// of the package's parallel slots: TestFilterSelectsFzfLines alone ran
// about 150 of them. The race runtime still checks for races at exit and
// exits with status 66 if it found any.
func quickRaceExit() {
	if !raceEnabled {
		return
	}
	if v := os.Getenv("GORACE"); !strings.Contains(v, "atexit_sleep_ms") {
		set("GORACE", strings.TrimSpace(v+" atexit_sleep_ms=0"))
	}
}

// exitAtOnce gives this test process itself what quickRaceExit gives its
// children: the race runtime reads GORACE once, when the process starts,
// and by default sleeps a second before it exits with status 0, so under
// -race every package's test binary ended with a second of nothing, while
// go test waited, holding one of its -p slots (about 45 packages: 45 s of
// a slot in every run of the suite). When built with -race and started
// without atexit_sleep_ms in GORACE, the binary executes itself again in
// place (same pid, arguments and descriptors, before any test has run)
// with atexit_sleep_ms=0 added; the race runtime still reports every race
// and still exits with status 66 when it found one. If the exec fails the
// tests run anyway, only a second later.
func exitAtOnce() {
	if !raceEnabled || strings.Contains(os.Getenv("GORACE"), "atexit_sleep_ms") {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	quickRaceExit()
	syscall.Exec(exe, os.Args, os.Environ())
}

// pinGo fixes the toolchain's directories at the values the real home
// gives them, the way `go env` derives them.
func pinGo() {
	if os.Getenv("GOCACHE") == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			set("GOCACHE", filepath.Join(dir, "go-build"))
		}
	}
	if os.Getenv("GOENV") == "" {
		if dir, err := os.UserConfigDir(); err == nil {
			set("GOENV", filepath.Join(dir, "go", "env"))
		}
	}
	if os.Getenv("GOPATH") == "" {
		if home, err := os.UserHomeDir(); err == nil {
			set("GOPATH", filepath.Join(home, "go"))
		}
	}
	if os.Getenv("GOMODCACHE") == "" {
		if gopath := filepath.SplitList(os.Getenv("GOPATH")); len(gopath) > 0 {
			set("GOMODCACHE", filepath.Join(gopath[0], "pkg", "mod"))
		}
	}
}

func set(k, v string) {
	if err := os.Setenv(k, v); err != nil {
		panic(err)
	}
}

// removeStale removes the homes of test processes that have exited.
func removeStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+"*"))
	for _, dir := range dirs {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), prefix))
		if err != nil || pid == os.Getpid() {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			os.RemoveAll(dir)
		}
	}
}

var (
	cleanupMu sync.Mutex
	cleanups  []func()
)

// AtExit registers fn to run once the process's tests have run, for
// fixtures the tests of a package share (built once, removed at the end);
// TestMain must run its tests through Wrap for it to happen.
func AtExit(fn func()) {
	cleanupMu.Lock()
	defer cleanupMu.Unlock()
	cleanups = append(cleanups, fn)
}

// Wrap returns m with a Run that, after the tests, runs the AtExit
// functions and removes the process's temporary home, so a test run
// leaves nothing behind: `os.Exit(testhome.Wrap(m).Run())`, or
// `goleak.VerifyTestMain(testhome.Wrap(m))`. Every TestMain runs its
// tests through it.
func Wrap(m *testing.M) interface{ Run() int } { return wrapped{m} }

type wrapped struct{ m *testing.M }

func (w wrapped) Run() int {
	defer func() {
		cleanupMu.Lock()
		defer cleanupMu.Unlock()
		for _, fn := range cleanups {
			fn()
		}
		cleanups = nil
		if Dir != "" {
			os.RemoveAll(Dir)
		}
	}()
	return w.m.Run()
}
