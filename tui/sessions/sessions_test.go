package sessions_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/internal/pagetest"
)

// script serves session.discover from a list of answers, one per call,
// recording the cursors it was given; an answer may be held on a channel.
type script struct {
	mu      sync.Mutex
	cursors []*string
	answers []answer
}

type answer struct {
	res  wire.DiscoverResult
	err  error
	hold chan struct{}
}

func (s *script) discover(ctx context.Context, n int, cursor *string) (wire.DiscoverResult, error) {
	s.mu.Lock()
	s.cursors = append(s.cursors, cursor)
	a := answer{err: wire.NewError(wire.CodeInternal)}
	if n <= len(s.answers) {
		a = s.answers[n-1]
	}
	s.mu.Unlock()
	if a.hold != nil {
		select {
		case <-a.hold:
		case <-ctx.Done():
			return wire.DiscoverResult{}, ctx.Err()
		}
	}
	return a.res, a.err
}

func (s *script) cursor(i int) *string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cursors[i]
}

func scripted(answers ...answer) (*bridgetest.Fake, *script) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	s := &script{answers: answers}
	fake.SetDiscover(s.discover)
	return fake, s
}

func page(rows []wire.SessionRow, cursor, progress string) answer {
	return answer{res: bridgetest.Page(rows, cursor, progress, wire.SessionNotices{SessionsOtherDirectories: 3, SessionsOmittedInvalid: 1})}
}

func fails(code wire.Code) answer { return answer{err: wire.NewError(code)} }

func TestProvisionalRowsThenCompletion(t *testing.T) {
	release := make(chan struct{})
	last := page(fixture[3:], "", "")
	last.hold = release
	fake, _ := scripted(page(fixture[:3], "d1.a", wire.ProgressHistoryWork), last)
	h := start(t, fake, 80, 24)
	h.WaitText("reading histories…", "rows are provisional until complete", "3 so far")
	f := h.filtered("")
	if s := st(f); s.complete || !slices.Equal(s.rows, []string{"s-parser", "s-tree", "s-legacy"}) {
		t.Fatalf("provisional state %+v, want the first page's rows newest first", s)
	}
	golden.RequireEqual(t, pagetest.Golden(f.View))
	h.Press(tea.KeyEnter) // not a finished list: Enter only says so
	h.WaitText("Enter opens one once the list is complete")
	if n := fake.Calls(wire.MethodSessionOpen); n != 0 {
		t.Fatalf("%d opens of a provisional row", n)
	}
	close(release)
	f = h.complete()
	if s := st(f); !slices.Equal(s.rows, newestFirst) {
		t.Fatalf("rows %q, want %q", s.rows, newestFirst)
	}
	h.WaitText("7 sessions here · 3 in other directories · 1 omitted")
}

func TestEmptyPageIsFollowed(t *testing.T) {
	fake, s := scripted(
		page(nil, "d1.a", wire.ProgressDirectoryWork),
		page(nil, "d1.b", wire.ProgressInventoryValidation),
		page(fixture, "", ""),
	)
	h := start(t, fake, 80, 24)
	f := h.complete()
	if got := st(f).rows; !slices.Equal(got, newestFirst) {
		t.Fatalf("rows %q", got)
	}
	if c := s.cursor(1); c == nil || *c != "d1.a" {
		t.Fatalf("second call's cursor %v, want the empty page's", c)
	}
	if c := s.cursor(2); c == nil || *c != "d1.b" {
		t.Fatalf("third call's cursor %v, want the second empty page's", c)
	}
}

func TestStaleRevisionDiscardsAndRestartsOnce(t *testing.T) {
	fresh := []wire.SessionRow{row("s-new", "A session written meanwhile", 0)}
	fake, s := scripted(
		page(fixture[:2], "d1.a", wire.ProgressPageEntries),
		fails(wire.CodeStaleRevision),
		page(fresh, "", ""),
	)
	h := start(t, fake, 80, 24)
	f := h.complete()
	if got := st(f).rows; !slices.Equal(got, []string{"s-new"}) {
		t.Fatalf("rows %q: the stale scan's rows were not discarded", got)
	}
	h.WaitText("changed while they were being read", "discovery started again")
	if c := s.cursor(2); c != nil {
		t.Fatalf("the restart sent cursor %q, want a fresh scan", *c)
	}
}

