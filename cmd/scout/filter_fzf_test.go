package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/tui/files"
)

// syntaxQueries exercise fzf's extended search syntax: AND, exact,
// prefix, suffix, whole line, negation in every form, OR, mixes, escaped
// spaces, upper case (smart case), letters with diacritics (normalized)
// and the operators alone. Every one selects the same lines in fzf 0.38
// and in the newest fzf.
var syntaxQueries = []string{
	// AND, in any order
	"http server", "server http", "net http go", "json decode go", "a b c", "go mod",
	// exact
	"'server", "'server.go", "'http/", "'cafe", "'café", "'x 'y",
	// prefix, suffix, whole line
	"^net", "^net/http", "^cmd/ go", "^src", "^ lead", "^lead", "go$", ".go$", "_test.go$",
	"txt$", "spaces$", "spaces.txt$", "^README$", "^go.mod$", "^x/go.mod$", "^café/menu.txt$",
	// negation
	"!test", "!_test.go", "go !test", "!^cmd/", "!.go$", "!^cmd !test go$", "!'tst", "!^README$",
	"server !'srv_",
	// OR
	"server | client", "^net | ^os", "json | xml decode", "a | b | c", "zzz | http server",
	"| x", "x | | y", "!test | ^cmd go", "'mod | 'sum",
	// escaped spaces
	"spaces\\ in", "leading\\ spaces", "\\ leading", "some\\ file", "trailing\\ ", "in\\ path file",
	// upper case
	"Server", "HTTP", "README", "CAFÉ", "Kelvin", "\u212a", "Menu menu", "UPPER", "ÜNÏ",
	// normalization of diacritics
	"cafe", "cafe menu", "resume", "angstrom", "naive", "unicode", "Unicode", "menü",
	// the operators alone and doubled
	"$", "!", "^", "'", "|", "!$", "^$", "'$", "^^", "$$", "!!x", "''", "!^", "\\", "^\\ ",
}

// boundaryQueries use 'term' (a substring at word boundaries), which fzf
// has since 0.55 (0.38 reads `'http'` as the exact text "http'"): they
// are compared with such versions only.
var boundaryQueries = []string{"'http'", "'go' mod", "'server' !test", "'menu'", "'go'$"}

// differentialLists are the committed path lists (tui/rank/testdata) and
// which of the queries each is filtered by: every one, or (over the
// Python tree's 46,267 lines, the dearest) every other one.
var differentialLists = []struct {
	name  string
	every int
}{{"gotree.txt", 1}, {"tricky.txt", 1}, {"pytree.txt", 2}}

