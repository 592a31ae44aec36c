package policy

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/internal/makefs"
)

// walk lists every visible file and directory under dir with pol, the way a
// scan does (hidden directories are not entered).
func walk(t *testing.T, pol *Policy, dir string) []string {
	t.Helper()
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	d, err := root.OpenDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var rec func(d *fsguard.Dir, f *Frame, prefix string)
	rec = func(d *fsguard.Dir, f *Frame, prefix string) {
		defer d.Close()
		es, err := d.ReadEntries(-1)
		if err != nil {
			return
		}
		for _, e := range es {
			if pol.Check(f, e.Name, e.Type) != Visible {
				continue
			}
			p := prefix + e.Name
			if !e.Type.IsDir() {
				out = append(out, p)
				continue
			}
			out = append(out, p+"/")
			child, err := d.OpenDir(e.Name)
			if err != nil {
				continue
			}
			rec(child, pol.Enter(f, e.Name, child, listingHas(child)), p+"/")
		}
	}
	rec(d, pol.RootFrame(d, ProbeIgnoreFiles), "")
	slices.Sort(out)
	return out
}

// listingHas probes a directory the way a scan learns it from its listing.
func listingHas(d *fsguard.Dir) IgnoreFiles {
	var has IgnoreFiles
	for _, n := range []string{GitignoreFile, IgnoreFile} {
		if info, err := d.Lstat(n); err == nil {
			has |= IgnoreFileKind(n, info.IsDir())
		}
	}
	return has
}

