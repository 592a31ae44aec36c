package adversarial

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// mutator changes a workspace while scans run: files and directories
// created, deleted and renamed, directories and files replaced by
// symbolic links (to a directory outside the workspace whose every name
// and content holds the token), permissions flipped, FIFOs, deep chains,
// hard links to an outside file, and names the policy must hide created
// and removed. It is the only writer of the workspace and never writes
// through a symbolic link, so everything outside stays marked. Every name
// it means to be hidden holds tok, and so does the content of every file
// that must not be read; visible files hold plain text.
type mutator struct {
	ws, outside, tok string
	rng              *rand.Rand
	n                int      // names made so far
	dirs             []string // visible directories it made (workspace-relative)
	files            []string // visible files it made
	locked           map[string]bool
	ops              map[string]int
}

func newMutator(ws, outside, tok string, seed uint64) *mutator {
	return &mutator{
		ws: ws, outside: outside, tok: tok, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		dirs:   []string{"", "a", "a/b", "c", "bulk/k0", "bulk/k3", "bulk/k7"},
		locked: map[string]bool{}, ops: map[string]int{},
	}
}

// step performs one random change.
func (m *mutator) step() {
	ops := []struct {
		name string
		do   func() error
	}{
		{"create file", m.createFile}, {"remove file", m.removeFile}, {"rename file", m.renameFile},
		{"create tree", m.createTree}, {"remove tree", m.removeTree}, {"rename dir", m.renameDir},
		{"dir to symlink", m.dirToSymlink}, {"file to symlink", m.fileToSymlink}, {"file to fifo", m.fileToFIFO},
		{"flip permissions", m.flipPerm}, {"create hidden", m.createHidden}, {"deep chain", m.deepChain},
		{"hard link", m.hardLink},
	}
	op := ops[m.rng.IntN(len(ops))]
	if len(m.files)+len(m.dirs) > 600 {
		op = ops[[]int{1, 4}[m.rng.IntN(2)]]
	}
	switch err := op.do(); {
	case err == nil:
		m.ops[op.name]++
	case err == errSkip:
		m.ops["skipped"]++
	default:
		m.ops["failed"]++ // e.g. a rename racing nothing but the OS's own rules
	}
}

func (m *mutator) abs(rel string) string { return filepath.Join(m.ws, filepath.FromSlash(rel)) }

func (m *mutator) next() int { m.n++; return m.n }

