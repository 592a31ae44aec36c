package backend_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// Black-box tests of project.list and project.read against the real binary.

var mtimePattern = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// startList starts a backend in dir with the list capabilities negotiated.
func startList(t *testing.T, dir string, opts scouttest.Options) *scouttest.Proc {
	t.Helper()
	opts.Dir = dir
	if !slices.ContainsFunc(opts.Env, func(e string) bool { return strings.HasPrefix(e, "SCOUT_HOME=") }) {
		opts.Env = append(opts.Env, "SCOUT_HOME="+filepath.Join(t.TempDir(), "home"))
	}
	p := scouttest.Start(t, opts)
	p.Initialize(wire.MethodProjectFiles, wire.MethodProjectList, wire.MethodProjectRead, wire.MethodWorkspaceTrust, wire.MethodCancel)
	return p
}

// page is one decoded project.list response with its raw line.
type page struct {
	wire.ListResult
	raw []byte
}

func listParams(ref string, limit int) map[string]any {
	params := map[string]any{"ref": ref}
	if limit > 0 {
		params["limit"] = limit
	}
	return params
}

// listPage calls project.list and checks what every page must satisfy.
func listPage(t *testing.T, p *scouttest.Proc, dir, ref string, limit, maxBytes int) page {
	t.Helper()
	m := p.Call(wire.MethodProjectList, listParams(ref, limit))
	if m.Error != nil {
		t.Fatalf("project.list: %s", m.Raw)
	}
	var pg page
	m.Decode(t, &pg.ListResult)
	pg.raw = m.Raw
	checkPage(t, pg, dir, limit, maxBytes)
	return pg
}

func checkPage(t *testing.T, pg page, dir string, limit, maxBytes int) {
	t.Helper()
	if limit == 0 {
		limit = wire.DefaultListExtension.PageEntriesDefault
	}
	if n := len(pg.raw) + 1; n > maxBytes {
		t.Errorf("response line is %d bytes, bound %d", n, maxBytes)
	}
	if len(pg.Entries) > limit {
		t.Errorf("%d entries over the limit %d", len(pg.Entries), limit)
	}
	if !strings.Contains(string(pg.raw), `"entries":[`) {
		t.Errorf("entries is not an array: %s", pg.raw)
	}
	if strings.Contains(string(pg.raw), dir) || strings.Contains(string(pg.raw), `"name":"/`) {
		t.Errorf("page leaks a path: %.200s", pg.raw)
	}
	if pg.NextRef != "" && !wire.ValidRef(pg.NextRef) {
		t.Errorf("next_ref %q", pg.NextRef)
	}
	for i, e := range pg.Entries {
		if !wire.ValidRef(e.ID) || (e.Type != wire.TypeDir && e.Type != wire.TypeFile) || !mtimePattern.MatchString(e.Mtime) {
			t.Errorf("entry %+v", e)
		}
		if e.Type == wire.TypeDir && e.Size != 0 {
			t.Errorf("directory %q has size %d", e.Name, e.Size)
		}
		if i > 0 && compareListed(pg.Entries[i-1], e) >= 0 {
			t.Errorf("order: %q before %q", pg.Entries[i-1].Name, e.Name)
		}
	}
}

// compareListed is the listing order: directories first, then names in
// code point order.
func compareListed(a, b wire.ListEntry) int {
	if a.Type != b.Type {
		if a.Type == wire.TypeDir {
			return -1
		}
		return 1
	}
	return strings.Compare(a.Name, b.Name)
}

// listAll follows next_ref through a folder and returns every entry and
// the pages.
func listAll(t *testing.T, p *scouttest.Proc, dir, ref string, limit int) ([]wire.ListEntry, []page) {
	t.Helper()
	var all []wire.ListEntry
	var pages []page
	for range 100000 {
		pg := listPage(t, p, dir, ref, limit, wire.DefaultListExtension.PageBytes)
		pages = append(pages, pg)
		if len(all) > 0 && len(pg.Entries) > 0 && compareListed(all[len(all)-1], pg.Entries[0]) >= 0 {
			t.Errorf("order across pages: %q then %q", all[len(all)-1].Name, pg.Entries[0].Name)
		}
		all = append(all, pg.Entries...)
		if pg.NextRef == "" {
			return all, pages
		}
		ref = pg.NextRef
	}
	t.Fatal("paging did not end")
	return nil, nil
}

