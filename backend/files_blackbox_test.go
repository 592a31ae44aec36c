package backend_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/asuser"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

const maxLine = 1048576

// report is a decoded project.files response with its raw line.
type report struct {
	wire.ProjectFilesResult
	raw []byte
}

func (r report) paths() []string {
	out := make([]string, len(r.Entries))
	for i, e := range r.Entries {
		out[i] = e.Path
	}
	return out
}

func (r report) has(path string) bool { return slices.Contains(r.paths(), path) }

// scanFiles calls project.files and checks what every report must satisfy:
// the line bound, no absolute path or fixture location anywhere, kinds,
// component order, and every parent listed.
func scanFiles(t *testing.T, p *scouttest.Proc, dir string) report {
	t.Helper()
	return reportOf(t, p.Call(wire.MethodProjectFiles, map[string]any{}), dir)
}

// reportOf checks and decodes a project.files answer.
func reportOf(t *testing.T, m scouttest.Msg, dir string) report {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("project.files: %s: %s", m.Error.Data.Code, m.Error.Message)
	}
	var r report
	m.Decode(t, &r.ProjectFilesResult)
	r.raw = m.Raw
	checkReport(t, r, dir)
	return r
}

// scanFilesPatiently is scanFiles for a tree whose scan is near its 2 s
// deadline on a loaded machine (150,000 files under the race detector):
// scan_timeout is then the protocol's answer, not what the test is about,
// so the scan is tried again (once the timed-out scan has let go of the
// scan slot: busy until then), up to three times.
func scanFilesPatiently(t *testing.T, p *scouttest.Proc, dir string) report {
	t.Helper()
	m := p.Call(wire.MethodProjectFiles, map[string]any{})
	for try := 1; try < 3 && m.Code() == wire.CodeScanTimeout; try++ {
		m = callUntilFree(t, p)
	}
	return reportOf(t, m, dir)
}

func checkReport(t *testing.T, r report, dir string) {
	t.Helper()
	if n := len(r.raw) + 1; n > maxLine {
		t.Errorf("response line is %d bytes", n)
	}
	for _, leak := range []string{dir, os.TempDir() + "/", `"path":"/`} {
		if strings.Contains(string(r.raw), leak) {
			t.Errorf("report contains %q", leak)
		}
	}
	seen := map[string]bool{}
	for i, e := range r.Entries {
		if e.Kind != wire.KindFile && e.Kind != wire.KindDirectory {
			t.Errorf("entry %q has kind %q", e.Path, e.Kind)
		}
		if i > 0 && compareComponents(r.Entries[i-1].Path, e.Path) >= 0 {
			t.Errorf("order: %q before %q", r.Entries[i-1].Path, e.Path)
		}
		if j := strings.LastIndexByte(e.Path, '/'); j >= 0 && !seen[e.Path[:j]] {
			t.Errorf("entry %q is listed without its parent", e.Path)
		}
		if e.Kind == wire.KindDirectory {
			seen[e.Path] = true
		}
	}
}

func compareComponents(a, b string) int {
	return slices.Compare(strings.Split(a, "/"), strings.Split(b, "/"))
}

func startIn(t *testing.T, dir string, opts scouttest.Options) *scouttest.Proc {
	t.Helper()
	opts.Dir = dir
	if !slices.ContainsFunc(opts.Env, func(e string) bool { return strings.HasPrefix(e, "SCOUT_HOME=") }) {
		opts.Env = append(opts.Env, "SCOUT_HOME="+filepath.Join(t.TempDir(), "home"))
	}
	p := scouttest.Start(t, opts)
	p.Initialize(wire.MethodProjectFiles, wire.MethodWorkspaceTrust, wire.MethodCancel)
	return p
}

// protectedNames are §4.3's built-in credential names (files and dirs).
var protectedNames = []string{
	".env", ".env.local", ".env.production", ".netrc", ".npmrc", ".pypirc", ".git-credentials",
	"server.pem", "tls.key", "cert.p12", "cert.pfx", "app.keystore",
	"id_rsa", "id_rsa.pub", "id_dsa", "id_ecdsa", "id_ed25519", "id_ed25519.pub",
}

var protectedDirs = []string{".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker"}

// unsafeNames are §4.2's unrepresentable names. (A 256-byte name cannot be
// created on Linux, whose NAME_MAX is 255; see TestHostileWorkspace.)
var unsafeNames = []string{"bad\nname", "esc\x1b[31mred", "del\x7fname", "rlo\u202etxt.exe", "lri\u2066x", "back\\slash", "inv\xffalid", "c1\u0085x"}

// hostileFixture is the workspace of TestHostileWorkspace.
func hostileFixture() []string {
	var fx []string
	for _, n := range protectedNames {
		fx = append(fx, n, "src/"+n)
	}
	for _, d := range protectedDirs {
		fx = append(fx, d+"/inside", "src/"+d+"/inside")
	}
	for _, n := range unsafeNames {
		fx = append(fx, n, "src/"+n+"/child")
	}
	fx = append(fx,
		".env.example", ".env.sample", ".env.template", "README.md", "src/main.go",
		strings.Repeat("l", 255), strings.Repeat("é", 127),
		"link-file => README.md", "link-dir => src", "link-root => /", "loop => loop", "src/up => ..",
		"fifo|", "sock=", "src/fifo|",
		"locked/ mode 0000", "locked/secret.txt",
		".gitignore << *.log\n!keep.log\nbuild/\n",
		"app.log", "keep.log", "build/out.o",
		"src/.gitignore << !*.log\ngen/\n", "src/a.log", "src/gen/x.go",
		"src/pkg/.gitignore << *.log\n!pkg-keep.log\n", "src/pkg/b.log", "src/pkg/pkg-keep.log",
		"node_modules/left-pad/index.js", "src/node_modules/x.js", ".git/config", ".hg/store", ".svn/entries", ".jj/repo",
	)
	deep := "deep"
	for i := 1; i <= 30; i++ {
		deep += fmt.Sprintf("/d%d", i)
	}
	return append(fx, deep+"/leaf")
}