// TestStaleRevisionTwiceStopsAndSays: a second stale_revision in a row
// stops discovery and says so (not beside the note that it started
// again); once Ctrl-R has read the sessions in full, neither the page nor
// the status line says it stopped.
func TestStaleRevisionTwiceStopsAndSays(t *testing.T) {
	fake, _ := scripted(fails(wire.CodeStaleRevision), fails(wire.CodeStaleRevision), page(fixture, "", ""))
	h := start(t, fake, 100, 24)
	f := h.WaitText("kept changing", "Ctrl-R")
	if n := fake.Calls(wire.MethodSessionDiscover); n != 2 {
		t.Fatalf("%d discover calls, want the first and one automatic restart", n)
	}
	if strings.Contains(f.Plain(), "started again") {
		t.Errorf("the stop is shown beside the note of the restart before it:\n%s", f.Plain())
	}
	h.Press('r', tea.ModCtrl)
	h.complete()
	h.Wait("the stop no longer said", func(f pagetest.Frame) bool {
		return st(f).complete && !strings.Contains(f.Plain(), "kept changing") && !strings.Contains(f.Plain(), "stopped")
	})
}

func TestDiscoveryErrorsSayWhatToDo(t *testing.T) {
	for code, want := range map[wire.Code]string{
		wire.CodeDiscoveryUnavailable: "unsafe or unreadable",
		wire.CodeDiscoveryRecordBytes: "record over 8 MiB",
		wire.CodeDiscoveryPageBytes:   "too large",
		wire.CodeInvalidCursor:        "did not recognise",
		wire.CodeInternal:             "internal error",
	} {
		t.Run(string(code), func(t *testing.T) {
			fake, _ := scripted(page(fixture[:2], "d1.a", wire.ProgressPageEntries), fails(code))
			h := start(t, fake, 100, 24)
			f := h.WaitText(want, "Ctrl-R", "discovery stopped")
			if s := st(f); len(s.rows) != 0 || s.complete {
				t.Fatalf("rows %q kept after an error", s.rows)
			}
		})
	}
}

func TestBusyIsAskedAgain(t *testing.T) {
	fake, s := scripted(page(nil, "d1.a", wire.ProgressDeadline), fails(wire.CodeBusy), page(fixture, "", ""))
	h := start(t, fake, 80, 24)
	h.complete()
	if c := s.cursor(2); c == nil || *c != "d1.a" {
		t.Fatalf("after busy the page sent %v, want the same cursor again", c)
	}
}

func TestDiscoveryStartsWhenTheTabIsFirstShown(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24, 0)
	h.WaitText("files page")
	if n := fake.Calls(wire.MethodSessionDiscover); n != 0 {
		t.Fatalf("%d discover calls before the tab was shown", n)
	}
	h.Press('2', tea.ModAlt)
	h.complete()
	h.Press('1', tea.ModAlt)
	h.Press('2', tea.ModAlt)
	h.complete()
	if n := fake.Calls(wire.MethodSessionDiscover); n != 1 {
		t.Fatalf("%d discover calls, want one (showing the tab again keeps the list)", n)
	}
}

func TestFollowsTheRealCursorsOfTheFake(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture, SessionPage: 2})
	h := start(t, fake, 80, 24)
	if got := st(h.complete()).rows; !slices.Equal(got, newestFirst) {
		t.Fatalf("rows %q", got)
	}
	if n := fake.Calls(wire.MethodSessionDiscover); n != 4 {
		t.Fatalf("%d calls for 7 rows in pages of 2", n)
	}
}