// walkList lists the whole workspace folder by folder, returning path ->
// entry.
func walkList(t *testing.T, p *scouttest.Proc, dir string) map[string]wire.ListEntry {
	t.Helper()
	out := map[string]wire.ListEntry{}
	var rec func(ref, prefix string)
	rec = func(ref, prefix string) {
		entries, _ := listAll(t, p, dir, ref, 1000)
		for _, e := range entries {
			out[prefix+e.Name] = e
			if e.Type == wire.TypeDir {
				rec(e.ID, prefix+e.Name+"/")
			}
		}
	}
	rec(wire.RootRef, "")
	return out
}

// errorShape is an error response without its id and time, for comparing
// two answers byte for byte.
func errorShape(t *testing.T, m scouttest.Msg) string {
	t.Helper()
	if m.Error == nil {
		t.Fatalf("expected an error, got %s", m.Raw)
	}
	var v map[string]any
	if err := json.Unmarshal(m.Raw, &v); err != nil {
		t.Fatal(err)
	}
	delete(v, "id")
	delete(v["error"].(map[string]any)["data"].(map[string]any), "ts")
	b, _ := json.Marshal(v)
	return string(b)
}

// notFoundShape is what every not_found answer must look like.
const notFoundShape = `{"error":{"code":-32011,"data":{"code":"not_found"},"message":"Not found."},"jsonrpc":"2.0"}`

func expectNotFound(t *testing.T, p *scouttest.Proc, what, method string, params map[string]any) {
	t.Helper()
	m := p.Call(method, params)
	if m.Error == nil {
		t.Errorf("%s: %s answered %s", what, method, m.Raw)
		return
	}
	if got := errorShape(t, m); got != notFoundShape {
		t.Errorf("%s: %s answered %s, want %s", what, method, got, notFoundShape)
	}
}

// makeNames creates n directories (dirs) or empty files named by name(i)
// in dir and returns the names.
func makeNames(t *testing.T, dir string, n int, dirs bool, name func(i int) string) []string {
	t.Helper()
	var out []string
	for i := range n {
		p := filepath.Join(dir, name(i))
		var err error
		if dirs {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, name(i))
	}
	return out
}

func names(es []wire.ListEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
	}
	return out
}

func TestListPaging2500(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Directory names ("~...") sort after file names by code point, so
	// "directories first" shows across the page boundary; names are made
	// in a scrambled order.
	scrambled := func(prefix string) func(int) string {
		return func(i int) string { return fmt.Sprintf("%s%05d", prefix, (i*7919)%100000) }
	}
	dirsWant := makeNames(t, dir, 700, true, scrambled("~"))
	filesWant := makeNames(t, dir, 1800, false, scrambled("f"))
	slices.Sort(dirsWant)
	slices.Sort(filesWant)
	want := append(dirsWant, filesWant...)

	p := startList(t, dir, scouttest.Options{})
	all, pages := listAll(t, p, dir, wire.RootRef, 1000)
	if len(pages) != 3 || len(pages[0].Entries) != 1000 || len(pages[1].Entries) != 1000 || len(pages[2].Entries) != 500 {
		t.Fatalf("pages: %d", len(pages))
	}
	if pages[2].NextRef != "" || pages[0].NextRef == "" || pages[1].NextRef == "" {
		t.Error("next_ref present on the wrong pages")
	}
	if !slices.Equal(names(all), want) {
		t.Fatal("the pages are not the folder in listing order without duplicates or gaps")
	}
	ids := map[string]bool{}
	for _, e := range all {
		if ids[e.ID] {
			t.Fatal("an id repeated")
		}
		ids[e.ID] = true
		if (e.Type == wire.TypeDir) != strings.HasPrefix(e.Name, "~") {
			t.Errorf("%q has type %q", e.Name, e.Type)
		}
	}
	for _, pg := range pages {
		if pg.Generation != 1 {
			t.Errorf("generation %d", pg.Generation)
		}
	}
	// The default limit is 200.
	if pg := listPage(t, p, dir, wire.RootRef, 0, wire.DefaultListExtension.PageBytes); len(pg.Entries) != 200 || pg.NextRef == "" {
		t.Errorf("default page: %d entries", len(pg.Entries))
	}
	// A null limit is the default; 1000 is the largest page.
	var pg wire.ListResult
	p.MustCall(wire.MethodProjectList, map[string]any{"ref": wire.RootRef, "limit": nil}, &pg)
	if len(pg.Entries) != 200 || pg.NextRef == "" {
		t.Errorf("limit null: %d entries", len(pg.Entries))
	}
	p.MustCall(wire.MethodProjectList, map[string]any{"ref": wire.RootRef, "limit": 1000}, &pg)
	if len(pg.Entries) != 1000 {
		t.Errorf("limit 1000: %d entries", len(pg.Entries))
	}
}