func TestHostileWorkspace(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, hostileFixture()...)
	if err := os.WriteFile(filepath.Join(dir, strings.Repeat("x", 256)), nil, 0o644); err == nil {
		t.Fatal("the OS accepted a 256-byte name; the fixture must check that it is not listed")
	} else if !strings.Contains(err.Error(), "file name too long") {
		t.Fatalf("creating a 256-byte name: %v", err)
	}
	asuser.Share(dir)
	// As uid 65534 "locked" really is unreadable; as root it would not be.
	home := filepath.Join(t.TempDir(), "home")
	asuser.Share(filepath.Dir(home))
	p := startIn(t, dir, scouttest.Options{Unprivileged: true, Env: []string{"SCOUT_HOME=" + home}})
	r := scanFiles(t, p, dir)

	forbidden := map[string]bool{"app.log": true, "build": true, "src/gen": true, "src/pkg/b.log": true,
		"link-file": true, "link-dir": true, "link-root": true, "loop": true, "src/up": true,
		"fifo": true, "sock": true, "src/fifo": true, "locked/secret.txt": true}
	for _, n := range append(append(append([]string{}, protectedNames...), protectedDirs...), unsafeNames...) {
		forbidden[n], forbidden["src/"+n] = true, true
	}
	for _, e := range r.Entries {
		for _, comp := range strings.Split(e.Path, "/") {
			if forbidden[comp] || forbidden[e.Path] || comp == "node_modules" || comp == ".git" || comp == ".hg" || comp == ".svn" || comp == ".jj" {
				t.Errorf("forbidden entry listed: %q", e.Path)
			}
		}
	}
	for _, want := range []string{".env.example", ".env.sample", ".env.template", "README.md", "src", "src/main.go",
		".gitignore", "keep.log", "src/.gitignore", "src/a.log", "src/pkg", "src/pkg/.gitignore", "src/pkg/pkg-keep.log",
		strings.Repeat("l", 255), strings.Repeat("é", 127), "locked", "deep"} {
		if !r.has(want) {
			t.Errorf("visible entry %q missing", want)
		}
	}
	// Depth: deep is depth 1, deep/d1/.../d11 is depth 12: listed, not expanded.
	d11 := "deep"
	for i := 1; i <= 11; i++ {
		d11 += fmt.Sprintf("/d%d", i)
	}
	if !r.has(d11) || r.has(d11+"/d12") {
		t.Errorf("depth bound: %q listed %v, its child listed %v", d11, r.has(d11), r.has(d11+"/d12"))
	}
	if !r.Truncated {
		t.Error("a directory at depth 12 was left unexpanded but truncated is false")
	}
	for _, e := range r.Entries {
		if strings.HasPrefix(e.Path, "locked/") {
			t.Errorf("unreadable directory has children: %q", e.Path)
		}
	}
	again := scanFiles(t, p, dir)
	if !slices.Equal(again.Entries, r.Entries) || again.Truncated != r.Truncated {
		t.Error("two scans of an unchanged workspace differ")
	}
}

// TestIgnoreIdiomsMatchGit: the files project.files lists are the files
// git lists as untracked and not ignored, for the idioms of gitignore(5):
// re-including one directory of an excluded set, "**/" matching no
// directory, "/**" for what is inside, negations that name a directory
// (which re-include it, not its contents) and dir-only negations.
func TestIgnoreIdiomsMatchGit(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t,
		".gitignore << /*\n!/.gitignore\n!/foo\n/foo/*\n!/foo/bar\n!/n\n",
		"a", "b/c", "foo/x", "foo/bar/y", "foo/bar/z/w", "foo/baz/q",
		"n/.gitignore << *.log\n!important\nlogs/**\n!logs/**/\n!logs/**/*.txt\n**/tmp/**\n",
		"n/important/x.log", "n/important/z.txt", "n/logs/a.log", "n/logs/d/b.txt", "n/logs/d/c.log",
		"n/tmp/t", "n/w/tmp/u", "n/w/v",
	)
	gitInit(t, dir)
	if got, want := scannedFiles(t, dir), gitListed(t, dir); !slices.Equal(got, want) {
		t.Errorf("project.files lists %q\ngit lists %q", got, want)
	}
}

// TestBracketExpressionsMatchGit: bracket expressions and escapes match as
// git's wildmatch matches them, not as filepath.Match: "[!x]" negates, a
// "]" first and a "-" last are members, POSIX classes, escaped trailing
// spaces, "?" is one byte, a "/" inside brackets does not split the
// pattern and an escaped "/" does.
func TestBracketExpressionsMatchGit(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t,
		".gitignore << x.l[!o]g\n[a-]\n[]q]\n[[:digit:]]\nsp\\ \\ \n?.txt\n[k/l]\nm\\/n\n",
		"x.log", "x.lag", "a", "-", "b", "]", "q", "r", "7", "sp", "sp ", "sp  ", "é.txt", "e.txt",
		"k", "l", "s/k", "m/n", "m/o",
		"d/[z-a]/.gitignore << [z-a]\n[[:nope:]]\n[[:a]\n", "d/[z-a]/z", "d/[z-a]/m", "d/[z-a]/:", "d/[z-a]/n",
	)
	gitInit(t, dir)
	if got, want := scannedFiles(t, dir), gitListed(t, dir); !slices.Equal(got, want) {
		t.Errorf("project.files lists %q\ngit lists %q", got, want)
	}
}