func TestFilterHighlightsTitles(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24)
	h.complete()
	h.Type("pars")
	f := h.filtered("pars")
	if got := st(f).rows; len(got) == 0 || got[0] != "s-parser" {
		t.Fatalf("rows %q, want s-parser first", got)
	}
	if !strings.Contains(f.View, "\x1b[1;38;2;255;135;215;48;2;46;42;69mpars") {
		t.Fatalf("no highlight of the match in %q", f.View)
	}
	h.WaitText(" 1/7")
}

func TestEnterOpensExactlyAndEndsWithTheID(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24)
	h.complete()
	h.Type("tui/tree")
	if f := h.filtered("tui/tree"); st(f).focused != "s-tree" {
		t.Fatalf("focused %q, want s-tree", st(f).focused)
	}
	h.Press(tea.KeyEnter)
	out := h.Outcome()
	if out.Cancelled || !slices.Equal(out.Items, []string{"scout s-tree"}) {
		t.Fatalf("outcome %+v, want scout s-tree", out)
	}
	if fake.Attached() != "s-tree" || fake.Calls(wire.MethodSessionOpen) != 1 {
		t.Fatalf("attached %q after %d opens", fake.Attached(), fake.Calls(wire.MethodSessionOpen))
	}
}

func TestEnterWithoutAMatchChoosesNothing(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24)
	h.complete()
	h.Type("zzzz")
	h.WaitText("no match")
	h.Press(tea.KeyEnter)
	if out := h.Outcome(); out.Cancelled || len(out.Items) != 0 {
		t.Fatalf("outcome %+v, want nothing chosen", out)
	}
}

func TestRefusedOpenIsExplainedAndTheAttachmentStays(t *testing.T) {
	for code, want := range map[wire.Code]string{
		wire.CodeCwdMismatch:    "belongs to another project",
		wire.CodeSessionInvalid: "malformed, unsafe or unreadable",
		wire.CodeNotFound:       "no longer exists",
	} {
		t.Run(string(code), func(t *testing.T) {
			fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
			fake.SetOpen(func(ctx context.Context, n int, id string) (wire.SessionOpenResult, error) {
				return wire.SessionOpenResult{}, wire.NewError(code)
			})
			h := start(t, fake, 160, 24)
			h.complete()
			h.Press(tea.KeyEnter)
			h.WaitText("“End-to-end tests in tmux” was not opened", want, "The previous attachment stays.")
			if fake.Attached() != "" {
				t.Fatalf("attached %q after a refused open", fake.Attached())
			}
			h.Type("x") // the picker is still running
			h.Wait("typing", func(f pagetest.Frame) bool { return st(f).query == "x" })
		})
	}
}

func TestRequestLimitRestartsTheChildAndTheScan(t *testing.T) {
	fake, _ := scripted(fails(wire.CodeRequestLimit), page(fixture, "", ""))
	h := start(t, fake, 80, 24)
	f := h.complete()
	if fake.Calls("restart") != 1 || len(st(f).rows) != len(fixture) {
		t.Fatalf("%d restarts, rows %q", fake.Calls("restart"), st(f).rows)
	}
}

func TestAChildRestartRestartsDiscovery(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24)
	h.complete()
	fake.Crash()
	h.WaitText("The backend stopped", "press R")
	h.Type("R")
	h.Wait("the scan after the restart", func(f pagetest.Frame) bool {
		return fake.Calls(wire.MethodSessionDiscover) == 2 && st(f).complete
	})
	h.TM.Send(tui.RestartMsg{})
	h.Wait("the scan after the second restart", func(f pagetest.Frame) bool {
		return fake.Calls(wire.MethodSessionDiscover) == 3 && st(f).complete
	})
}

