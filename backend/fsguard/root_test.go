package fsguard

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/internal/makefs"
	"golang.org/x/sys/unix"
)

// fixture is the hostile file system most tests run against.
var fixture = []string{
	"dir/",
	"dir/file << hello",
	"dir/sub/",
	"dir/sub/deep << deep",
	"dir/linkfile => file",
	"dir/linkout => ../../outside",
	"link => dir",
	"abs => /",
	"etc => /etc",
	"loop => loop",
	"loop2 => loop3",
	"loop3 => loop2",
	"dangling => nowhere",
	"fifo|",
	"sock=",
	"file << x",
	"bad\nname << x",
}

func openFixture(t *testing.T, entries ...string) (*Root, string) {
	t.Helper()
	dir := makefs.MustMake(t, entries...)
	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
}

// errText is every error text this package may produce: a kind and an errno
// description, lower-case words only, so no path or name can hide in it.
var errText = regexp.MustCompile(`^fsguard: [a-z/ ]+( \([a-z ]+\))?$`)

// checkErr compares err with the wanted kind (nil: no error) and checks that
// the error text names neither the path nor the fixture directory.
func checkErr(t *testing.T, op, rel string, err, want error, dir string) {
	t.Helper()
	switch {
	case want == nil && err != nil:
		t.Errorf("%s(%q): unexpected error %v", op, rel, err)
	case want != nil && !errors.Is(err, want):
		t.Errorf("%s(%q): error %v, want %v", op, rel, err, want)
	}
	if err == nil {
		return
	}
	if msg := err.Error(); !errText.MatchString(msg) || strings.Contains(msg, dir) {
		t.Errorf("%s(%q): error text %q is not one of the fixed kinds", op, rel, msg)
	}
}

func TestRootOps(t *testing.T) {
	r, dir := openFixture(t, fixture...)
	tests := []struct {
		op, rel string
		want    error
	}{
		{"opendir", ".", nil},
		{"opendir", "dir", nil},
		{"opendir", "dir/sub", nil},
		{"opendir", "link", ErrUnsafe},
		{"opendir", "link/sub", ErrUnsafe},
		{"opendir", "abs", ErrUnsafe},
		{"opendir", "etc", ErrUnsafe},
		{"opendir", "loop", ErrUnsafe},
		{"opendir", "loop2", ErrUnsafe},
		{"opendir", "dangling", ErrUnsafe},
		{"opendir", "dir/linkout", ErrUnsafe},
		{"opendir", "dir/file", ErrNotDir},
		{"opendir", "fifo", ErrNotDir},
		{"opendir", "sock", ErrNotDir},
		{"opendir", "missing", ErrNotFound},
		{"opendir", "..", ErrUnsafe},
		{"opendir", "dir/..", ErrUnsafe},
		{"opendir", "dir/../dir", ErrUnsafe},
		{"opendir", "./dir", ErrUnsafe},
		{"opendir", "/etc", ErrUnsafe},
		{"opendir", "dir/", ErrUnsafe},
		{"opendir", "dir//sub", ErrUnsafe},
		{"opendir", "bad\nname", ErrUnsafe},
		{"openfile", "dir/file", nil},
		{"openfile", "dir/sub/deep", nil},
		{"openfile", "file", nil},
		{"openfile", "dir", ErrUnsafe},
		{"openfile", "dir/linkfile", ErrUnsafe},
		{"openfile", "link/file", ErrUnsafe},
		{"openfile", "etc/passwd", ErrUnsafe},
		{"openfile", "abs/etc/passwd", ErrUnsafe},
		{"openfile", "dangling", ErrUnsafe},
		{"openfile", "fifo", ErrUnsafe},
		{"openfile", "sock", ErrUnsafe},
		{"openfile", "missing", ErrNotFound},
		{"openfile", "dir/missing", ErrNotFound},
		{"openfile", "missing/file", ErrNotFound},
		{"openfile", "file/x", ErrNotDir},
		{"openfile", "../file", ErrUnsafe},
		{"openfile", "bad\nname", ErrUnsafe},
		{"lstat", "dir/file", nil},
		{"lstat", "link", nil}, // the last component is not followed
		{"lstat", "fifo", nil},
		{"lstat", "link/file", ErrUnsafe},
		{"lstat", "abs/etc", ErrUnsafe},
		{"lstat", "missing", ErrNotFound},
		{"lstat", "/", ErrUnsafe},
	}
	for _, tt := range tests {
		done := make(chan error, 1)
		go func() { done <- runOp(r, tt.op, tt.rel) }()
		select {
		case err := <-done:
			checkErr(t, tt.op, tt.rel, err, tt.want, dir)
		case <-time.After(time.Minute): // a hang, not a timing assertion
			t.Fatalf("%s(%q) blocked", tt.op, tt.rel)
		}
	}
}