// TestIgnoreFilesAboveTheWorkspace: a workspace inside a repository, below
// its top (`cd pkg && scout`), hides what the repository's ignore files
// above it hide, and its .git/info/exclude, exactly as git does there.
func TestIgnoreFilesAboveTheWorkspace(t *testing.T) {
	t.Parallel()
	top := makefs.MustMake(t,
		".gitignore << *.log\n!keep.log\n/sub/ws/build/\nsub/**/tmp/\n",
		"sub/.gitignore << generated/\n/ws/only-here.txt\n",
		"sub/other.log",
		"sub/ws/.gitignore << local.txt\n",
		"sub/ws/main.go", "sub/ws/a.log", "sub/ws/keep.log", "sub/ws/build/out.bin",
		"sub/ws/tmp/t", "sub/ws/deep/tmp/u", "sub/ws/deep/v", "sub/ws/generated/g.go",
		"sub/ws/only-here.txt", "sub/ws/d/only-here.txt", "sub/ws/excluded.txt", "sub/ws/local.txt",
	)
	gitInit(t, top)
	if err := os.WriteFile(filepath.Join(top, ".git", "info", "exclude"), []byte("excluded.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(top, "sub", "ws")
	got, want := scannedFiles(t, ws), gitListed(t, ws)
	if !slices.Equal(got, want) {
		t.Errorf("project.files lists %q\ngit lists %q", got, want)
	}
	// The oracle itself: what the rules above the workspace hide is
	// really hidden, and what they leave is there.
	for _, hidden := range []string{"a.log", "build/out.bin", "tmp/t", "deep/tmp/u", "generated/g.go", "only-here.txt", "excluded.txt", "local.txt"} {
		if slices.Contains(got, hidden) {
			t.Errorf("%s is listed", hidden)
		}
	}
	for _, shown := range []string{"main.go", "keep.log", "deep/v", "d/only-here.txt"} {
		if !slices.Contains(got, shown) {
			t.Errorf("%s is missing", shown)
		}
	}
}

// TestWorktreesAndSubmodulesExclude: in a linked worktree (`git worktree
// add`, its .git a file naming the git directory) the repository's own
// info/exclude applies, in the worktree and in a workspace below its top,
// as git applies it; and so does a submodule's, read from the git
// directory its .git file names (a relative path).
func TestWorktreesAndSubmodulesExclude(t *testing.T) {
	t.Parallel()
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v %s", args[0], err, out)
		}
	}
	base := t.TempDir()
	main := filepath.Join(base, "main")
	if err := makefs.Make(main, "tracked.txt << t"); err != nil {
		t.Fatal(err)
	}
	gitInit(t, main)
	git(main, "add", ".")
	git(main, "commit", "-q", "-m", "i")
	if err := os.WriteFile(filepath.Join(main, ".git", "info", "exclude"), []byte("wtex*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(base, "wt")
	git(main, "worktree", "add", "-q", wt)
	if err := makefs.Make(wt, "wtexA", "normal", "sub/wtexB", "sub/kept"); err != nil {
		t.Fatal(err)
	}
	for ws, want := range map[string][]string{wt: {"normal", "sub/kept", "tracked.txt"}, filepath.Join(wt, "sub"): {"kept"}} {
		// The oracle: git lists the same, tracked files aside.
		if git := gitListed(t, ws); !slices.Equal(git, slices.DeleteFunc(slices.Clone(want), func(p string) bool { return p == "tracked.txt" })) {
			t.Fatalf("%s: git lists %q", filepath.Base(ws), git)
		}
		if got := scannedFiles(t, ws); !slices.Equal(got, want) {
			t.Errorf("%s: project.files lists %q, want %q", filepath.Base(ws), got, want)
		}
	}
	// A submodule: its .git names ../.git/modules/sub, a whole git
	// directory with its own info/exclude.
	sub := filepath.Join(base, "lib")
	if err := makefs.Make(sub, "lib.go << package lib"); err != nil {
		t.Fatal(err)
	}
	gitInit(t, sub)
	git(sub, "add", ".")
	git(sub, "commit", "-q", "-m", "i")
	git(main, "submodule", "add", "-q", sub, "vendor/lib")
	modules := filepath.Join(main, ".git", "modules", "vendor", "lib", "info")
	if err := os.MkdirAll(modules, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(modules, "exclude"), []byte("subex*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(main, "vendor", "lib")
	if err := makefs.Make(ws, "subexA", "plain"); err != nil {
		t.Fatal(err)
	}
	if git := gitListed(t, ws); !slices.Equal(git, []string{"plain"}) {
		t.Fatalf("submodule: git lists %q", git)
	}
	if got := scannedFiles(t, ws); !slices.Equal(got, []string{"lib.go", "plain"}) {
		t.Errorf("submodule: project.files lists %q, want lib.go and plain", got)
	}
}

// TestNestedRepositories: inside a repository nested in the workspace (a
// clone in a folder of another, a folder of clones) the enclosing
// repositories' git rules (.gitignore, info/exclude) stop and the nested
// one's own info/exclude applies, as git sees it from inside and as fd
// lists it; a .ignore rule goes on inside.
func TestNestedRepositories(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, ".gitignore << *.log\n", ".ignore << *.tmp\n", "b.log", "d.tmp", "top.go",
		"inner/secretish.txt", "inner/a.log", "inner/ok", "inner/c.tmp", "inner/sub/e.log")
	gitInit(t, dir)
	gitInit(t, filepath.Join(dir, "inner"))
	if err := os.WriteFile(filepath.Join(dir, "inner", ".git", "info", "exclude"), []byte("secretish*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The oracle inside: git in inner, .ignore aside (git does not read it).
	if git := gitListed(t, filepath.Join(dir, "inner")); !slices.Equal(git, []string{"a.log", "c.tmp", "ok", "sub/e.log"}) {
		t.Fatalf("git in inner lists %q", git)
	}
	want := []string{".gitignore", ".ignore", "inner/a.log", "inner/ok", "inner/sub/e.log", "top.go"}
	if got := scannedFiles(t, dir); !slices.Equal(got, want) {
		t.Errorf("project.files lists %q, want %q", got, want)
	}
}

// TestWorkspaceInsideAnIgnoredDirectory (docs/protocol.md §10.6.1): git lists nothing in an
// ignored directory, but a workspace there is not hidden as a whole: each
// entry is decided by its own path.
func TestWorkspaceInsideAnIgnoredDirectory(t *testing.T) {
	t.Parallel()
	top := makefs.MustMake(t, ".gitignore << build/\n*.log\n", "build/out/main.go", "build/out/a.log", "build/out/sub/b.go")
	gitInit(t, top)
	ws := filepath.Join(top, "build", "out")
	if git := gitListed(t, ws); len(git) != 0 {
		t.Fatalf("the oracle: git lists %q in an ignored directory", git)
	}
	if got, want := scannedFiles(t, ws), []string{"main.go", "sub/b.go"}; !slices.Equal(got, want) {
		t.Errorf("project.files lists %q, want %q", got, want)
	}
}

// TestIgnoreFileBound (docs/protocol.md §10.6.1): an ignore file over 1 MiB contributes its
// first MiB up to the last complete line; one of exactly 1 MiB is read in
// full, its last line complete without a newline, as git reads it.
func TestIgnoreFileBound(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	// filler is n bytes of comment lines.
	filler := func(n int) string {
		var b strings.Builder
		for ; n > 100; n -= 100 {
			b.WriteString("#" + strings.Repeat("x", 98) + "\n")
		}
		b.WriteString("#" + strings.Repeat("x", n-2) + "\n")
		return b.String()
	}
	for _, c := range []struct {
		name, gitignore string
		want            []string
	}{
		// b.txt ends at byte 1 MiB exactly, without a newline.
		{"exactly 1 MiB", "a.txt\n" + filler(mib-6-5) + "b.txt", []string{".gitignore", "c.txt"}},
		// b.txt's line ends at byte 1 MiB; c.txt lies beyond.
		{"line ends at the bound", "a.txt\n" + filler(mib-6-6) + "b.txt\nc.txt\n", []string{".gitignore", "c.txt"}},
		// b.txt's line crosses the bound: it is not read as "b.t".
		{"line crosses the bound", "a.txt\n" + filler(mib-6-3) + "b.txt\nc.txt\n", []string{".gitignore", "b.txt", "c.txt"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := makefs.MustMake(t, "a.txt", "b.txt", "c.txt", "b.t")
			if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(c.gitignore), 0o644); err != nil {
				t.Fatal(err)
			}
			want := append([]string{"b.t"}, c.want...)
			slices.Sort(want)
			if got := scannedFiles(t, dir); !slices.Equal(got, want) {
				t.Errorf("project.files lists %q, want %q", got, want)
			}
		})
	}
}

func gitInit(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
}

// gitListed is what git lists in dir as untracked and not ignored, sorted.
func gitListed(t *testing.T, dir string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "--others", "--exclude-standard", "-z")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	files := strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 })
	slices.Sort(files)
	return files
}

// scannedFiles are the files of a project.files snapshot of dir, sorted.
func scannedFiles(t *testing.T, dir string) []string {
	t.Helper()
	return filesOf(scanFiles(t, startIn(t, dir, scouttest.Options{}), dir).Entries)
}

// TestUnreadableWorkspaceRoot (docs/protocol.md §10.6.2): a workspace root that cannot be
// opened makes nothing visible: entries [], truncated false, and the reason
// on stderr without a path.
func TestUnreadableWorkspaceRoot(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a.go", "src/b.go")
	asuser.Share(dir)
	if err := os.Chmod(dir, 0o111); err != nil { // traversable, not readable
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	home := filepath.Join(t.TempDir(), "home")
	asuser.Share(filepath.Dir(home))
	p := startIn(t, dir, scouttest.Options{Unprivileged: true, Env: []string{"SCOUT_HOME=" + home}})
	r := scanFiles(t, p, dir)
	if len(r.Entries) != 0 || r.Truncated || string(r.raw) == "" {
		t.Fatalf("entries %q truncated %v", r.paths(), r.Truncated)
	}
	if !strings.Contains(string(r.raw), `"entries":[]`) {
		t.Errorf("entries is not []: %s", r.raw)
	}
	if stderr := p.AwaitStderr("scout backend:"); !strings.Contains(stderr, "scout backend:") || strings.Contains(stderr, dir) {
		t.Errorf("stderr: %q", stderr)
	}
}

func TestUnreadableDirectoryDoesNotTruncate(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "locked/ mode 0000", "locked/x", "open/y")
	asuser.Share(dir)
	home := filepath.Join(t.TempDir(), "home")
	asuser.Share(filepath.Dir(home))
	p := startIn(t, dir, scouttest.Options{Unprivileged: true, Env: []string{"SCOUT_HOME=" + home}})
	r := scanFiles(t, p, dir)
	if !slices.Equal(r.paths(), []string{"locked", "open", "open/y"}) || r.Truncated {
		t.Errorf("entries %q truncated %v", r.paths(), r.Truncated)
	}
}

func TestExamineBound(t *testing.T) {
	t.Parallel()
	fx := []string{"a/x", "c/y", "c/z/w"}
	for i := range 60000 {
		fx = append(fx, fmt.Sprintf("big/f%05d", i))
	}
	dir := bulkFixture(t, fx)
	p := startIn(t, dir, scouttest.Options{})
	r := scanFiles(t, p, dir)
	// The root (3 names) and a (1) fit; big (60,000) does not: it stays
	// listed without children, the budget is spent, c is not expanded.
	if !slices.Equal(r.paths(), []string{"a", "a/x", "big", "c"}) || !r.Truncated {
		t.Errorf("entries %q truncated %v", r.paths(), r.Truncated)
	}
}

func TestEntryBound(t *testing.T) {
	t.Parallel()
	var fx, names []string
	for i := range 10100 {
		name := fmt.Sprintf("f%05d", i)
		fx, names = append(fx, "d/"+name), append(names, "d/"+name)
	}
	fx = append(fx, "top.txt")
	dir := bulkFixture(t, fx)
	p := startIn(t, dir, scouttest.Options{})
	r := scanFiles(t, p, dir)
	want := append([]string{"d"}, names[:9998]...)
	want = append(want, "top.txt")
	if len(r.Entries) != 10000 || !r.Truncated || !slices.Equal(r.paths(), want) {
		t.Errorf("%d entries, truncated %v; first and last: %q %q", len(r.Entries), r.Truncated, r.paths()[:2], r.paths()[len(r.Entries)-2:])
	}
}

func TestByteBoundHitFirst(t *testing.T) {
	t.Parallel()
	var fx []string
	for i := range 4200 {
		fx = append(fx, fmt.Sprintf("%04d%s", i, strings.Repeat("n", 246)))
	}
	dir := bulkFixture(t, fx)
	p := startIn(t, dir, scouttest.Options{})
	r := scanFiles(t, p, dir)
	n := len(r.Entries)
	if !r.Truncated || n == 0 || n >= 4200 {
		t.Fatalf("%d entries, truncated %v", n, r.Truncated)
	}
	slices.Sort(fx)
	if !slices.Equal(r.paths(), fx[:n]) {
		t.Error("the byte bound did not drop from the end of the selection order")
	}
	next := len(fmt.Sprintf(`,{"path":%q,"kind":"file"}`, fx[n]))
	if len(r.raw)+1+next <= maxLine {
		t.Errorf("line is %d bytes and the next entry (%d bytes) would still fit", len(r.raw)+1, next)
	}
}

func awaitCode(t *testing.T, p *scouttest.Proc, id string, code wire.Code) []scouttest.Msg {
	t.Helper()
	m, before := p.Await(id)
	if m.Code() != code {
		t.Fatalf("%s answered %q (%s), want %q", id, m.Code(), m.Raw, code)
	}
	if code != "" && m.Result != nil {
		t.Fatalf("%s: error response carries a result: %s", id, m.Raw)
	}
	return before
}

func TestScanTimeoutBusyAndStatus(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a/b")
	p := startIn(t, dir, scouttest.Options{Debug: true, Env: []string{"SCOUT_DEBUG_SCAN_STALL_MS=6000"}})
	p.Request("s1", wire.MethodProjectFiles, map[string]any{})
	if m := p.Next(scouttest.DefaultTimeout); m.Method != wire.NotifyCommandStarted {
		t.Fatalf("first message %s", m.Raw)
	}
	var took []time.Duration
	for i := range 3 {
		id := fmt.Sprintf("st%d", i)
		sent := time.Now()
		p.Request(id, wire.MethodStatus, nil)
		m, _ := p.Await(id)
		took = append(took, m.At.Sub(sent))
		var st wire.StatusResult
		m.Decode(t, &st)
		if len(st.Active) != 1 || st.Active[0].RequestID != "s1" {
			t.Errorf("status active = %+v", st.Active)
		}
	}
	scouttest.CheckPrompt(t, "during a scan", took, 6*time.Second)
	p.Request("s2", wire.MethodProjectFiles, map[string]any{})
	awaitCode(t, p, "s2", wire.CodeBusy)
	awaitCode(t, p, "s1", wire.CodeScanTimeout)
	// The stuck worker still holds the scan slot.
	p.Request("s3", wire.MethodProjectFiles, map[string]any{})
	awaitCode(t, p, "s3", wire.CodeBusy)
	r := retryUntilFree(t, p)
	if !slices.Equal(r.paths(), []string{"a", "a/b"}) {
		t.Errorf("after the stall: %q", r.paths())
	}
}

// retryUntilFree repeats project.files while it answers busy.
func retryUntilFree(t *testing.T, p *scouttest.Proc) report {
	t.Helper()
	m := callUntilFree(t, p)
	if m.Error != nil {
		t.Fatalf("project.files: %s", m.Raw)
	}
	var r report
	m.Decode(t, &r.ProjectFilesResult)
	return r
}

// callUntilFree calls project.files until it answers something other
// than busy, and returns that answer.
func callUntilFree(t *testing.T, p *scouttest.Proc) scouttest.Msg {
	t.Helper()
	deadline := time.Now().Add(scouttest.DefaultTimeout)
	for time.Now().Before(deadline) {
		m := p.Call(wire.MethodProjectFiles, map[string]any{})
		if m.Code() != wire.CodeBusy {
			return m
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the scan slot was never released")
	return scouttest.Msg{}
}

func TestScanCancel(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a/b")
	p := startIn(t, dir, scouttest.Options{Debug: true, Env: []string{"SCOUT_DEBUG_SCAN_STALL_MS=1500"}})
	p.Request("s1", wire.MethodProjectFiles, map[string]any{})
	p.Request("c1", wire.MethodCancel, map[string]any{"request_id": "s1"})
	m, _ := p.Await("c1")
	if m.Error != nil {
		t.Fatalf("cancel: %s", m.Raw)
	}
	awaitCode(t, p, "s1", wire.CodeOperationCancelled)
	p.Request("s2", wire.MethodProjectFiles, map[string]any{})
	awaitCode(t, p, "s2", wire.CodeBusy)
	retryUntilFree(t, p)
}

const trustConfig = "[files]\ndeny = [\"private/**\"]\n[[providers]]\nid = \"local\"\ntype = \"ollama\"\ncredential_file = \"keys/local-token.json\"\n"

func trustFixture(config string) []string {
	return []string{".scout/config.toml << " + config, "private/notes.txt", "keys/local-token.json", "keys/other.txt", "main.go"}
}

func TestWorkspaceTrust(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, trustFixture(trustConfig)...)
	home := "SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")
	p := scouttest.Start(t, scouttest.Options{Dir: dir, Env: []string{home}})
	init := p.Initialize(wire.MethodProjectFiles, wire.MethodWorkspaceTrust)
	if init.Workspace != (wire.Workspace{Generation: 1, Trust: wire.TrustUntrusted}) {
		t.Fatalf("initialize workspace = %+v", init.Workspace)
	}
	before := scanFiles(t, p, dir)
	if !before.has("private/notes.txt") || !before.has("keys/local-token.json") {
		t.Fatalf("untrusted snapshot: %q", before.paths())
	}
	p.Request("t1", wire.MethodWorkspaceTrust, map[string]any{})
	m, msgs := p.Await("t1")
	if m.Error != nil {
		t.Fatalf("workspace.trust: %s", m.Raw)
	}
	if inv := invalidations(t, msgs); !slices.Equal(inv, []int64{2}) {
		t.Fatalf("invalidations before the result: %v (%d messages)", inv, len(msgs))
	}
	var tr wire.TrustResult
	m.Decode(t, &tr)
	if tr.Generation != 2 || tr.Trust != wire.TrustTrusted || tr.ConfigurationReload != wire.ConfigurationReloadRestart {
		t.Fatalf("trust result %+v", tr)
	}
	after := scanFiles(t, p, dir)
	if after.Generation != 2 || after.has("private/notes.txt") || after.has("keys/local-token.json") || !after.has("keys/other.txt") {
		t.Fatalf("trusted snapshot (generation %d): %q", after.Generation, after.paths())
	}

	// A new child applies the remembered trust before initialize answers.
	p2 := scouttest.Start(t, scouttest.Options{Dir: dir, Env: []string{home}})
	init = p2.Initialize(wire.MethodProjectFiles)
	if init.Workspace != (wire.Workspace{Generation: 1, Trust: wire.TrustTrusted}) {
		t.Fatalf("restarted workspace = %+v", init.Workspace)
	}
	if r := scanFiles(t, p2, dir); !slices.Equal(r.paths(), after.paths()) {
		t.Fatalf("restarted snapshot: %q", r.paths())
	}

	// A changed file is untrusted again.
	if err := os.WriteFile(filepath.Join(dir, ".scout/config.toml"), []byte(trustConfig+"# changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p3 := scouttest.Start(t, scouttest.Options{Dir: dir, Env: []string{home}})
	init = p3.Initialize(wire.MethodProjectFiles)
	if init.Workspace.Trust != wire.TrustUntrusted {
		t.Fatalf("changed file: workspace = %+v", init.Workspace)
	}
	if r := scanFiles(t, p3, dir); !r.has("private/notes.txt") {
		t.Fatalf("changed file applied anyway: %q", r.paths())
	}
}

// TestTrustedFileThatNoLongerValidates (docs/protocol.md §10.6.3): at start, a trusted
// .scout/config.toml whose SHA-256 matches but which no longer validates
// (its provider id now collides with config.toml's) is not applied, yet its
// deny globs and credential files are protected.
func TestTrustedFileThatNoLongerValidates(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, trustFixture(trustConfig)...)
	home := filepath.Join(t.TempDir(), "home")
	p := startIn(t, dir, scouttest.Options{Env: []string{"SCOUT_HOME=" + home}})
	p.MustCall(wire.MethodWorkspaceTrust, map[string]any{}, nil)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[[providers]]\nid = \"local\"\ntype = \"ollama\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p2 := scouttest.Start(t, scouttest.Options{Dir: dir, Env: []string{"SCOUT_HOME=" + home}})
	if init := p2.Initialize(wire.MethodProjectFiles); init.Workspace != (wire.Workspace{Generation: 1, Trust: wire.TrustUntrusted}) {
		t.Fatalf("workspace = %+v", init.Workspace)
	}
	r := scanFiles(t, p2, dir)
	if r.has("private/notes.txt") || r.has("keys/local-token.json") || !r.has("keys/other.txt") {
		t.Errorf("snapshot: %q", r.paths())
	}
	if stderr := p2.AwaitStderr("not applied"); !strings.Contains(stderr, "not applied") {
		t.Errorf("stderr: %q", stderr)
	}
}

// TestTrustWithoutProviders (docs/protocol.md §10.6.3): configuration_reload is present only
// when the adopted file declares a provider.
func TestTrustWithoutProviders(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, trustFixture("[files]\ndeny = [\"private/**\"]\n")...)
	p := startIn(t, dir, scouttest.Options{})
	var tr wire.TrustResult
	m := p.MustCall(wire.MethodWorkspaceTrust, map[string]any{}, &tr)
	if tr.Generation != 2 || tr.Trust != wire.TrustTrusted || strings.Contains(string(m.Raw), "configuration_reload") {
		t.Fatalf("trust = %s", m.Raw)
	}
}

// TestTrustedJSON (docs/protocol.md §10.6.3): trusted.json is mode 0600 and holds the
// symlink-resolved root, newest last, at most 4,096 (oldest dropped); a
// broken one makes the workspace untrusted and is rewritten by the next trust.
func TestTrustedJSON(t *testing.T) {
	t.Parallel()
	real := makefs.MustMake(t, trustFixture("[files]\ndeny = [\"private/**\"]\n")...)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(t.TempDir(), "home")
	type store struct {
		Format     string `json:"format"`
		Workspaces []struct {
			Root   string `json:"root"`
			SHA256 string `json:"sha256"`
		} `json:"workspaces"`
	}
	// A full store of other workspaces, then a broken one.
	var full strings.Builder
	full.WriteString(`{"format":"scout.trusted.v1","workspaces":[`)
	for i := range 4096 {
		if i > 0 {
			full.WriteString(",")
		}
		fmt.Fprintf(&full, `{"root":"/w%d","sha256":"%064d"}`, i, i)
	}
	full.WriteString("]}")
	for _, seed := range []string{full.String(), "{broken"} {
		if err := os.MkdirAll(home, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, "trusted.json"), []byte(seed), 0o600); err != nil {
			t.Fatal(err)
		}
		p := startIn(t, link, scouttest.Options{Env: []string{"SCOUT_HOME=" + home}})
		p.MustCall(wire.MethodWorkspaceTrust, map[string]any{}, nil)
		info, err := os.Stat(filepath.Join(home, "trusted.json"))
		if err != nil || info.Mode().Perm() != 0o600 {
			t.Fatalf("trusted.json: %v %v", info.Mode(), err)
		}
		data, _ := os.ReadFile(filepath.Join(home, "trusted.json"))
		var st store
		if err := json.Unmarshal(data, &st); err != nil || st.Format != "scout.trusted.v1" {
			t.Fatalf("trusted.json %q: %v", data, err)
		}
		n := len(st.Workspaces)
		if last := st.Workspaces[n-1]; last.Root != real || len(last.SHA256) != 64 {
			t.Errorf("newest entry %+v, want root %s", last, real)
		}
		switch seed {
		case "{broken":
			if n != 1 {
				t.Errorf("rewritten store holds %d entries", n)
			}
		default:
			if n != 4096 || st.Workspaces[0].Root != "/w1" {
				t.Errorf("full store: %d entries, first %q", n, st.Workspaces[0].Root)
			}
		}
	}
}