func TestTypingWhileAPageIsOnItsWay(t *testing.T) {
	held := answer{hold: make(chan struct{})}
	fake, _ := scripted(page(fixture[:2], "d1.a", wire.ProgressRecordWork), held)
	h := start(t, fake, 80, 24)
	h.WaitText("reading a long record…")
	h.Type("fix")
	f := h.filtered("fix")
	if got := st(f).rows; !slices.Equal(got, []string{"s-parser"}) {
		t.Fatalf("rows %q", got)
	}
	h.Press(tea.KeyDown)
	h.Press(tea.KeyUp)
	h.WaitText("1/2 so far")
}

func TestGoldenViews(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {40, 10}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
			h := start(t, fake, size.w, size.h)
			h.complete()
			h.Type("re")
			f := h.filtered("re")
			pagetest.CheckFits(t, f.View, size.w, size.h)
			golden.RequireEqual(t, pagetest.Golden(f.View))
		})
	}
}

func TestEnterRightAfterTypingOpensTheBestMatchOfWhatWasTyped(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24)
	h.complete()
	h.Type("parser") // "p" and "pa" put s-legacy first
	h.Press(tea.KeyEnter)
	if out := h.Outcome(); !slices.Equal(out.Items, []string{"claude-code s-parser"}) {
		t.Fatalf("outcome %+v, want the best match of the typed filter", out)
	}
}

func TestALateReplyOfAnAbandonedScanIsDropped(t *testing.T) {
	asked, late, answered := make(chan struct{}), make(chan struct{}), make(chan struct{})
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	fake.SetDiscover(func(ctx context.Context, n int, cursor *string) (wire.DiscoverResult, error) {
		if n == 1 { // answers after it was abandoned, ignoring its context
			defer close(answered)
			close(asked)
			<-late
			return bridgetest.Page([]wire.SessionRow{row("s-stale", "From the abandoned scan", 0)}, "", "", wire.SessionNotices{}), nil
		}
		return bridgetest.Page(fixture, "", "", wire.SessionNotices{}), nil
	})
	h := start(t, fake, 80, 24)
	h.WaitText("looking for sessions…")
	// Scan 1's call must be the fake's first before Ctrl-R starts scan 2:
	// the two fetches are Cmds of their own, and under load scan 2's could
	// otherwise reach the fake first and be the call that never answers.
	select {
	case <-asked:
	case <-time.After(15 * time.Second):
		t.Fatal("scan 1 never asked for its first page")
	}
	h.Press('r', tea.ModCtrl) // abandons scan 1
	h.complete()
	close(late)
	<-answered
	f := h.WaitMsg("scan 1's answer", func(msg tea.Msg) bool { return strings.Contains(fmt.Sprintf("%#v", msg), "s-stale") })
	if slices.Contains(st(f).rows, "s-stale") || len(st(f).rows) != len(fixture) {
		t.Fatalf("rows %q: the abandoned scan's reply was shown", st(f).rows)
	}
}

func TestInvalidationIsNotASessionsConcern(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24)
	h.complete()
	gen := fake.Invalidate()
	h.WaitText(fmt.Sprintf("gen %d", gen))
	h.complete()
	if n := fake.Calls(wire.MethodSessionDiscover); n != 1 {
		t.Fatalf("%d discover calls: project_files.invalidated restarted discovery", n)
	}
}

func TestEveryMatchIsRankedTiesNewestFirst(t *testing.T) {
	rows := make([]wire.SessionRow, 450)
	for i := range rows {
		rows[i] = row(fmt.Sprintf("s%03d", i), fmt.Sprintf("session number %d", i), time.Duration(i)*time.Minute)
	}
	fake := bridgetest.New(bridgetest.Options{Sessions: rows})
	h := start(t, fake, 80, 24)
	h.complete()
	h.Type("num")
	got := st(h.filtered("num")).rows
	// Equal alignments: shorter titles score higher (fewer unmatched
	// characters), then the newest first.
	want := make([]string, 0, len(rows))
	for i := range rows {
		want = append(want, rows[i].ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("rows %q…, want every match, shorter titles then newest first: %q…", got[:12], want[:12])
	}
	h.WaitText("450/450")
	for range 25 {
		h.Press(tea.KeyPgDown)
	}
	h.WaitText("session number 449")
}

// TestFilterIgnoresCase: titles are prose, so a filter matches them in
// any case, capitals or not.
func TestFilterIgnoresCase(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24)
	h.complete()
	h.Type("e")
	lower := st(h.filtered("e")).rows
	if len(lower) != 6 {
		t.Fatalf("rows %q for e, want every titled session", lower)
	}
	h.Press(tea.KeyBackspace)
	h.Type("E")
	if got := st(h.filtered("E")).rows; !slices.Equal(got, lower) {
		t.Fatalf("rows %q for E, want those of e, %q", got, lower)
	}
	h.WaitText(" 6/7")
}