func runOp(r *Root, op, rel string) error {
	switch op {
	case "opendir":
		d, err := r.OpenDir(rel)
		if err == nil {
			d.Close()
		}
		return err
	case "openfile":
		f, _, err := r.OpenFile(rel)
		if err == nil {
			f.Close()
		}
		return err
	case "lstat":
		_, err := r.Lstat(rel)
		return err
	}
	panic(op)
}

func TestLstatTypes(t *testing.T) {
	r, _ := openFixture(t, fixture...)
	tests := map[string]fs.FileMode{
		".": fs.ModeDir, "dir": fs.ModeDir, "dir/file": 0, "link": fs.ModeSymlink,
		"fifo": fs.ModeNamedPipe, "sock": fs.ModeSocket,
	}
	for rel, want := range tests {
		fi, err := r.Lstat(rel)
		if err != nil {
			t.Fatalf("Lstat(%q): %v", rel, err)
		}
		if fi.Mode().Type() != want {
			t.Errorf("Lstat(%q) type %v, want %v", rel, fi.Mode().Type(), want)
		}
	}
}

func TestOpenRootThroughSymlink(t *testing.T) {
	base := makefs.MustMake(t, "real/inner << x", "alias => real")
	r, err := OpenRoot(filepath.Join(base, "alias"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, _, err := r.ReadFile("inner", 10)
	if err != nil || string(data) != "x" {
		t.Fatalf("ReadFile through aliased root: %q, %v", data, err)
	}
}

func TestReadEntries(t *testing.T) {
	r, _ := openFixture(t, fixture...)
	d, err := r.OpenDir(".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var got []Entry
	for {
		es, err := d.ReadEntries(3)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(es) == 0 || len(es) > 3 {
			t.Fatalf("ReadEntries(3) returned %d entries", len(es))
		}
		got = append(got, es...)
	}
	if es, err := d.ReadEntries(0); err != nil || len(es) != 0 {
		t.Fatalf("ReadEntries(0) after EOF: %v, %v", es, err)
	}
	want := map[string]fs.FileMode{
		"dir": fs.ModeDir, "link": fs.ModeSymlink, "abs": fs.ModeSymlink, "etc": fs.ModeSymlink,
		"loop": fs.ModeSymlink, "loop2": fs.ModeSymlink, "loop3": fs.ModeSymlink,
		"dangling": fs.ModeSymlink, "fifo": fs.ModeNamedPipe, "sock": fs.ModeSocket,
		"file": 0, "bad\nname": 0,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries %v, want %d", len(got), got, len(want))
	}
	for _, e := range got {
		if typ, ok := want[e.Name]; !ok || typ != e.Type {
			t.Errorf("entry %q type %v, want %v (listed: %v)", e.Name, e.Type, typ, ok)
		}
	}
}

func TestReadEntriesAll(t *testing.T) {
	var entries []string
	for i := range 3000 {
		entries = append(entries, "big/"+strings.Repeat("n", 100)+string(rune('a'+i%26))+itoa(i))
	}
	r, _ := openFixture(t, entries...)
	d, err := r.OpenDir("big")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	es, err := d.ReadEntries(-1)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = "big/" + e.Name
	}
	slices.Sort(names)
	slices.Sort(entries)
	if !slices.Equal(names, entries) {
		t.Fatalf("ReadEntries(-1) read %d names, want %d", len(names), len(entries))
	}
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i)) }

func fmtInt(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return fmtInt(i/10) + string(rune('0'+i%10))
}