// TestTrustUnsafeLocalConfig (docs/protocol.md §10.6.3): any entry at .scout/config.toml
// makes the workspace untrusted, and trusting a symlink, a directory, a
// special file or a file over 1 MiB fails; a file of exactly 1 MiB is
// trusted.
func TestTrustUnsafeLocalConfig(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	sized := func(n int) string {
		head := "[files]\ndeny = [\"main.go\"]\n"
		return ".scout/config.toml << " + head + "#" + strings.Repeat("x", n-len(head)-2) + "\n"
	}
	for name, entry := range map[string]string{
		"symlink":       ".scout/config.toml => ../main.go",
		"directory":     ".scout/config.toml/",
		"fifo":          ".scout/config.toml|",
		"over 1 MiB":    sized(mib + 1),
		"exactly 1 MiB": sized(mib),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := makefs.MustMake(t, entry, "main.go")
			p := scouttest.Start(t, scouttest.Options{Dir: dir, Env: []string{"SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")}})
			if init := p.Initialize(wire.MethodWorkspaceTrust); init.Workspace.Trust != wire.TrustUntrusted {
				t.Fatalf("workspace = %+v", init.Workspace)
			}
			m := p.Call(wire.MethodWorkspaceTrust, map[string]any{})
			if ok := name == "exactly 1 MiB"; ok != (m.Error == nil) || (!ok && m.Code() != wire.CodeTrustFailed) {
				t.Fatalf("trust: %s", m.Raw)
			}
		})
	}
}

