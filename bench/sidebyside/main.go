// Command sidebyside times commands against each other on a shared,
// noisy machine. Each round runs every command once, the starting command
// rotating from round to round, so that load that comes and goes hits all
// of them alike (hyperfine runs one command's runs, then the next's). A
// command may be a pipeline ("fdfind . | fzf --filter q"); its processes
// are started directly, connected by a pipe, without a shell.
//
// For each command it reports the minimum and median wall time and the
// median CPU time (user plus system of every process of the command and
// of the children they waited for, from wait4), and the ratios of the
// first command's figures to each other's. With -tsv it appends one line
// per command to a file, for bench/compare.sh's table.
//
//	sidebyside -name gen10k/s -dir D -stdin list.txt -runs 40 -- 'scout filter --stdin s' 'fzf --filter s'
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	name := flag.String("name", "", "case name for the output")
	dir := flag.String("dir", "", "working directory of the commands")
	stdin := flag.String("stdin", "", "file given to each command's standard input")
	runs := flag.Int("runs", 30, "timed rounds")
	warmup := flag.Int("warmup", 3, "untimed rounds first")
	tsv := flag.String("tsv", "", "append results to this file, tab-separated")
	flag.Parse()
	cmds := flag.Args()
	if len(cmds) == 0 || *runs < 1 {
		fmt.Fprintln(os.Stderr, "usage: sidebyside [flags] -- 'command' ['command'...]")
		os.Exit(2)
	}
	b := &bench{dir: *dir, stdin: *stdin}
	res, err := b.run(cmds, *warmup, *runs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sidebyside:", err)
		os.Exit(1)
	}
	report(os.Stdout, *name, cmds, res)
	if *tsv != "" {
		if err := appendTSV(*tsv, *name, cmds, res); err != nil {
			fmt.Fprintln(os.Stderr, "sidebyside:", err)
			os.Exit(1)
		}
	}
}

// sample is one run of one command.
type sample struct {
	wall, cpu time.Duration
	rssKiB    int64
}

// stats summarizes one command's runs.
type stats struct {
	wallMin, wallMed, cpuMed time.Duration
	rssKiB                   int64 // the largest process's peak RSS, median over runs
}

type bench struct {
	dir, stdin string
}

// run times every command warmup+runs times, interleaved.
func (b *bench) run(cmds []string, warmup, runs int) ([]stats, error) {
	samples := make([][]sample, len(cmds))
	for r := range warmup + runs {
		for k := range cmds {
			i := (r + k) % len(cmds)
			s, err := b.once(cmds[i])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", cmds[i], err)
			}
			if r >= warmup {
				samples[i] = append(samples[i], s)
			}
		}
	}
	out := make([]stats, len(cmds))
	for i, ss := range samples {
		out[i] = summarize(ss)
	}
	return out, nil
}

// once runs a command (a pipeline of processes) to its end.
func (b *bench) once(command string) (sample, error) {
	stages := strings.Split(command, "|")
	procs := make([]*exec.Cmd, len(stages))
	var in io.Reader
	if b.stdin != "" {
		f, err := os.Open(b.stdin)
		if err != nil {
			return sample{}, err
		}
		defer f.Close()
		in = f
	}
	var closers []io.Closer
	for i, st := range stages {
		argv := strings.Fields(st)
		if len(argv) == 0 {
			return sample{}, errors.New("empty pipeline stage")
		}
		c := exec.Command(argv[0], argv[1:]...)
		c.Dir, c.Stdin, c.Stderr = b.dir, in, os.Stderr
		if i < len(stages)-1 {
			pr, pw, err := os.Pipe()
			if err != nil {
				return sample{}, err
			}
			c.Stdout, in = pw, pr
			closers = append(closers, pw, pr)
		}
		procs[i] = c
	}
	start := time.Now()
	for i, c := range procs {
		if err := c.Start(); err != nil {
			return sample{}, err
		}
		if i < len(procs)-1 {
			c.Stdout.(io.Closer).Close() // the child holds the write end
		}
	}
	var s sample
	var failed error
	for _, c := range procs {
		err := c.Wait()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
			failed = err // exit 1 is "no match", like fzf's
		}
		if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
			s.cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			s.rssKiB = max(s.rssKiB, ru.Maxrss)
		}
	}
	s.wall = time.Since(start)
	for _, c := range closers {
		c.Close()
	}
	return s, failed
}

func summarize(ss []sample) stats {
	wall := make([]time.Duration, len(ss))
	cpu := make([]time.Duration, len(ss))
	rss := make([]int64, len(ss))
	for i, s := range ss {
		wall[i], cpu[i], rss[i] = s.wall, s.cpu, s.rssKiB
	}
	slices.Sort(wall)
	slices.Sort(cpu)
	slices.Sort(rss)
	return stats{wallMin: wall[0], wallMed: wall[len(wall)/2], cpuMed: cpu[len(cpu)/2], rssKiB: rss[len(rss)/2]}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func report(w io.Writer, name string, cmds []string, res []stats) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(bw, "== %s (load %s)\n", name, strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
	fmt.Fprintf(bw, "%-60s %9s %9s %9s %8s   %s\n", "command", "min ms", "med ms", "cpu ms", "rss MiB", "first ÷ this (min, med, cpu)")
	for i, c := range cmds {
		r := res[i]
		fmt.Fprintf(bw, "%-60s %9.2f %9.2f %9.2f %8.1f   %.2f %.2f %.2f\n", short(c), ms(r.wallMin), ms(r.wallMed), ms(r.cpuMed), float64(r.rssKiB)/1024,
			ratio(res[0].wallMin, r.wallMin), ratio(res[0].wallMed, r.wallMed), ratio(res[0].cpuMed, r.cpuMed))
	}
}

// short drops directories from a command's programs and files.
func short(c string) string {
	f := strings.Fields(c)
	for i, s := range f {
		if strings.Contains(s, "/") {
			f[i] = s[strings.LastIndexByte(s, '/')+1:]
		}
	}
	return strings.Join(f, " ")
}

func appendTSV(path, name string, cmds []string, res []stats) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	for i, c := range cmds {
		r := res[i]
		fmt.Fprintf(f, "%s\t%d\t%s\t%.3f\t%.3f\t%.3f\t%.1f\n", name, i, short(c), ms(r.wallMin), ms(r.wallMed), ms(r.cpuMed), float64(r.rssKiB)/1024)
	}
	return f.Close()
}