func TestListByteBoundBeforeCountBound(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const bound = 64 << 10
	// 255-byte names with quotes, each escaped to two bytes: about 600
	// bytes an entry, so 1,000 entries cannot fit in 64 KiB.
	want := makeNames(t, dir, 1000, false, func(i int) string { return fmt.Sprintf("%04d", i) + strings.Repeat(`"`, 251) })
	p := startList(t, dir, scouttest.Options{Debug: true, Env: []string{fmt.Sprintf("SCOUT_DEBUG_LIST_PAGE_BYTES=%d", bound)}})
	var got []string
	ref := wire.RootRef
	pages := 0
	for {
		pg := listPage(t, p, dir, ref, 1000, bound)
		pages++
		n := len(pg.Entries)
		if pg.NextRef != "" {
			if n == 0 || n >= 1000 {
				t.Fatalf("page %d: %d entries", pages, n)
			}
			// The byte bound, not the count, ended the page: one more
			// entry would not have fit.
			next := len(fmt.Sprintf(`,{"id":"%s","name":%s,"type":"file","size":0,"mtime":"%s"}`,
				pg.Entries[0].ID, jsonString(want[len(got)+n]), pg.Entries[0].Mtime))
			if len(pg.raw)+1+next <= bound {
				t.Errorf("page %d: %d bytes, the next entry (%d bytes) would have fit", pages, len(pg.raw)+1, next)
			}
		}
		got = append(got, names(pg.Entries)...)
		if pg.NextRef == "" {
			break
		}
		ref = pg.NextRef
	}
	if !slices.Equal(got, want) || pages < 10 {
		t.Fatalf("%d pages, %d entries; the listing is not the folder", pages, len(got))
	}
}