func invalidations(t *testing.T, msgs []scouttest.Msg) []int64 {
	var out []int64
	for _, m := range msgs {
		if m.Method == wire.NotifyProjectInvalidated {
			var ip wire.InvalidatedParams
			m.Decode(t, &ip)
			out = append(out, ip.Generation)
		}
	}
	return out
}

func TestWorkspaceTrustFailureKeepsReservations(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, trustFixture(strings.Replace(trustConfig, "[[providers]]", "bogus = 1\n[[providers]]", 1))...)
	p := startIn(t, dir, scouttest.Options{})
	p.Request("t1", wire.MethodWorkspaceTrust, map[string]any{})
	m, msgs := p.Await("t1")
	if m.Code() != wire.CodeTrustFailed || !slices.Equal(invalidations(t, msgs), []int64{2}) {
		t.Fatalf("trust: %s after %d messages", m.Raw, len(msgs))
	}
	var st wire.StatusResult
	p.MustCall(wire.MethodStatus, nil, &st)
	if st.Generation != 2 {
		t.Fatalf("generation after failed trust: %d", st.Generation)
	}
	r := scanFiles(t, p, dir)
	if r.Generation != 2 || r.has("private/notes.txt") || r.has("keys/local-token.json") || !r.has("keys/other.txt") {
		t.Fatalf("snapshot after failed trust: %q", r.paths())
	}
}

