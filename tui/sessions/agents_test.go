package sessions_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/internal/pagetest"
)

// agentRows are sessions of every agent.
var agentRows = func() []wire.SessionRow {
	var rows []wire.SessionRow
	for i, a := range wire.Agents {
		r := row("id-"+a, "Session of "+a, time.Duration(i+1)*time.Hour)
		r.Agent = a
		rows = append(rows, r)
	}
	return rows
}()

// TestAgentTags: every row shows its agent by a short tag, in its own
// colour (without colour, by the word alone), the filter still matches
// titles, the footer counts oversized histories, and Enter on another
// agent's row opens it with that agent and ends with "AGENT ID".
func TestAgentTags(t *testing.T) {
	notices := wire.SessionNotices{SessionsOtherDirectories: 4, SessionsOmittedInvalid: 1, SessionsOmittedOversized: 2}
	fake := bridgetest.New(bridgetest.Options{Sessions: agentRows})
	fake.SetDiscover((&script{answers: []answer{{res: bridgetest.Page(agentRows, "", "", notices)}}}).discover)
	h := start(t, fake, 100, 24)
	f := h.complete()
	tags := map[string]string{"scout": "Session of scout", "claude": "Session of claude-code", "codex": "Session of codex",
		"gemini": "Session of gemini", "opencode": "Session of opencode", "crush": "Session of crush"}
	plain := ansi.Strip(f.View)
	for tag, title := range tags {
		if !strings.Contains(plain, tag+strings.Repeat(" ", 9-len(tag))+title) {
			t.Errorf("no row %q tagged %q (tags padded to the widest):\n%s", title, tag, plain)
		}
	}
	colours := map[string]bool{}
	for _, m := range regexp.MustCompile(`\x1b\[([0-9;]*)m(?:scout|claude|codex|gemini|opencode|crush)\x1b`).FindAllStringSubmatch(f.View, -1) {
		colours[strings.TrimSuffix(m[1], ";48;2;46;42;69")] = true // the focused row's background aside
	}
	if len(colours) != 6 {
		t.Errorf("the tags are not told apart by colour: %v", colours)
	}
	h.WaitText("6 here · 4 elsewhere · 1 invalid · 2 too large")
	h.TM.Send(tea.WindowSizeMsg{Width: 160, Height: 24})
	h.WaitText("6 sessions here · 4 in other directories · 1 omitted (malformed or unreadable) · 2 too large to read (a record over 8 MiB)")
	h.TM.Send(tea.WindowSizeMsg{Width: 100, Height: 24})

	h.Type("codex")
	if f := h.filtered("codex"); !slices.Equal(st(f).rows, []string{"id-codex"}) {
		t.Fatalf("the filter matches %v, want the codex session's title", st(f).rows)
	}
	h.TM.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
	f = h.Wait("a colourless frame", func(f pagetest.Frame) bool { return !strings.Contains(f.View, "38;") })
	if !strings.Contains(ansi.Strip(f.View), "codex    Session of codex") {
		t.Fatalf("without colour the tag is not there:\n%s", ansi.Strip(f.View))
	}
	h.Press(tea.KeyEnter)
	if out := h.Outcome(); !slices.Equal(out.Items, []string{"codex id-codex"}) {
		t.Fatalf("outcome %+v, want the agent and the id", out)
	}
}
