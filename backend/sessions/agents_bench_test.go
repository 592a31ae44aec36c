package sessions_test

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions"
	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// agentStores writes claude Claude Code histories of turns replies of
// replyBytes each, all of workspace ws, and codex Codex rollouts (every
// fifth of another directory), and returns the homes and total bytes.
func agentStores(tb testing.TB, ws string, claude, turns, replyBytes, codex int) (claudeHome, codexHome string, total int64) {
	tb.Helper()
	claudeHome, codexHome = tb.TempDir(), tb.TempDir()
	for i := range claude {
		n, err := sessionstest.WriteClaude(claudeHome, sessionstest.ClaudeSession{
			ID: sessionstest.ID(fmt.Sprintf("bench-cc-%d", i)), Dir: ws, SnapshotFirst: true,
			Prompt: fmt.Sprintf("benchmark session %d", i), Turns: turns, TextBytes: replyBytes,
		})
		if err != nil {
			tb.Fatal(err)
		}
		total += n
	}
	for i := range codex {
		cwd := ws
		if i%5 == 4 {
			cwd = "/srv/elsewhere"
		}
		n, err := sessionstest.WriteCodex(codexHome, sessionstest.CodexRollout{
			ID: sessionstest.ID(fmt.Sprintf("bench-cx-%d", i)), Cwd: cwd, Prompt: fmt.Sprintf("benchmark rollout %d", i),
			Turns: 4, TextBytes: 4 << 10, Start: sessionstest.Epoch.Add(time.Duration(i) * time.Hour),
		})
		if err != nil {
			tb.Fatal(err)
		}
		total += n
	}
	return claudeHome, codexHome, total
}

// BenchmarkAgentDiscover measures a whole discovery, in process, over
// warm Claude Code and Codex stores; MB/s is history bytes per second.
func BenchmarkAgentDiscover(b *testing.B) {
	for _, c := range []struct {
		name                      string
		claude, turns, reply, cdx int
	}{
		{"claude_64x4MiB", 64, 64, 64 << 10, 0},
		{"claude_500x420KiB", 500, 8, 52 << 10, 0},
		{"codex_2000x20KiB", 0, 0, 0, 2000},
	} {
		b.Run(c.name, func(b *testing.B) {
			ws := canonicalTemp(b)
			cc, cx, total := agentStores(b, ws, c.claude, c.turns, c.reply, c.cdx)
			home, _ := sessionstest.Home(b)
			svc := sessions.New(sessions.Config{Home: home, Workspace: ws, Stores: sessions.Stores{ClaudeCode: cc, Codex: cx}})
			b.SetBytes(total)
			cpu := startCPU()
			for b.Loop() {
				runDiscovery(b, svc)
			}
			cpu.report(b, total)
		})
	}
}

// TestAgentDiscoveryMemory discovers, through the real binary, 5,000
// Claude Code histories of this workspace (2 GiB in all, records of 52 KiB)
// and 5,000 Codex rollouts (a fifth of another directory), three times,
// each time next to `cat` (and `tail -q -c +1`) reading the same files;
// it logs wall and CPU time of each and checks that the backend's peak RSS (VmHWM) stays
// under 64 MiB. Like TestDiscoverMemory2GiB it writes its store only with
// SCOUT_TEST_BIG_STORE=1; run it without -race.
func TestAgentDiscoveryMemory(t *testing.T) {
	if os.Getenv(BigStoreEnv) != "1" {
		t.Skip("set " + BigStoreEnv + "=1 to write and discover a 2 GiB store of Claude Code histories and 5,000 Codex rollouts")
	}
	ws := canonicalTemp(t)
	cc, cx, total := agentStores(t, ws, 5000, 8, 52<<10, 5000)
	t.Logf("stores: %d bytes (%.2f GiB), 5,000 Claude Code histories and 5,000 Codex rollouts", total, float64(total)/(1<<30))
	if total < 2<<30 {
		t.Fatalf("the stores are only %d bytes", total)
	}
	home, _ := sessionstest.Home(t)
	p := scouttest.Start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home, "CLAUDE_CONFIG_DIR=" + cc, "CODEX_HOME=" + cx}})
	p.Initialize(wire.MethodSessionDiscover)
	before := p.VmHWM()
	var discover, discoverCPU, cat, catCPU, tail, tailCPU []time.Duration
	for range 3 {
		pages, wall, cpu := timedFollow(t, p)
		discover, discoverCPU = append(discover, wall), append(discoverCPU, cpu)
		if rows := len(ids(pages)); rows != 5000+4000 {
			t.Fatalf("%d rows", rows)
		}
		if n := pages[len(pages)-1].Notices; n.SessionsOtherDirectories != 1000 || n.SessionsOmittedInvalid != 0 {
			t.Fatalf("notices %+v", n)
		}
		wall, cpu = timeRead(t, "cat", cc, cx)
		cat, catCPU = append(cat, wall), append(catCPU, cpu)
		wall, cpu = timeRead(t, "tail -q -c +1", cc, cx)
		tail, tailCPU = append(tail, wall), append(tailCPU, cpu)
	}
	hwm := p.VmHWM()
	mb := float64(total) / 1e6
	t.Logf("discovery: wall %v (median %v, %.0f MB/s), cpu %v (median %v, %.0f cpu-MB/s)", discover, median(discover), mb/median(discover).Seconds(), discoverCPU, median(discoverCPU), mb/median(discoverCPU).Seconds())
	t.Logf("cat:       wall %v (median %v, %.0f MB/s), cpu %v (median %v, %.0f cpu-MB/s)", cat, median(cat), mb/median(cat).Seconds(), catCPU, median(catCPU), mb/median(catCPU).Seconds())
	t.Logf("tail:      wall %v (median %v, %.0f MB/s), cpu %v (median %v, %.0f cpu-MB/s)", tail, median(tail), mb/median(tail).Seconds(), tailCPU, median(tailCPU), mb/median(tailCPU).Seconds())
	t.Logf("VmHWM %d KiB (%d KiB before discovery)", hwm, before)
	if hwm >= 64<<10 {
		t.Errorf("peak RSS %d KiB, want under 64 MiB", hwm)
	}
}

// timedFollow follows a whole discovery and returns its pages, the wall
// time and the backend's CPU time it took.
func timedFollow(t *testing.T, p *scouttest.Proc) ([]wire.DiscoverResult, time.Duration, time.Duration) {
	t.Helper()
	cpu0 := procCPU(t, p.Cmd.Process.Pid)
	start := time.Now()
	pages := mustFollow(t, p)
	return pages, time.Since(start), procCPU(t, p.Cmd.Process.Pid) - cpu0
}

// timeRead reads every history below the homes with the shell command
// reader (cat, or tail -q -c +1: GNU cat's posix_fadvise(SEQUENTIAL)
// makes its first read of each file cost milliseconds on some kernels,
// which tail's plain reads do not) and returns the wall time and the CPU
// time of the commands.
func timeRead(t *testing.T, reader string, dirs ...string) (time.Duration, time.Duration) {
	t.Helper()
	cmd := exec.Command("sh", "-c", `find "$@" -name '*.jsonl' -type f -exec `+reader+` {} + > /dev/null`, "sh")
	cmd.Args = append(cmd.Args, dirs...)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	wall := time.Since(start)
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// procCPU is the user and system time process pid has used.
func procCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