// TestTrustProviderIDCollision (docs/protocol.md §10.6.3): a project provider may not reuse
// an id of config.toml; trust fails naming the key path, and the credential
// file stays reserved.
func TestTrustProviderIDCollision(t *testing.T) {
	t.Parallel()
	project := "[[providers]]\nid = \"mine\"\ntype = \"ollama\"\n" +
		"[[providers]]\nid = \"local\"\ntype = \"ollama\"\ncredential_file = \"keys/local-token.json\"\n"
	dir := makefs.MustMake(t, trustFixture(project)...)
	home := filepath.Join(t.TempDir(), "home")
	if err := makefs.Make(filepath.Dir(home), "home/config.toml << [[providers]]\nid = \"local\"\ntype = \"ollama\"\n"); err != nil {
		t.Fatal(err)
	}
	p := startIn(t, dir, scouttest.Options{Env: []string{"SCOUT_HOME=" + home}})
	if m := p.Call(wire.MethodWorkspaceTrust, map[string]any{}); m.Code() != wire.CodeTrustFailed {
		t.Fatalf("trust: %s", m.Raw)
	}
	if want := ".scout/config.toml: providers[2].id: "; !strings.Contains(p.AwaitStderr(want), want) {
		t.Errorf("stderr %q does not name %q", p.Stderr(), want)
	}
	if r := scanFiles(t, p, dir); r.has("keys/local-token.json") || !r.has("keys/other.txt") {
		t.Errorf("after the failed trust: %q", r.paths())
	}
}

func TestTrustCancelsRunningScan(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, trustFixture(trustConfig)...)
	p := startIn(t, dir, scouttest.Options{Debug: true, Env: []string{"SCOUT_DEBUG_SCAN_STALL_MS=1000"}})
	p.Request("s1", wire.MethodProjectFiles, map[string]any{})
	p.Next(scouttest.DefaultTimeout) // rpc.command.started
	trustCancels(t, p, "s1")
	r := retryUntilFree(t, p)
	if r.Generation != 2 || r.has("keys/local-token.json") {
		t.Fatalf("after trust: generation %d %q", r.Generation, r.paths())
	}
}

// trustCancels runs workspace.trust while request id is in flight and
// checks that, before the trust result, the notification came and then
// id's operation_cancelled.
func trustCancels(t *testing.T, p *scouttest.Proc, id string) {
	t.Helper()
	p.Request("t1", wire.MethodWorkspaceTrust, map[string]any{})
	m, msgs := p.Await("t1")
	if m.Error != nil {
		t.Fatalf("trust: %s", m.Raw)
	}
	var order []string
	for _, x := range msgs {
		switch {
		case x.Method == wire.NotifyProjectInvalidated:
			order = append(order, "invalidated")
		case x.IsResponse() && *x.ID == id:
			order = append(order, string(x.Code()))
		}
	}
	if !slices.Equal(order, []string{"invalidated", string(wire.CodeOperationCancelled)}) {
		t.Fatalf("before the trust result: %v", order)
	}
}

