// Package pathgen generates realistic file trees, deterministically, for
// the frontend's tests and benchmarks: nested directories with shared
// prefixes, compound names joined by "_", "-", camelCase or nothing,
// tests next to sources, a few files named after their directory, and a
// deep vendor-like corner.
package pathgen

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// filesPerDir is the average number of files per directory, about what
// large Go and TypeScript repositories show.
const filesPerDir = 7

// maxDepth bounds directory nesting.
const maxDepth = 9

var words = strings.Fields(`
	server client http https handler router route config settings auth
	session token user account cache store storage index search query parse
	parser lexer token scan scanner format printer render view model page
	widget button list table tree node graph edge path file files dir fs
	io reader writer buffer stream pipe socket conn net dial listen proto
	codec json yaml toml xml csv encode decode crypto hash sign verify key
	cert tls rand math big int float time clock timer date log logger trace
	metric stats health status event queue worker job task pool sched lock
	mutex sync atomic chan signal runtime alloc heap stack gc debug test
	mock fake fixture golden bench util helper common core base main app
	cmd cli flag option plugin module pkg lib api rpc grpc rest web ui
	style theme color layout text string bytes slice map set sort diff
	patch merge branch commit repo git remote fetch push pull sync backend
	frontend migrate schema db sql table row column record batch import
	export build deploy docker image volume mount exec process shell env
`)

var topDirs = []string{
	"api", "assets", "cmd", "deploy", "docs", "examples", "internal",
	"pkg", "scripts", "test", "third_party", "tools", "vendor", "web",
}

var exts = []string{
	".go", ".go", ".go", ".go", ".go", ".ts", ".tsx", ".js", ".md",
	".json", ".yaml", ".proto", ".py", ".c", ".h", ".sh", ".txt", ".golden",
}

var bare = []string{"Makefile", "README", "LICENSE", "Dockerfile", "OWNERS", ".gitignore"}

// Paths returns n distinct relative file paths in byte order; the same n
// and seed give the same paths.
func Paths(n int, seed uint64) []string {
	g := &gen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	g.dirs = slices.Clone(topDirs)
	for len(g.dirs) < max(n/filesPerDir, len(topDirs)) {
		g.addDir()
	}
	seen := make(map[string]bool, n)
	for len(seen) < n {
		seen[g.file()] = true
	}
	out := make([]string, 0, n)
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

type gen struct {
	rng  *rand.Rand
	dirs []string
}

// addDir adds a directory under a random existing one.
func (g *gen) addDir() {
	parent := g.dirs[g.rng.IntN(len(g.dirs))]
	if strings.Count(parent, "/") >= maxDepth {
		return
	}
	name := g.component()
	if strings.HasPrefix(parent, "vendor") && g.rng.IntN(3) == 0 {
		name = "github.com/" + g.word() + "/" + g.word()
	}
	g.dirs = append(g.dirs, parent+"/"+name)
}

// file returns a random file path.
func (g *gen) file() string {
	dir := g.dirs[g.rng.IntN(len(g.dirs))]
	switch r := g.rng.IntN(40); {
	case r == 0:
		return dir + "/" + bare[g.rng.IntN(len(bare))]
	case r == 1:
		return dir + "/" + dir[strings.LastIndexByte(dir, '/')+1:] + ".go"
	}
	stem, ext := g.component(), exts[g.rng.IntN(len(exts))]
	if ext == ".go" && g.rng.IntN(3) == 0 {
		stem += "_test"
	}
	return dir + "/" + stem + ext
}

// component returns a file or directory name: one or two words, joined
// in one of the usual ways, sometimes with a version number.
func (g *gen) component() string {
	a := g.word()
	var s string
	switch g.rng.IntN(8) {
	case 0, 1, 2:
		s = a
	case 3:
		s = a + "_" + g.word()
	case 4:
		s = a + "-" + g.word()
	case 5:
		b := g.word()
		s = a + strings.ToUpper(b[:1]) + b[1:]
	case 6:
		s = a + g.word()
	default:
		s = a + strconv.Itoa(1+g.rng.IntN(3))
	}
	return s
}

func (g *gen) word() string {
	return words[g.rng.IntN(len(words))]
}