// TestStringsEscapeOnlyWhatJSONRequires (docs/protocol.md §10.1): strings
// are written with JSON's required escapes only (the short forms for
// \b \f \n \r \t, \u00XX for the other C0 characters, \" and \\); <, >, &,
// /, DEL, C1 characters and U+2028/U+2029 are raw UTF-8. So a LF byte
// appears only as the frame's end, and a client splits frames on LF alone.
func TestStringsEscapeOnlyWhatJSONRequires(t *testing.T) {
	t.Parallel()
	name := "a\u2028b<&>\u2029"
	dir := makefs.MustMake(t, name+" << x\u2028<&>/\x7f\u0085\"\\\b\f\n\r\t\x01")
	p := startList(t, dir, scouttest.Options{})
	m := p.Call(wire.MethodProjectList, listParams(wire.RootRef, 0))
	var pg wire.ListResult
	m.Decode(t, &pg)
	if want := `"name":"` + name + `"`; len(pg.Entries) != 1 || !strings.Contains(string(m.Raw), want) {
		t.Fatalf("project.list does not hold %q raw: %s", want, m.Raw)
	}
	if f := p.Call(wire.MethodProjectFiles, map[string]any{}); !strings.Contains(string(f.Raw), `"path":"`+name+`"`) {
		t.Errorf("project.files: %s", f.Raw)
	}
	r := p.Call(wire.MethodProjectRead, map[string]any{"ref": pg.Entries[0].ID})
	want := "\"content\":\"x\u2028<&>/\x7f\u0085" + `\"\\\b\f\n\r\t\u0001"`
	if !strings.Contains(string(r.Raw), want) {
		t.Errorf("project.read: %s, want %s", r.Raw, want)
	}
	for _, raw := range [][]byte{m.Raw, r.Raw} {
		if bytes.ContainsAny(raw, "\n\r") {
			t.Errorf("a line holds a raw LF or CR: %q", raw)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestReadHead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := strings.Repeat("0123456789abcdef", 10000) // 160,000 bytes
	files := map[string]string{
		"small.txt": "hello\nworld\n", "big.txt": big, "bin.dat": "ab\x00cd", "latin1.txt": "caf\xe9\n",
		"empty": "", "ctrl.txt": strings.Repeat("\x01", 131072),
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := startList(t, dir, scouttest.Options{})
	entries, _ := listAll(t, p, dir, wire.RootRef, 100)
	ids := map[string]string{}
	for _, e := range entries {
		ids[e.Name] = e.ID
	}
	read := func(name string, max int) (wire.ReadResult, scouttest.Msg) {
		params := map[string]any{"ref": ids[name]}
		if max > 0 {
			params["max_bytes"] = max
		}
		var r wire.ReadResult
		m := p.MustCall(wire.MethodProjectRead, params, &r)
		return r, m
	}
	cases := []struct {
		name string
		max  int
		want wire.ReadResult
	}{
		{"small.txt", 0, wire.ReadResult{Generation: 1, Size: 12, Content: "hello\nworld\n"}},
		{"small.txt", 5, wire.ReadResult{Generation: 1, Size: 12, Truncated: true, Content: "hello"}},
		{"big.txt", 0, wire.ReadResult{Generation: 1, Size: 160000, Truncated: true, Content: big[:65536]}},
		{"big.txt", 131072, wire.ReadResult{Generation: 1, Size: 160000, Truncated: true, Content: big[:131072]}},
		{"bin.dat", 0, wire.ReadResult{Generation: 1, Size: 5, Binary: true}},
		{"latin1.txt", 0, wire.ReadResult{Generation: 1, Size: 5, Content: "caf\uFFFD\n"}},
		{"empty", 0, wire.ReadResult{Generation: 1}},
	}
	for _, tc := range cases {
		got, m := read(tc.name, tc.max)
		got.TS = ""
		if got != tc.want {
			t.Errorf("%s (max %d): %.120s", tc.name, tc.max, m.Raw)
		}
	}
	// The escaped worst case stays under the line bound.
	if _, m := read("ctrl.txt", 131072); len(m.Raw)+1 > wire.DefaultListExtension.PageBytes {
		t.Errorf("control characters: %d-byte line", len(m.Raw)+1)
	}
	for _, bad := range []map[string]any{
		{"ref": ids["small.txt"], "max_bytes": 0}, {"ref": ids["small.txt"], "max_bytes": 131073},
		{"ref": "root"}, {"ref": ids["small.txt"][:42]}, {}, {"ref": ids["small.txt"], "x": 1},
	} {
		if m := p.Call(wire.MethodProjectRead, bad); m.Code() != wire.CodeInvalidParams {
			t.Errorf("project.read %v: %s", bad, m.Raw)
		}
	}
}

func TestListInvalidParams(t *testing.T) {
	t.Parallel()
	p := startList(t, t.TempDir(), scouttest.Options{})
	for _, bad := range []map[string]any{
		{}, {"ref": "ROOT"}, {"ref": strings.Repeat("a", 42)}, {"ref": strings.Repeat("a", 44)},
		{"ref": strings.Repeat("+", 43)}, {"ref": "root", "limit": 0}, {"ref": "root", "limit": 1001},
		{"ref": "root", "limit": "5"}, {"ref": "root", "cursor": "x"}, {"ref": nil},
		{"ref": "root", "limit": -1}, {"ref": "root", "limit": 2.5}, {"ref": "root", "limit": json.RawMessage("2.0")},
		{"ref": "root", "limit": json.RawMessage("2e1")}, {"ref": "root", "limit": json.RawMessage("1e400")},
		{"ref": "root", "limit": json.RawMessage("9223372036854775808")}, {"ref": "root", "limit": true},
		{"ref": 43}, {"ref": []string{"root"}},
	} {
		if m := p.Call(wire.MethodProjectList, bad); m.Code() != wire.CodeInvalidParams {
			t.Errorf("project.list %v: %s", bad, m.Raw)
		}
	}
	if pg := listPage(t, p, "/nonexistent", wire.RootRef, 1, wire.DefaultListExtension.PageBytes); len(pg.Entries) != 0 || pg.NextRef != "" {
		t.Errorf("empty workspace: %s", pg.raw)
	}
}

func TestListExtensionOnlyWhenNegotiated(t *testing.T) {
	t.Parallel()
	for _, caps := range [][]string{{wire.MethodProjectList}, {wire.MethodProjectRead}, {}} {
		p := scouttest.Start(t, scouttest.Options{Env: []string{"SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")}})
		init := p.Initialize(caps...)
		negotiated := slices.Contains(caps, wire.MethodProjectList)
		if (init.Extensions.ProjectList != nil) != negotiated {
			t.Errorf("caps %v: extension %+v", caps, init.Extensions.ProjectList)
		}
		if negotiated && *init.Extensions.ProjectList != wire.DefaultListExtension {
			t.Errorf("extension %+v", *init.Extensions.ProjectList)
		}
		if !slices.Contains(init.Capabilities, wire.MethodProjectList) || !slices.Contains(init.Capabilities, wire.MethodProjectRead) {
			t.Errorf("capabilities %v", init.Capabilities)
		}
		if !slices.Contains(caps, wire.MethodProjectRead) {
			if m := p.Call(wire.MethodProjectRead, map[string]any{"ref": strings.Repeat("a", 43)}); m.Code() != wire.CodeUnsupportedCapability {
				t.Errorf("project.read without the capability: %s", m.Raw)
			}
		}
	}
}