func TestNoLocalConfig(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a")
	p := startIn(t, dir, scouttest.Options{})
	var tr wire.TrustResult
	p.Request("t1", wire.MethodWorkspaceTrust, map[string]any{})
	m, msgs := p.Await("t1")
	m.Decode(t, &tr)
	if tr.Generation != 1 || tr.Trust != wire.TrustNoLocalConfig || tr.ConfigurationReload != "" {
		t.Fatalf("trust = %s", m.Raw)
	}
	if inv := invalidations(t, msgs); len(inv) != 0 {
		t.Fatalf("no_local_config wrote invalidations %v", inv)
	}
	if c := p.Call(wire.MethodProjectFiles, map[string]any{"x": 1}); c.Code() != wire.CodeInvalidParams {
		t.Fatalf("project.files with a member: %s", c.Raw)
	}
}

func TestBrokenUserConfigHidesEverything(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a.go")
	home := filepath.Join(t.TempDir(), "home")
	if err := makefs.Make(filepath.Dir(home), "home/config.toml << [files]\nrespect = true\n"); err != nil {
		t.Fatal(err)
	}
	p := startIn(t, dir, scouttest.Options{Env: []string{"SCOUT_HOME=" + home}})
	r := scanFiles(t, p, dir)
	if len(r.Entries) != 0 {
		t.Fatalf("broken config.toml: %q", r.paths())
	}
	if stderr := p.AwaitStderr("config.toml: files.respect: unknown key"); !strings.Contains(stderr, "config.toml: files.respect: unknown key") || strings.Contains(stderr, home) {
		t.Fatalf("stderr: %q", p.Stderr())
	}
}

// TestWorkspaceInsideTheBackendHome (§4.3, docs/protocol.md §10.6.1): the
// backend home is protected, so a workspace inside it (a shell in
// SCOUT_HOME/sessions) shows nothing, as one equal to it does: every entry
// would be part of the home, histories (§6: no message text leaves the
// backend) and caches included. Through every method, and through a
// symlinked spelling of the home.
func TestWorkspaceInsideTheBackendHome(t *testing.T) {
	t.Parallel()
	base := makefs.MustMake(t, "home/config.toml << \n", "home/sessions/s1.jsonl << {\"v\":1,\"type\":\"user\",\"text\":\"secret talk\"}\n",
		"home/sessions/sub/x.txt", "home/catalog/openai.json << {}\n", "alias => home")
	for _, c := range []struct{ home, ws string }{
		{"home", "home/sessions"},
		{"home", "home/sessions/sub"},
		{"alias", "home/sessions"},
		{"home", "alias/catalog"},
	} {
		home, ws := filepath.Join(base, c.home), filepath.Join(base, c.ws)
		p := scouttest.Start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}})
		p.Initialize(wire.MethodProjectFiles, wire.MethodProjectIndex, wire.MethodProjectList, wire.MethodProjectRead)
		if r := scanFiles(t, p, ws); len(r.Entries) != 0 || r.Truncated {
			t.Errorf("%s in SCOUT_HOME=%s: project.files lists %q", c.ws, c.home, r.paths())
		}
		var pg wire.ListResult
		p.MustCall(wire.MethodProjectList, map[string]any{"ref": "root"}, &pg)
		if len(pg.Entries) != 0 || pg.NextRef != "" {
			t.Errorf("%s in SCOUT_HOME=%s: project.list lists %+v", c.ws, c.home, pg.Entries)
		}
		var ix wire.ProjectIndexResult
		p.MustCall(wire.MethodProjectIndex, map[string]any{}, &ix)
		if len(ix.Entries) != 0 || !ix.Complete {
			t.Errorf("%s in SCOUT_HOME=%s: project.index lists %+v", c.ws, c.home, ix.Entries)
		}
		if why := unservedReason(p.AwaitStderr(wire.UnservedNote)); !strings.Contains(why, "backend home") || strings.Contains(p.Stderr(), base) {
			t.Errorf("%s in SCOUT_HOME=%s: stderr %q", c.ws, c.home, p.Stderr())
		}
	}
}

// TestAgentCredentialFilesAreProtected (§4.3 "every provider credential
// file the backend knows of", docs/protocol.md §10.6.1): the backend knows
// the stores of the agents whose sessions it reads (§6), and the provider
// credentials they keep there are protected wherever the stores are: a
// workspace at ~ (the picker started in the home directory) lists the
// stores without them.
func TestAgentCredentialFilesAreProtected(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t,
		".codex/auth.json << {}\n", ".codex/config.toml",
		".claude/.credentials.json << {}\n", ".claude/settings.json",
		"cc/.credentials.json << {}\n", "cc/settings.json",
		".gemini/oauth_creds.json << {}\n", ".gemini/settings.json",
		"data/opencode/auth.json << {}\n", "data/opencode/x.json",
		".local/share/opencode/auth.json << {}\n")
	p := startIn(t, dir, scouttest.Options{Env: []string{"HOME=" + dir, "CLAUDE_CONFIG_DIR=" + filepath.Join(dir, "cc"),
		"XDG_DATA_HOME=" + filepath.Join(dir, "data"), "CODEX_HOME=", "GEMINI_CLI_HOME=", "OPENCODE_DB="}})
	r := scanFiles(t, p, dir)
	for _, hidden := range []string{".codex/auth.json", "cc/.credentials.json", ".gemini/oauth_creds.json", "data/opencode/auth.json"} {
		if r.has(hidden) {
			t.Errorf("%s is listed", hidden)
		}
	}
	// Visible: the stores' other files, and what is not where the agent
	// looks (CLAUDE_CONFIG_DIR and XDG_DATA_HOME moved them).
	for _, shown := range []string{".codex/config.toml", "cc/settings.json", ".gemini/settings.json", "data/opencode/x.json",
		".claude/.credentials.json", ".local/share/opencode/auth.json"} {
		if !r.has(shown) {
			t.Errorf("%s is not listed: %q", shown, r.paths())
		}
	}
}