// TestFilterOfSeveralTerms: the filter is the Files page's query syntax,
// every term required and highlighted.
func TestFilterOfSeveralTerms(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24)
	h.complete()
	h.Type("the !fix")
	if got := st(h.filtered("the !fix")).rows; !slices.Equal(got, []string{"s-legacy", "s-docs"}) {
		t.Fatalf("rows %q for the !fix, want the titles with 'the' and no 'fix'", got)
	}
	for range len("!fix") {
		h.Press(tea.KeyBackspace)
	}
	h.Type("'pages docs")
	f := h.filtered("the 'pages docs")
	if got := st(f).rows; !slices.Equal(got, []string{"s-docs"}) {
		t.Fatalf("rows %q for the 'pages docs, want s-docs", got)
	}
	h.WaitText("1/7")
}

func TestNoColorKeepsTheHighlightAndTheFocus(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24)
	h.complete()
	h.Type("pars")
	h.filtered("pars")
	h.TM.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
	f := h.Wait("a colourless frame", func(f pagetest.Frame) bool { return !strings.Contains(f.View, "38;") })
	attrs := "" // of the match in the focused row
	for _, m := range regexp.MustCompile(`\x1b\[([0-9;]*)mpars\x1b\[m\x1b\[7mer's`).FindAllStringSubmatch(f.View, -1) {
		attrs = ";" + m[1] + ";"
	}
	if strings.Contains(f.View, "48;") || !strings.Contains(attrs, ";1;") || !strings.Contains(attrs, ";4;") || !strings.Contains(attrs, ";7;") {
		t.Fatalf("without colour the match must be bold and underlined on a reversed row:\n%q", f.View)
	}
}

func TestTinyTerminals(t *testing.T) {
	fake, _ := scripted(page(fixture[:3], "d1.a", wire.ProgressHistoryWork), answer{hold: make(chan struct{})})
	h := start(t, fake, 80, 24)
	h.WaitText("reading histories…")
	h.Type("re")
	for _, w := range []int{1, 5, 20, 40} {
		h.TM.Send(tea.WindowSizeMsg{Width: w, Height: 3})
		f := h.Wait("a tiny size", func(f pagetest.Frame) bool { return strings.Count(f.View, "\n") == 2 })
		pagetest.CheckFits(t, f.View, w, 3)
	}
}

// An untouched cursor stays on the top row as pages arrive, as fzf's does:
// the newest session is focused when the list completes, not whichever row
// happened to be first on the first page. A row the user moved to stays
// focused.
func TestFocusFollowsTopUntilMoved(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves int
		want  string
	}{
		{"untouched", 0, "s-e2e"},
		{"moved", 1, "s-tree"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			last := page(fixture[3:], "", "")
			last.hold = release
			fake, _ := scripted(page(fixture[:3], "d1.a", wire.ProgressHistoryWork), last)
			h := start(t, fake, 80, 24)
			h.WaitText("3 so far")
			for range tc.moves {
				h.Press(tea.KeyDown)
			}
			h.Wait("the focus to settle", func(f pagetest.Frame) bool { return st(f).focused == []string{"s-parser", "s-tree"}[tc.moves] })
			close(release)
			if got := st(h.complete()).focused; got != tc.want {
				t.Fatalf("focused %q after completion, want %q", got, tc.want)
			}
		})
	}
}