func TestUnknownDirentType(t *testing.T) {
	r, _ := openFixture(t, fixture...)
	d, err := r.OpenDir(".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for name, want := range map[string]fs.FileMode{"dir": fs.ModeDir, "file": 0, "link": fs.ModeSymlink, "fifo": fs.ModeNamedPipe} {
		typ, ok := d.direntType(unix.DT_UNKNOWN, []byte(name))
		if !ok || typ != want {
			t.Errorf("DT_UNKNOWN %q resolved to %v %v, want %v", name, typ, ok, want)
		}
	}
	if _, ok := d.direntType(unix.DT_UNKNOWN, []byte("vanished")); ok {
		t.Error("a vanished DT_UNKNOWN entry was reported")
	}
}

func TestDirRelative(t *testing.T) {
	r, dir := openFixture(t, fixture...)
	d, err := r.OpenDir("dir")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	sub, err := d.OpenDir("sub")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	f, info, err := sub.OpenFile("deep")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	f.Close()
	if string(data) != "deep" || info.Size != 4 || !info.IsRegular() || info.Nlink != 1 {
		t.Errorf("deep: %q %+v", data, info)
	}
	st, err := sub.Stat()
	if err != nil || !st.IsDir() {
		t.Errorf("Stat: %+v %v", st, err)
	}
	for name, want := range map[string]error{"linkfile": ErrUnsafe, "linkout": ErrUnsafe, "sub": ErrUnsafe, "..": ErrUnsafe, "a/b": ErrUnsafe} {
		_, _, err := d.OpenFile(name)
		checkErr(t, "Dir.OpenFile", name, err, want, dir)
	}
	for name, want := range map[string]error{"linkfile": ErrUnsafe, "file": ErrNotDir, ".": ErrUnsafe, "": ErrUnsafe} {
		_, err := d.OpenDir(name)
		checkErr(t, "Dir.OpenDir", name, err, want, dir)
	}
	if li, err := d.Lstat("linkfile"); err != nil || li.Mode.Type() != fs.ModeSymlink {
		t.Errorf("Lstat(linkfile) = %v, %v", li.Mode, err)
	}
	d.Close()
	if _, err := d.ReadEntries(0); !errors.Is(err, ErrClosed) {
		t.Errorf("ReadEntries after Close: %v", err)
	}
}

func TestReadFile(t *testing.T) {
	r, dir := openFixture(t, fixture...)
	data, info, err := r.ReadFile("dir/file", 5)
	if err != nil || string(data) != "hello" || info.Size != 5 {
		t.Fatalf("ReadFile = %q, %+v, %v", data, info, err)
	}
	_, _, err = r.ReadFile("dir/file", 4)
	checkErr(t, "ReadFile", "dir/file", err, ErrTooLarge, dir)
	_, _, err = r.ReadFile("fifo", 4)
	checkErr(t, "ReadFile", "fifo", err, ErrUnsafe, dir)
}