// TestWorkspaceInsideAProtectedDirectory (§4.3, applied to every path
// component; docs/protocol.md §10.6.1): a workspace whose own path passes
// through a protected name (a shell in ~/.aws, ~/.ssh or a .kube folder)
// shows nothing, since every entry lies inside it; through a symlinked
// spelling too. Noise and ignore rules above the root do not hide it.
func TestWorkspaceInsideAProtectedDirectory(t *testing.T) {
	t.Parallel()
	base := makefs.MustMake(t, ".aws/credentials", ".ssh/keys/config", "p/.KUBE/x/cfg", "alias => .aws",
		"node_modules/pkg/index.js", "ok/.git/x/y")
	for _, c := range []struct {
		ws   string
		want []string
	}{
		{".aws", nil},
		{".ssh/keys", nil},
		{"p/.KUBE/x", nil},
		{"alias", nil},
		{"node_modules/pkg", []string{"index.js"}},
		{"ok/.git/x", []string{"y"}},
	} {
		dir := filepath.Join(base, c.ws)
		p := scouttest.Start(t, scouttest.Options{Dir: dir, Env: []string{"SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")}})
		p.Initialize(wire.MethodProjectFiles, wire.MethodProjectList, wire.MethodProjectIndex)
		if r := scanFiles(t, p, dir); !slices.Equal(r.paths(), c.want) {
			t.Errorf("workspace %s: project.files lists %q, want %q", c.ws, r.paths(), c.want)
		}
		var pg wire.ListResult
		p.MustCall(wire.MethodProjectList, map[string]any{"ref": "root"}, &pg)
		if len(pg.Entries) != len(c.want) {
			t.Errorf("workspace %s: project.list lists %+v", c.ws, pg.Entries)
		}
		// Said on stderr (the picker shows why nothing is listed), with
		// no path; and only then.
		if c.want == nil {
			if why := unservedReason(p.AwaitStderr(wire.UnservedNote)); !strings.Contains(why, "protected") || strings.Contains(p.Stderr(), base) {
				t.Errorf("workspace %s: stderr %q", c.ws, p.Stderr())
			}
		} else if strings.Contains(p.Stderr(), wire.UnservedNote) {
			t.Errorf("workspace %s: stderr %q", c.ws, p.Stderr())
		}
	}
}

// TestBrokenUserConfigNamesTheKey (docs/protocol.md §10.6.4): a model id with a control
// character, C1 included, breaks config.toml like any other error: nothing
// is visible and stderr names the key path, never the value.
func TestBrokenUserConfigNamesTheKey(t *testing.T) {
	t.Parallel()
	for name, model := range map[string]string{"C0": `a\u0001b`, "DEL": `a\u007fb`, "C1": `a\u0085b`} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := makefs.MustMake(t, "a.go")
			home := filepath.Join(t.TempDir(), "home")
			config := "home/config.toml << [[providers]]\nid = \"p\"\ntype = \"ollama\"\nenabled_models = [\"" + model + "\"]\n"
			if err := makefs.Make(filepath.Dir(home), config); err != nil {
				t.Fatal(err)
			}
			p := startIn(t, dir, scouttest.Options{Env: []string{"SCOUT_HOME=" + home}})
			if r := scanFiles(t, p, dir); len(r.Entries) != 0 {
				t.Errorf("broken config.toml: %q", r.paths())
			}
			if want := "config.toml: providers[1].enabled_models: "; !strings.Contains(p.AwaitStderr(want), want) {
				t.Errorf("stderr: %q", p.Stderr())
			}
		})
	}
}

// bulkFixture makes the plain files fx (paths, no makefs syntax) in a
// scratch directory (a RAM file system when there is one), by
// makefs.Bulk: the same empty files and folders makefs.MustMake makes,
// for fixtures of thousands, without a write and a directory check a
// file (and the removal from a disk afterwards).
// TestExpansionOrderIsComponentOrder (docs/protocol.md §10.6.2): within a
// depth, directories are expanded in the component order of the output
// (a/c before a-b/c, although "a-b/c" < "a/c" byte by byte), so the entry
// bound cuts inside a-b/c.
func TestExpansionOrderIsComponentOrder(t *testing.T) {
	t.Parallel()
	var fx []string
	for _, d := range []string{"a/c", "a-b/c"} {
		for i := range 6000 {
			fx = append(fx, fmt.Sprintf("%s/f%04d", d, i))
		}
	}
	dir := bulkFixture(t, fx)
	p := startIn(t, dir, scouttest.Options{})
	r := scanFiles(t, p, dir)
	n := map[string]int{}
	for _, path := range r.paths() {
		if strings.Count(path, "/") == 2 {
			n[path[:strings.LastIndexByte(path, '/')]]++
		}
	}
	if !r.Truncated || n["a/c"] != 6000 || n["a-b/c"] != 10000-4-6000 {
		t.Errorf("truncated %v, files selected per directory %v", r.Truncated, n)
	}
}

func bulkFixture(t *testing.T, fx []string) string {
	t.Helper()
	dir := makefs.ScratchDir(t)
	if err := makefs.Bulk(dir, fx); err != nil {
		t.Fatal(err)
	}
	return dir
}

// unservedReason is the reason of the backend's "serving an empty
// workspace" diagnostic on stderr, "" without one (as the picker reads
// it: tui/bridge.Unserved).
func unservedReason(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if text, ok := strings.CutPrefix(line, wire.DiagnosticPrefix); ok {
			if why, ok := strings.CutSuffix(text, wire.UnservedNote); ok {
				return why
			}
		}
	}
	return ""
}

// TestTrustCancelledBeforeItBegins: a workspace.trust cancelled before
// its transition began (the cancel in the same write) is answered
// operation_cancelled and changes nothing after that answer: no
// project_files.invalidated follows it, the generation is what the
// messages before the answer said, and the deny glob is not applied
// unless the transition had begun first.
func TestTrustCancelledBeforeItBegins(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, trustFixture(trustConfig)...)
	p := scouttest.Start(t, scouttest.Options{Dir: dir, Env: []string{"SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")}})
	p.Initialize(wire.MethodProjectFiles, wire.MethodWorkspaceTrust, wire.MethodCancel, wire.MethodSessionNew)
	p.Send(`{"jsonrpc":"2.0","id":"t1","method":"workspace.trust"}` + "\n" + `{"jsonrpc":"2.0","id":"c1","method":"operation.cancel","params":{"request_id":"t1"}}`)
	m, before := p.Await("t1")
	if m.Code() != wire.CodeOperationCancelled {
		t.Fatalf("trust cancelled in the same write: %s", m.Raw)
	}
	began := len(invalidations(t, before)) > 0
	// session.new shares the selection slot, which the trust's worker
	// holds until it returns: once it is admitted, the worker is done.
	var after []scouttest.Msg
	deadline := time.Now().Add(scouttest.DefaultTimeout)
	for {
		id := p.NextID()
		p.Request(id, wire.MethodSessionNew, nil)
		r, msgs := p.Await(id)
		after = append(after, msgs...)
		if r.Code() != wire.CodeBusy {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the trust's worker never returned")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if inv := invalidations(t, after); len(inv) != 0 {
		t.Fatalf("project_files.invalidated %v after the cancelled trust's answer", inv)
	}
	r := retryUntilFree(t, p)
	switch {
	case began && r.Generation != 2:
		t.Fatalf("the transition began, yet the generation is %d", r.Generation)
	case !began && (r.Generation != 1 || !r.has("private/notes.txt")):
		t.Fatalf("cancelled before it began, yet generation %d %q", r.Generation, r.paths())
	}
}