// realDir reports whether rel is a directory reached without any symbolic
// link, so writing below it stays in the workspace.
func (m *mutator) realDir(rel string) bool {
	p := m.ws
	for _, c := range strings.Split(rel, "/") {
		if c == "" {
			continue
		}
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// parent picks a real directory to work in.
func (m *mutator) parent() (string, bool) {
	d := m.dirs[m.rng.IntN(len(m.dirs))]
	return d, m.realDir(d) && !m.locked[d]
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func pick(list []string, rng *rand.Rand) (int, string, bool) {
	if len(list) == 0 {
		return 0, "", false
	}
	i := rng.IntN(len(list))
	return i, list[i], true
}

func remove(list []string, i int) []string { return append(list[:i], list[i+1:]...) }

var errSkip = fmt.Errorf("skipped")

func (m *mutator) createFile() error {
	dir, ok := m.parent()
	if !ok {
		return errSkip
	}
	rel := join(dir, fmt.Sprintf("f-%d.txt", m.next()))
	if err := os.WriteFile(m.abs(rel), []byte(visibleContent), 0o644); err != nil {
		return err
	}
	m.files = append(m.files, rel)
	return nil
}

func (m *mutator) removeFile() error {
	i, rel, ok := pick(m.files, m.rng)
	if !ok || !m.realDir(filepath.Dir(rel)) {
		return errSkip
	}
	m.files = remove(m.files, i)
	return os.Remove(m.abs(rel))
}

func (m *mutator) renameFile() error {
	i, rel, ok := pick(m.files, m.rng)
	dir, okDir := m.parent()
	if !ok || !okDir || !m.realDir(filepath.Dir(rel)) {
		return errSkip
	}
	to := join(dir, fmt.Sprintf("f-%d.txt", m.next()))
	if err := os.Rename(m.abs(rel), m.abs(to)); err != nil {
		return err
	}
	m.files[i] = to
	return nil
}

func (m *mutator) createTree() error {
	dir, ok := m.parent()
	if !ok {
		return errSkip
	}
	rel := join(dir, fmt.Sprintf("d-%d", m.next()))
	sub := rel + "/s"
	if err := os.MkdirAll(m.abs(sub), 0o755); err != nil {
		return err
	}
	m.dirs = append(m.dirs, rel, sub)
	for _, f := range []string{rel + "/x.go", rel + "/y.md", sub + "/z.txt"} {
		if os.WriteFile(m.abs(f), []byte(visibleContent), 0o644) == nil {
			m.files = append(m.files, f)
		}
	}
	return nil
}

// made reports whether rel was made by the mutator (the fixture's own
// directories are kept).
func (m *mutator) made(rel string) bool { return strings.Contains(filepath.Base(rel), "-") }

func (m *mutator) removeTree() error {
	_, rel, ok := pick(m.dirs, m.rng)
	if !ok || !m.made(rel) || !m.realDir(rel) {
		return errSkip
	}
	m.forget(rel)
	return os.RemoveAll(m.abs(rel))
}

// forget drops rel and everything below it from the lists.
func (m *mutator) forget(rel string) {
	keep := func(list []string) []string {
		out := list[:0]
		for _, p := range list {
			if p != rel && !strings.HasPrefix(p, rel+"/") {
				out = append(out, p)
			}
		}
		return out
	}
	m.dirs, m.files = keep(m.dirs), keep(m.files)
	for p := range m.locked {
		if p == rel || strings.HasPrefix(p, rel+"/") {
			delete(m.locked, p)
		}
	}
}

func (m *mutator) renameDir() error {
	_, rel, ok := pick(m.dirs, m.rng)
	dir, okDir := m.parent()
	if !ok || !okDir || !m.made(rel) || !m.realDir(rel) || dir == rel || strings.HasPrefix(dir, rel+"/") {
		return errSkip
	}
	to := join(dir, fmt.Sprintf("d-%d", m.next()))
	if err := os.Rename(m.abs(rel), m.abs(to)); err != nil {
		return err
	}
	move := func(list []string) {
		for i, p := range list {
			if p == rel || strings.HasPrefix(p, rel+"/") {
				list[i] = to + strings.TrimPrefix(p, rel)
			}
		}
	}
	move(m.dirs)
	move(m.files)
	locked := map[string]bool{}
	for p := range m.locked {
		if p == rel || strings.HasPrefix(p, rel+"/") {
			p = to + strings.TrimPrefix(p, rel)
		}
		locked[p] = true
	}
	m.locked = locked
	return nil
}

// dirToSymlink replaces a directory by a symbolic link of the same name to
// the outside directory (or to the root of the file system).
func (m *mutator) dirToSymlink() error {
	_, rel, ok := pick(m.dirs, m.rng)
	if !ok || !m.made(rel) || !m.realDir(rel) {
		return errSkip
	}
	m.forget(rel)
	if err := os.RemoveAll(m.abs(rel)); err != nil {
		return err
	}
	target := m.outside
	if m.rng.IntN(4) == 0 {
		target = "/"
	}
	return os.Symlink(target, m.abs(rel))
}

func (m *mutator) fileToSymlink() error {
	i, rel, ok := pick(m.files, m.rng)
	if !ok || !m.realDir(filepath.Dir(rel)) {
		return errSkip
	}
	m.files = remove(m.files, i)
	if err := os.Remove(m.abs(rel)); err != nil {
		return err
	}
	return os.Symlink(filepath.Join(m.outside, "outside-"+m.tok+".txt"), m.abs(rel))
}

func (m *mutator) fileToFIFO() error {
	i, rel, ok := pick(m.files, m.rng)
	if !ok || !m.realDir(filepath.Dir(rel)) {
		return errSkip
	}
	m.files = remove(m.files, i)
	if err := os.Remove(m.abs(rel)); err != nil {
		return err
	}
	return syscall.Mkfifo(m.abs(rel), 0o644)
}

// flipPerm makes a directory unreadable or readable again (seen only by an
// unprivileged backend).
func (m *mutator) flipPerm() error {
	_, rel, ok := pick(m.dirs, m.rng)
	if !ok || !m.made(rel) || !m.realDir(rel) {
		return errSkip
	}
	mode := os.FileMode(0o755)
	if !m.locked[rel] {
		mode = []os.FileMode{0, 0o311, 0o644}[m.rng.IntN(3)]
	}
	if err := os.Chmod(m.abs(rel), mode); err != nil {
		return err
	}
	if mode == 0o755 {
		delete(m.locked, rel)
	} else {
		m.locked[rel] = true
	}
	return nil
}

// unlockAll gives every locked directory its permissions back.
func (m *mutator) unlockAll() {
	for rel := range m.locked {
		os.Chmod(m.abs(rel), 0o755)
	}
	m.locked = map[string]bool{}
}

// createHidden makes one entry the policy must hide: built-in credential
// names and directories, a deny-glob match, ignored names, unsafe names, a
// FIFO and symbolic links. Each holds the token (or sits in a directory
// whose name is always hidden).
func (m *mutator) createHidden() error {
	dir, ok := m.parent()
	if !ok {
		return errSkip
	}
	t, n := m.tok, m.next()
	file := func(name string) error {
		return os.WriteFile(m.abs(join(dir, name)), []byte(m.tok), 0o644)
	}
	dirWith := func(name string) error {
		p := m.abs(join(dir, name))
		if err := os.MkdirAll(p, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(p, fmt.Sprintf("inside-%s-%d", t, n)), []byte(t), 0o644)
	}
	switch m.rng.IntN(13) {
	case 0:
		return file(fmt.Sprintf("id_rsa-%s-%d", t, n))
	case 1:
		return file(fmt.Sprintf(".env.%s-%d", t, n))
	case 2:
		return file(fmt.Sprintf("%s-%d.pem", t, n))
	case 3:
		return dirWith(".ssh")
	case 4:
		return file(fmt.Sprintf("denied-%s-%d", t, n))
	case 5:
		return file(fmt.Sprintf("%s-%d.ignored", t, n))
	case 6:
		return dirWith(fmt.Sprintf("ignored-dir-%s-%d", t, n))
	case 7:
		return file(fmt.Sprintf("bad\n%s-%d", t, n))
	case 8:
		return file(fmt.Sprintf("rlo\u202e%s-%d", t, n))
	case 9:
		return syscall.Mkfifo(m.abs(join(dir, fmt.Sprintf("fifo-%s-%d", t, n))), 0o644)
	case 10:
		return os.Symlink(m.outside, m.abs(join(dir, fmt.Sprintf("link-%s-%d", t, n))))
	case 11:
		return dirWith("node_modules")
	}
	return dirWith(".git")
}

// deepChain makes a chain of 15 directories with a file at its end; only
// the first 12 levels may ever be listed.
func (m *mutator) deepChain() error {
	dir, ok := m.parent()
	if !ok {
		return errSkip
	}
	rel := join(dir, fmt.Sprintf("deep-%d", m.next()))
	chain := rel
	for i := range 15 {
		chain += fmt.Sprintf("/z%d", i)
	}
	if err := os.MkdirAll(m.abs(chain), 0o755); err != nil {
		return err
	}
	m.dirs = append(m.dirs, rel)
	return os.WriteFile(m.abs(chain+"/leaf.txt"), []byte(visibleContent), 0o644)
}

// hardLink links the outside file (its content holds the token) under a
// visible name: project.files may list the name, project.list and
// project.read must never serve a file with two links.
func (m *mutator) hardLink() error {
	dir, ok := m.parent()
	if !ok {
		return errSkip
	}
	return os.Link(filepath.Join(m.outside, "outside-"+m.tok+".txt"), m.abs(join(dir, fmt.Sprintf("hl-%d.txt", m.next()))))
}

// visibleContent is what every visible file of the mutator holds.
const visibleContent = "visible text\n"

// expectedEntries walks the (now quiet) workspace the way docs/protocol.md §4–§5
// describe it for this fixture: regular files and directories only, never
// through a symbolic link, without names holding the token, the always
// hidden names, the contents of vault/, and nothing deeper than maxDepth
// (a directory at maxDepth with children makes the report truncated).
// Unless links is set, files with more than one link are left out too
// (project.list serves only files with one).
func expectedEntries(ws, tok string, maxDepth int, links bool) (map[string]string, bool) {
	out := map[string]string{}
	truncated := false
	var walk func(dir, rel string, depth int)
	walk = func(dir, rel string, depth int) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			name := e.Name()
			if strings.Contains(name, tok) || hidden(name) || rel == "vault" {
				continue
			}
			typ := e.Type()
			if typ&fs.ModeSymlink != 0 || (!typ.IsDir() && !typ.IsRegular()) {
				continue
			}
			if !links && typ.IsRegular() && linkCount(filepath.Join(dir, name)) > 1 {
				continue
			}
			if depth > maxDepth {
				truncated = true
				return
			}
			p := join(rel, name)
			if typ.IsDir() {
				out[p] = "directory"
				walk(filepath.Join(dir, name), p, depth+1)
			} else {
				out[p] = "file"
			}
		}
	}
	walk(ws, "", 1)
	return out, truncated
}

func linkCount(p string) uint64 {
	fi, err := os.Lstat(p)
	if err != nil {
		return 0
	}
	return uint64(fi.Sys().(*syscall.Stat_t).Nlink)
}

func hidden(name string) bool {
	for _, h := range hiddenComponents {
		if name == h {
			return true
		}
	}
	return strings.HasPrefix(name, "denied-") || strings.HasSuffix(name, ".ignored")
}

// writeFiles writes files (workspace-relative paths) with their contents.
func writeFiles(root string, files map[string]string) error {
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