func TestWriteFileAtomic(t *testing.T) {
	r, dir := openFixture(t, fixture...)
	if err := r.WriteFileAtomic("dir/new.json", []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteFileAtomic("dir/new.json", []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, info, err := r.ReadFile("dir/new.json", 10); string(data) != "two" || info.Mode.Perm() != 0o600 || err != nil {
		t.Errorf("after two writes: %q %v %v", data, info.Mode, err)
	}
	// A symlink at the target is replaced, never written through.
	if err := r.WriteFileAtomic("dir/linkfile", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "dir/file")); string(data) != "hello" {
		t.Errorf("write went through a symlink: %q", data)
	}
	for rel, want := range map[string]error{
		"link/x": ErrUnsafe, "abs/tmp/x": ErrUnsafe, "missing/x": ErrNotFound,
		"../x": ErrUnsafe, "dir/sub": nil /* checked below */, "file/x": ErrNotDir,
	} {
		if rel == "dir/sub" {
			continue
		}
		checkErr(t, "WriteFileAtomic", rel, r.WriteFileAtomic(rel, []byte("x"), 0o644), want, dir)
	}
	if err := r.WriteFileAtomic("dir/sub", []byte("x"), 0o644); err == nil {
		t.Error("WriteFileAtomic replaced a directory")
	}
	es, _ := os.ReadDir(filepath.Join(dir, "dir"))
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".scout-tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// TestWriteFileAtomicSweepsStaleTemps: temporary files left by a writer
// that died (found by the adversarial suite after SIGKILL during
// model.refresh, model.select and workspace.trust) are removed by the next
// write into their directory once they are older than StaleTempAge; a
// fresh one, which may be another process's write in progress, is kept, and
// so is anything that is not a regular file or not exactly a temporary name.
func TestWriteFileAtomicSweepsStaleTemps(t *testing.T) {
	r, dir := openFixture(t, "cat/", "cat/.scout-tmp-0123456789abcdef << half", "cat/.scout-tmp-fresh << half",
		"cat/.scout-tmp-dir/", "cat/.scout-tmp-link => x", "cat/keep.json << x",
		"cat/.scout-tmp-x.json << data", "cat/.scout-tmp-0123456789abcdef.json << data", "cat/.scout-tmp-0123456789ABCDEF << data")
	old := time.Now().Add(-StaleTempAge - time.Minute)
	for _, name := range []string{".scout-tmp-0123456789abcdef", ".scout-tmp-dir", ".scout-tmp-x.json", ".scout-tmp-0123456789abcdef.json", ".scout-tmp-0123456789ABCDEF"} {
		if err := os.Chtimes(filepath.Join(dir, "cat", name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Lutimes(filepath.Join(dir, "cat", ".scout-tmp-link"), []unix.Timeval{unix.NsecToTimeval(old.UnixNano()), unix.NsecToTimeval(old.UnixNano())}); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteFileAtomic("cat/p.json", []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	var names []string
	es, _ := os.ReadDir(filepath.Join(dir, "cat"))
	for _, e := range es {
		names = append(names, e.Name())
	}
	// Only exact temporary names go: a provider's cache whose id starts like
	// one (".scout-tmp-x.json") is data.
	if want := []string{".scout-tmp-0123456789ABCDEF", ".scout-tmp-0123456789abcdef.json", ".scout-tmp-dir", ".scout-tmp-fresh", ".scout-tmp-link", ".scout-tmp-x.json", "keep.json", "p.json"}; !slices.Equal(names, want) {
		t.Errorf("after the write: %q, want %q", names, want)
	}
}

func TestMkdirAll(t *testing.T) {
	r, dir := openFixture(t, fixture...)
	if err := r.MkdirAll("a/b/c", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := r.MkdirAll("a/b/c", 0o755); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "a/b/c")); err != nil || !fi.IsDir() {
		t.Fatalf("a/b/c: %v", err)
	}
	for rel, want := range map[string]error{"link/x": ErrUnsafe, "abs/tmp": ErrUnsafe, "file/x": ErrNotDir, "dir/file": ErrNotDir, "x/../y": ErrUnsafe} {
		checkErr(t, "MkdirAll", rel, r.MkdirAll(rel, 0o755), want, dir)
	}
	if _, err := os.Lstat("/tmp/x"); err == nil {
		// Not proof of escape (someone else may have made it), but worth a look.
		t.Log("/tmp/x exists")
	}
}

func TestRemove(t *testing.T) {
	r, dir := openFixture(t, fixture...)
	if err := r.Remove("dir/linkfile"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "dir/file")); err != nil {
		t.Fatal("Remove followed a symlink")
	}
	checkErr(t, "Remove", "link/file", r.Remove("link/file"), ErrUnsafe, dir)
	checkErr(t, "Remove", "missing", r.Remove("missing"), ErrNotFound, dir)
}

func TestClosedRoot(t *testing.T) {
	r, _ := openFixture(t, fixture...)
	r.Close()
	if _, err := r.OpenDir("dir"); !errors.Is(err, ErrClosed) {
		t.Errorf("OpenDir after Close: %v", err)
	}
	if err := r.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
}

func TestErrorKinds(t *testing.T) {
	_, err := OpenRoot("/nonexistent-fsguard-test-dir")
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing root: %v", err)
	}
	if strings.Contains(err.Error(), "nonexistent") {
		t.Errorf("error names the path: %v", err)
	}
	perm := mapErr(unix.EACCES)
	if !errors.Is(perm, fs.ErrPermission) || errors.Is(perm, ErrUnsafe) {
		t.Errorf("EACCES maps to %v", perm)
	}
}