// The filter line's placeholder is whole at the narrowest width scout
// supports, not cut in the middle of a word.
func TestPlaceholderFitsAt40Columns(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 40, 10)
	f := h.complete()
	line := strings.Split(ansi.Strip(f.View), "\n")[1]
	if !strings.HasPrefix(line, "> filter by title ") {
		t.Fatalf("filter line %q, want the whole placeholder", line)
	}
}

// Enter on provisional rows says to wait; once the list completes that
// note is gone (it would contradict the finished list under it).
func TestWaitNoteGoesWhenTheListCompletes(t *testing.T) {
	release := make(chan struct{})
	last := page(fixture[3:], "", "")
	last.hold = release
	fake, _ := scripted(page(fixture[:3], "d1.a", wire.ProgressHistoryWork), last)
	h := start(t, fake, 80, 24)
	h.WaitText("3 so far")
	h.Press(tea.KeyEnter)
	h.WaitText("Enter opens one once the list is complete")
	close(release)
	h.complete()
	f := h.Wait("the note to go", func(f pagetest.Frame) bool { return !strings.Contains(f.View, "still being read") })
	if !st(f).complete {
		t.Fatalf("state %+v", st(f))
	}
}

// The finished list's counts are never cut: words too long for the width
// give way to the short ones.
func TestFooterCountsFitWhateverTheirSize(t *testing.T) {
	fake, _ := scripted(answer{res: bridgetest.Page(fixture, "", "", wire.SessionNotices{SessionsOtherDirectories: 1234, SessionsOmittedInvalid: 5678})})
	h := start(t, fake, 80, 24)
	h.complete()
	h.WaitText("7 here · 1234 elsewhere · 5678 invalid")
}

// A tab first shown after the child died says the backend is down and
// that R restarts it (not "Ctrl-R to try again", which cannot work), then
// reads the sessions once it is restarted.
func TestFirstShownWhileDownSaysRRestarts(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 80, 24, 0)
	h.WaitText("files page")
	fake.Crash()
	h.WaitText("● down")
	h.Press('2', tea.ModAlt)
	f := h.WaitText("Press R to restart")
	if strings.Contains(f.View, "Ctrl-R") {
		t.Fatalf("a dead backend's page offers Ctrl-R:\n%s", f.View)
	}
	if n := fake.Calls(wire.MethodSessionDiscover); n != 0 {
		t.Fatalf("%d discover calls to a dead backend", n)
	}
	h.Type("R")
	h.complete()
}

// TestTiesAreOrderedAsSessionList: rows updated at the same moment come in
// session.list's order, agent then id, not by id alone.
func TestTiesAreOrderedAsSessionList(t *testing.T) {
	same := row("0000-codex", "from codex", time.Hour)
	same.Agent = wire.AgentCodex
	other := row("zzzz-claude", "from claude", time.Hour)
	other.Agent, other.UpdatedAt = wire.AgentClaudeCode, same.UpdatedAt
	newer := row("s-newer", "newer", time.Minute)
	fake := bridgetest.New(bridgetest.Options{Sessions: []wire.SessionRow{same, newer, other}})
	h := start(t, fake, 80, 24)
	if got := st(h.complete()).rows; !slices.Equal(got, []string{"s-newer", "zzzz-claude", "0000-codex"}) {
		t.Fatalf("rows %q, want the newest, then the tie by agent: claude-code before codex", got)
	}
}

// Help offers ctrl+r only while the backend runs: down, R restarts it and
// the sessions are then read again.
func TestHelpWhileDownLeavesOutCtrlR(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Sessions: fixture})
	h := start(t, fake, 160, 24)
	h.complete()
	h.WaitText("read sessions again")
	fake.Crash()
	f := h.WaitText("● down", "R restart backend")
	if strings.Contains(f.View, "read sessions again") {
		t.Fatalf("the help line offers ctrl+r while the backend is down:\n%s", f.View)
	}
}