func newPolicy(t *testing.T, dir string, rules Rules, reserved ...Rules) *Policy {
	t.Helper()
	p, err := New(1, dir, rules, reserved...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gitFixture exercises git's ignore semantics: negations at several levels,
// directory-only patterns, anchors, "**", escapes, trailing spaces, and
// .git/info/exclude.
var gitFixture = []string{
	".gitignore << *.log\n!keep.log\n/build/\ntmp/\ndocs/**/*.draft\ncache/**\nsecret-*\n!secret-ok\n# comment\n\\#hash\ntrail   \na/b\n**/gen/*.go\n!**/gen/keep.go\nonlydir/\n",
	"app.log", "keep.log", "main.go", "#hash", "trail", "trail   x",
	"build/out.o", "sub/build/kept.o", "tmp/x", "sub/tmp/y", "tmp-file",
	"docs/a.draft", "docs/x/b.draft", "docs/x/y/c.draft", "docs/readme.md",
	"cache/one", "cache/deep/two", "secret-key", "secret-ok",
	"a/b", "a/c", "x/a/b", "pkg/gen/z.go", "pkg/gen/keep.go", "gen/w.go",
	"onlydir", "other/onlydir/f",
	"sub/.gitignore << !*.log\n*.txt\n!important.txt\nnested/\n/anchored\n",
	"sub/s.log", "sub/t.txt", "sub/important.txt", "sub/nested/n", "sub/anchored", "sub/deep/anchored",
	"sub/deep/.gitignore << !*.txt\nimportant.txt\n",
	"sub/deep/u.txt", "sub/deep/important.txt", "sub/deep/v.log",
	"ex/excluded-by-info", "ex/kept",
	"lits/.gitignore << Makefile\n*.o\ndoc?\n[ab].c\n!b.c\nvendor/\n*.d/\n",
	"lits/Makefile", "lits/x/Makefile", "lits/m.o", "lits/x/y/n.o", "lits/docs", "lits/doc1", "lits/a.c", "lits/b.c", "lits/c.c",
	"lits/vendor/v", "lits/x/vendor/w", "lits/vendor.go", "lits/dep.d/z", "lits/file.d",
	"lits/x/.gitignore << !Makefile\n!*.o\n",
	// A negation re-includes the entry it names, not what lies inside it;
	// a pattern with a slash matches the whole path, not a prefix of it;
	// "**/" may match no directory at all; "/**/" of a dir-only pattern
	// names directories only.
	"neg/.gitignore << *.log\n!important\n!keep.log/\n!p/q\nlogs/**\n!logs/**/\n!logs/**/*.txt\n**/tmp2/**\nx**y/z\n",
	"neg/important/x.log", "neg/important/sub/y.log", "neg/important/z.txt", "neg/keep.log/a.log", "neg/keep.log/b",
	"neg/p/q/r.log", "neg/p/q/s", "neg/logs/a.log", "neg/logs/d/b.txt", "neg/logs/d/c.log",
	"neg/tmp2/t", "neg/w/tmp2/u", "neg/xaby/z", "neg/xy/z", "neg/xy/w",
	// Bracket expressions as git's wildmatch reads them: "[!...]" negates
	// like "[^...]", and POSIX classes stand inside brackets.
	"cls/.gitignore << [!a]x.tmp\n[[:digit:]]*.bak\nfile[[:upper:]].txt\ndir[!0-9]/\nsp[[:space:][:punct:]]c\nsub/[[:alpha:]][[:alnum:]_]\n",
	"cls/ax.tmp", "cls/bx.tmp", "cls/1a.bak", "cls/a1.bak", "cls/fileA.txt", "cls/filea.txt",
	"cls/dirx/f", "cls/dir1/f", "cls/sp c", "cls/sp.c", "cls/spxc",
	"cls/sub/a_", "cls/sub/ab", "cls/sub/1a", "cls/sub/a-",
}

func TestIgnoreMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required for this test")
	}
	dir := makefs.MustMake(t, gitFixture...)
	git(t, dir, "init", "-q")
	if err := os.WriteFile(filepath.Join(dir, ".git/info/exclude"), []byte("excluded-by-info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantFiles := strings.Split(strings.TrimRight(git(t, dir, "ls-files", "--others", "--exclude-standard", "-z"), "\x00"), "\x00")
	var gotFiles []string
	for _, p := range walk(t, newPolicy(t, dir, Rules{RespectIgnore: true}), dir) {
		if !strings.HasSuffix(p, "/") {
			gotFiles = append(gotFiles, p)
		}
	}
	slices.Sort(wantFiles)
	t.Logf("git lists %d files: %q", len(wantFiles), wantFiles)
	if !slices.Equal(gotFiles, wantFiles) {
		t.Errorf("visible files differ from git ls-files --others --exclude-standard\n only ours: %q\n only git's: %q",
			minus(gotFiles, wantFiles), minus(wantFiles, gotFiles))
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "XDG_CONFIG_HOME="+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func TestCheck(t *testing.T) {
	dir := makefs.MustMake(t,
		".gitignore << ignored/\n*.tmp\n",
		".ignore << !kept.tmp\n",
		"home/", "creds/key.json", "creds/other.json",
	)
	pol := newPolicy(t, dir, Rules{
		RespectIgnore: true,
		Deny:          []string{"secrets/**", "*.sqlite", "/top-only"},
		Protected:     []string{filepath.Join(dir, "home"), filepath.Join(dir, "creds/key.json"), "/elsewhere/key"},
	})
	root, _ := fsguard.OpenRoot(dir)
	defer root.Close()
	d, _ := root.OpenDir(".")
	defer d.Close()
	f := pol.RootFrame(d, ProbeIgnoreFiles)
	creds := pol.Enter(f, "creds", d, 0)
	sub := pol.Enter(f, "sub", d, 0)
	reg, dirT := fs.FileMode(0), fs.ModeDir
	tests := []struct {
		f    *Frame
		name string
		typ  fs.FileMode
		want Verdict
	}{
		{f, "main.go", reg, Visible},
		{f, "link", fs.ModeSymlink, Unsafe},
		{f, "fifo", fs.ModeNamedPipe, Unsafe},
		{f, "sock", fs.ModeSocket, Unsafe},
		{f, "dev", fs.ModeDevice, Unsafe},
		{f, "bad\nname", reg, Unsafe},
		{f, "rlo\u202e", reg, Unsafe},
		{f, strings.Repeat("x", 256), reg, Unsafe},
		{f, ".env", reg, Protected},
		{f, ".ENV", reg, Protected},
		{f, ".env.local", reg, Protected},
		{f, ".env.production", reg, Protected},
		{f, ".env.example", reg, Visible},
		{f, ".env.sample", reg, Visible},
		{f, ".env.template", reg, Visible},
		{f, ".environment", reg, Visible},
		{f, ".netrc", reg, Protected},
		{f, ".npmrc", reg, Protected},
		{f, ".pypirc", reg, Protected},
		{f, ".git-credentials", reg, Protected},
		{f, "server.pem", reg, Protected},
		{f, "tls.key", reg, Protected},
		{f, "cert.p12", reg, Protected},
		{f, "cert.pfx", reg, Protected},
		{f, "app.keystore", reg, Protected},
		{f, "id_rsa", reg, Protected},
		{f, "id_rsa.pub", reg, Protected},
		{f, "id_dsa", reg, Protected},
		{f, "id_ecdsa_sk", reg, Protected},
		{f, "id_ed25519", reg, Protected},
		{f, ".ssh", dirT, Protected},
		{f, ".gnupg", dirT, Protected},
		{f, ".aws", dirT, Protected},
		{f, ".azure", dirT, Protected},
		{f, ".kube", dirT, Protected},
		{f, ".docker", dirT, Protected},
		{f, "keys.go", reg, Visible},
		{f, ".git", dirT, Noise},
		{f, ".git", reg, Noise},
		{f, ".hg", dirT, Noise},
		{f, ".svn", dirT, Noise},
		{f, ".jj", dirT, Noise},
		{f, "node_modules", dirT, Noise},
		{f, "home", dirT, Protected},
		{creds, "key.json", reg, Protected},
		{creds, "other.json", reg, Visible},
		{f, "key.json", reg, Visible},
		{f, "db.sqlite", reg, Protected},
		{sub, "db.sqlite", reg, Protected},
		{f, "top-only", reg, Protected},
		{sub, "top-only", reg, Visible},
		{f, "secrets", dirT, Visible}, // "secrets/**" hides what is inside
		{pol.Enter(f, "secrets", d, 0), "x", reg, Protected},
		{f, "ignored", dirT, Ignored},
		{f, "ignored", reg, Visible},
		{f, "a.tmp", reg, Ignored},
		{f, "kept.tmp", reg, Visible},
		{sub, "kept.tmp", reg, Visible},
	}
	for _, tt := range tests {
		if got := pol.Check(tt.f, tt.name, tt.typ); got != tt.want {
			t.Errorf("Check(%q in %q, %v) = %v, want %v", tt.name, tt.f.Path(), tt.typ, got, tt.want)
		}
	}
}

func TestRespectIgnoreOff(t *testing.T) {
	dir := makefs.MustMake(t, ".gitignore << *.log\n", "a.log", "node_modules/x", ".git/config", "b.go")
	got := walk(t, newPolicy(t, dir, Rules{RespectIgnore: false}), dir)
	want := []string{".gitignore", "a.log", "b.go"}
	if !slices.Equal(got, want) {
		t.Errorf("walk = %q, want %q", got, want)
	}
}

func TestReservedAndClosed(t *testing.T) {
	dir := makefs.MustMake(t, "a.go", "b.secret", "c/d")
	pol := newPolicy(t, dir, Rules{}, Rules{Deny: []string{"*.secret"}}, Rules{Protected: []string{filepath.Join(dir, "c")}})
	if got := walk(t, pol, dir); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("with reservations: %q", got)
	}
	home := newPolicy(t, dir, Rules{Protected: []string{dir}})
	if !home.IsClosed() || len(walk(t, home, dir)) != 0 {
		t.Error("a home equal to the workspace must hide everything")
	}
	sub := filepath.Join(dir, "c")
	if inside := newPolicy(t, sub, Rules{Protected: []string{dir}}); !inside.IsClosed() || len(walk(t, inside, sub)) != 0 {
		t.Error("a workspace inside the home must hide everything")
	}
	if sibling := newPolicy(t, sub, Rules{Protected: []string{filepath.Join(dir, "a.go"), dir + "x"}}); sibling.IsClosed() {
		t.Error("a protected path beside the workspace closed the policy")
	}
	if got := walk(t, Closed(3), dir); len(got) != 0 {
		t.Errorf("closed policy shows %q", got)
	}
	if _, err := New(1, dir, Rules{Deny: []string{"!x"}}); err == nil {
		t.Error("a negated deny glob was accepted")
	}
}

func TestProtectedThroughSymlinkedWorkspace(t *testing.T) {
	base := makefs.MustMake(t, "real/cred.json", "real/x.go", "alias => real")
	alias := filepath.Join(base, "alias")
	pol := newPolicy(t, alias, Rules{Protected: []string{filepath.Join(base, "real/cred.json")}})
	if got := walk(t, pol, alias); !slices.Equal(got, []string{"x.go"}) {
		t.Errorf("walk = %q", got)
	}
}

func TestResolve(t *testing.T) {
	dir := makefs.MustMake(t,
		".gitignore << *.log\n!sub/keep.log\n", "a.go", "x.log", "sub/keep.log", "sub/y.log",
		"sub/.gitignore << z.go\n", "sub/z.go", "sub/deeper/z.go", "link => sub", "sub/.env",
		".git/info/exclude << info-excluded\n", "info-excluded", "node_modules/m.js", "fifo|",
	)
	pol := newPolicy(t, dir, Rules{RespectIgnore: true})
	root, _ := fsguard.OpenRoot(dir)
	defer root.Close()
	visible := walk(t, pol, dir)
	for _, rel := range []string{".", "a.go", "x.log", "sub", "sub/keep.log", "sub/y.log", "sub/z.go", "sub/deeper/z.go",
		"link", "link/keep.log", "sub/.env", "info-excluded", "node_modules/m.js", "fifo", "missing", "sub/missing", ".git/info/exclude"} {
		r, err := pol.Resolve(root, rel)
		want := rel == "." || slices.Contains(visible, rel) || slices.Contains(visible, rel+"/")
		if (err == nil) != want {
			t.Errorf("Resolve(%q): err %v, want visible %v (walk: %q)", rel, err, want, visible)
		}
		if err == nil {
			r.Close()
		}
	}
}

func TestManagerTransition(t *testing.T) {
	dir := makefs.MustMake(t, "a.go", "b.secret", "c.key2")
	m := NewManager(dir, Rules{}, false)
	if m.Generation() != 1 || len(walk(t, m.Current(), dir)) != 3 {
		t.Fatal("initial policy")
	}
	gen := m.Begin()
	if gen != 2 || m.Generation() != 2 {
		t.Fatalf("Begin = %d", gen)
	}
	ctx, cancel := context.WithCancel(context.Background())
	waited := make(chan *Policy)
	go func() { p, _ := m.Wait(context.Background()); waited <- p }()
	cancel()
	if _, err := m.Wait(ctx); err == nil {
		t.Fatal("Wait during a transition ignored cancellation")
	}
	m.Reserve(Rules{Deny: []string{"*.secret"}})
	m.Settle(nil) // adoption failed: the reservation still holds
	p := <-waited
	if p.Generation() != 2 || !slices.Equal(walk(t, p, dir), []string{"a.go", "c.key2"}) {
		t.Fatalf("after failed adoption: gen %d, %q", p.Generation(), walk(t, p, dir))
	}
	m.Begin()
	m.Settle(&Rules{Deny: []string{"*.key2"}})
	p, _ = m.Wait(context.Background())
	if p.Generation() != 3 || !slices.Equal(walk(t, p, dir), []string{"a.go"}) {
		t.Fatalf("after adoption: gen %d, %q", p.Generation(), walk(t, p, dir))
	}
	if !NewManager(dir, Rules{}, true).Current().IsClosed() {
		t.Error("closed manager")
	}
}

// TestCheckIgnoreAgrees asks git check-ignore about every path of the
// fixture, directories included, and compares with Resolve: a path git
// ignores (itself or through an ignored parent directory) must be hidden,
// any other path visible.
func TestCheckIgnoreAgrees(t *testing.T) {
	dir := makefs.MustMake(t, gitFixture...)
	git(t, dir, "init", "-q")
	if err := os.WriteFile(filepath.Join(dir, ".git/info/exclude"), []byte("excluded-by-info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var all []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if rel, _ := filepath.Rel(dir, p); rel != "." {
			all = append(all, rel)
		}
		return nil
	})
	cmd := exec.Command("git", "check-ignore", "--stdin", "-z", "--non-matching", "-v")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(strings.Join(all, "\x00") + "\x00")
	out, _ := cmd.Output() // exit status 1 when nothing matches
	fields := strings.Split(string(out), "\x00")
	ignoredByGit := map[string]bool{}
	for i := 0; i+3 < len(fields); i += 4 { // source, line, pattern, path
		ignoredByGit[fields[i+3]] = fields[i] != "" && !strings.HasPrefix(fields[i+2], "!")
	}
	pol := newPolicy(t, dir, Rules{RespectIgnore: true})
	root, _ := fsguard.OpenRoot(dir)
	defer root.Close()
	for _, rel := range all {
		hidden := false
		for p := rel; p != "."; p = filepath.Dir(p) {
			hidden = hidden || ignoredByGit[p]
		}
		r, err := pol.Resolve(root, rel)
		if err == nil {
			r.Close()
		}
		if (err != nil) != hidden {
			t.Errorf("%q: git check-ignore says ignored=%v, Resolve says hidden=%v", rel, hidden, err != nil)
		}
	}
	if len(ignoredByGit) != len(all) {
		t.Fatalf("check-ignore answered %d of %d paths", len(ignoredByGit), len(all))
	}
	n := 0
	for _, ig := range ignoredByGit {
		if ig {
			n++
		}
	}
	if n < 20 {
		t.Fatalf("git ignores only %d paths: the fixture lost its point", n)
	}
	t.Logf("%d paths, %d ignored by git", len(all), n)
}