// TestFilterSelectsFzfLines holds `scout filter --stdin` to `fzf
// --filter`, Debian's fzf 0.38 (fzf on PATH) and fzf built from its module
// at the newest version (the binary SCOUT_TEST_FZF names; .ci/run installs
// it), over the committed lists for the queries of syntaxQueries (and
// boundaryQueries, newest fzf only): the set of lines printed must be the
// same. The order is scout's own ranking, not compared.
//
// scout's side is the command's own code in this process: the lines split
// as readCandidates splits standard input (files.SplitLines) and ranked and
// printed by printFiltered, which is all of `scout filter --stdin` that
// depends on the query. A race-built scout process a query (226 of them,
// each starting with 50 ms of the race runtime's own) took the test 69 s
// of CPU, 40 s now; one run of the real binary over each list (for
// `!test`, most of its lines in their ranked order) must print the same
// bytes.
func TestFilterSelectsFzfLines(t *testing.T) {
	t.Parallel()
	bin := scouttest.Binary(t)
	paths := []string{scouttest.NeedCommand(t, "fzf")}
	if latest := os.Getenv("SCOUT_TEST_FZF"); latest != "" {
		paths = append(paths, latest)
	} else if os.Getenv("CI") != "" {
		t.Fatal("SCOUT_TEST_FZF is not set: .ci/run installs fzf from its module and sets it")
	} else {
		t.Log("SCOUT_TEST_FZF is not set (the path of fzf built from github.com/junegunn/fzf@latest): compared with the fzf on PATH only")
	}
	fzfs := map[string]bool{} // fzf binary: has 'term' boundaries
	for _, path := range paths {
		out, err := exec.Command(path, "--version").Output()
		if err != nil {
			t.Fatalf("%s --version: %v", path, err)
		}
		var major, minor int
		fmt.Sscanf(string(out), "%d.%d", &major, &minor)
		fzfs[path] = major > 0 || minor >= 55
		t.Logf("%s: %s", path, bytes.TrimSpace(out))
	}
	dir := filepath.Join(scouttest.ModuleRoot(t), "tui", "rank", "testdata")
	queries := append(slices.Clone(syntaxQueries), boundaryQueries...)
	for _, l := range differentialLists {
		list := l.name
		input := filepath.Join(dir, list)
		data, err := os.ReadFile(input)
		if err != nil {
			t.Fatal(err)
		}
		lines, long := files.SplitLines(string(data), '\n')
		if long {
			t.Fatalf("%s has a line longer than files.MaxLineBytes", list)
		}
		t.Run(list, func(t *testing.T) {
			t.Parallel()
			t.Run("binary", func(t *testing.T) {
				t.Parallel()
				const q = "!test" // most lines, in scout's whole order
				want, _ := filterInProcess(t, lines, q)
				if got := runFilter(t, bin, input, "filter", "--stdin", q); !bytes.Equal(got, want) {
					t.Errorf("%s %q: the scout binary printed %d bytes, printFiltered %d", list, q, len(got), len(want))
				}
			})
			for i, q := range queries {
				if i%l.every != 0 {
					continue
				}
				// A subtest a query, so that the queries of one list (a
				// hundred rankings and processes of each fzf) share the
				// package's parallel slots instead of running one by one.
				t.Run(fmt.Sprint(i), func(t *testing.T) {
					t.Parallel()
					_, want := filterInProcess(t, lines, q)
					for fzf, boundaries := range fzfs {
						if !boundaries && slices.Contains(boundaryQueries, q) {
							continue
						}
						if got := sortedLines(runFilter(t, fzf, input, "--filter", q)); !slices.Equal(got, want) {
							t.Errorf("%s %q: %s selects %d lines, scout %d; first difference: %s", list, q, fzf, len(got), len(want), firstMissing(got, want))
						}
					}
				})
			}
		})
	}
}

// filterInProcess is `scout filter --stdin query` over lines, in this
// process: what it prints, and its lines sorted. Nothing matched (exit
// status 1) is not an error.
func filterInProcess(t *testing.T, lines []string, query string) ([]byte, []string) {
	t.Helper()
	var out bytes.Buffer
	if err := printFiltered(&out, lines, query, 0, '\n'); err != nil && !errors.Is(err, exitNothing) {
		t.Fatalf("printFiltered %q: %v", query, err)
	}
	return out.Bytes(), sortedLines(out.Bytes())
}

// runFilter runs a filter over the file input and returns what it
// printed. Exit status 1 (nothing matched) is not an error. The filter
// reads the file itself and writes into a file, read once at the end:
// copied through pipes by this (race-built) process, a list of 3 MB cost
// more CPU here than in the filter, hundreds of times over.
func runFilter(t *testing.T, bin string, input string, args ...string) []byte {
	t.Helper()
	in, err := os.Open(input)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	outFile, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer outFile.Close()
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout = in, outFile
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var exit *exec.ExitError
	if err := cmd.Run(); err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("%s %q: %v: %s", filepath.Base(bin), args, err, stderr.String())
	}
	out, err := os.ReadFile(outFile.Name())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sortedLines returns the lines of a filter's output, sorted.
func sortedLines(out []byte) []string {
	if len(out) == 0 {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	slices.Sort(lines)
	return lines
}

// firstMissing names the first line one of two sorted sets has and the
// other lacks.
func firstMissing(a, b []string) string {
	for _, l := range a {
		if _, ok := slices.BinarySearch(b, l); !ok {
			return "fzf only: " + strconv.Quote(l)
		}
	}
	for _, l := range b {
		if _, ok := slices.BinarySearch(a, l); !ok {
			return "scout only: " + strconv.Quote(l)
		}
	}
	return "none"
}
