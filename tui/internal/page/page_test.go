package page_test

import (
	"errors"
	"image/color"
	"reflect"
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/internal/page"
)

// state is what a Base tells of itself.
type state struct {
	W, H          int
	Dark, NoColor bool
	Down, Shown   bool
	Gen           int64
}

func stateOf(b *page.Base) state {
	return state{b.Width(), b.Height(), b.IsDark(), b.NoColor(), b.Down(), b.Shown(), b.Gen()}
}

func restarted(gen int64) bridge.RestartedMsg {
	return bridge.RestartedMsg{Child: 2, Init: wire.InitializeResult{Workspace: wire.Workspace{Generation: gen}}}
}

// TestObserve feeds a base one message after another and checks, after
// each, what Observe left for the page and what the base now says.
func TestObserve(t *testing.T) {
	t.Parallel()
	fake := bridgetest.New(bridgetest.Options{})
	t.Cleanup(fake.Close)
	b := page.New(fake)
	gen := fake.Init().Workspace.Generation
	if got, want := stateOf(&b), (state{Dark: true, Gen: gen}); got != want {
		t.Fatalf("new base: %+v, want %+v", got, want)
	}
	type other struct{ n int }
	steps := []struct {
		name string
		msg  tea.Msg
		left tea.Msg // what Observe returns
		then state
	}{
		{"size", tea.WindowSizeMsg{Width: 80, Height: 24}, tea.WindowSizeMsg{Width: 80, Height: 24},
			state{W: 80, H: 24, Dark: true, Gen: gen}},
		{"light background", tea.BackgroundColorMsg{Color: lightGrey}, page.RestyleMsg{},
			state{W: 80, H: 24, Gen: gen}},
		{"no colour", tea.ColorProfileMsg{Profile: colorprofile.ASCII}, page.RestyleMsg{},
			state{W: 80, H: 24, NoColor: true, Gen: gen}},
		{"colour again", tea.ColorProfileMsg{Profile: colorprofile.ANSI256}, page.RestyleMsg{},
			state{W: 80, H: 24, Gen: gen}},
		{"a message of the page's own", other{7}, other{7},
			state{W: 80, H: 24, Gen: gen}},
		{"down", bridge.DownMsg{Err: errors.New("killed")}, bridge.DownMsg{Err: errors.New("killed")},
			state{W: 80, H: 24, Down: true, Gen: gen}},
		{"first shown, while down", page.ShownMsg{}, page.FirstShownDownMsg{},
			state{W: 80, H: 24, Down: true, Shown: true, Gen: gen}},
		{"shown again", page.ShownMsg{}, nil,
			state{W: 80, H: 24, Down: true, Shown: true, Gen: gen}},
		{"a restart that failed", bridge.RestartedMsg{Err: errors.New("no")}, bridge.RestartedMsg{Err: errors.New("no")},
			state{W: 80, H: 24, Down: true, Shown: true, Gen: gen}},
		{"restarted", restarted(gen + 5), restarted(gen + 5),
			state{W: 80, H: 24, Shown: true, Gen: gen + 5}},
		{"a newer generation", bridge.InvalidatedMsg{Generation: gen + 6}, bridge.InvalidatedMsg{Generation: gen + 6},
			state{W: 80, H: 24, Shown: true, Gen: gen + 6}},
		{"the same generation again", bridge.InvalidatedMsg{Generation: gen + 6}, nil,
			state{W: 80, H: 24, Shown: true, Gen: gen + 6}},
		{"an older generation", bridge.InvalidatedMsg{Generation: gen}, nil,
			state{W: 80, H: 24, Shown: true, Gen: gen + 6}},
	}
	for _, s := range steps {
		left := b.Observe(s.msg)
		if !reflect.DeepEqual(left, s.left) {
			t.Errorf("%s: Observe left %#v, want %#v", s.name, left, s.left)
		}
		if got := stateOf(&b); got != s.then {
			t.Errorf("%s: base %+v, want %+v", s.name, got, s.then)
		}
	}
}

var lightGrey = color.RGBA{R: 0xee, G: 0xee, B: 0xee, A: 0xff}

// TestFirstShownWhileUp checks that the first ShownMsg of a page whose
// backend is up leaves the page a FirstShownMsg with Down false.
func TestFirstShownWhileUp(t *testing.T) {
	t.Parallel()
	fake := bridgetest.New(bridgetest.Options{})
	t.Cleanup(fake.Close)
	b := page.New(fake)
	if left := b.Observe(page.ShownMsg{}); left != (page.FirstShownMsg{}) || b.Down() || !b.Shown() {
		t.Fatalf("first shown: left %#v, down %v, shown %v", left, b.Down(), b.Shown())
	}
}

// TestAdvance checks that a report's generation moves the base forward
// only when it is newer.
func TestAdvance(t *testing.T) {
	t.Parallel()
	fake := bridgetest.New(bridgetest.Options{})
	t.Cleanup(fake.Close)
	b := page.New(fake)
	g := b.Gen()
	for _, tc := range []struct {
		gen   int64
		newer bool
		then  int64
	}{{g, false, g}, {g - 1, false, g}, {g + 2, true, g + 2}, {g + 1, false, g + 2}} {
		if got := b.Advance(tc.gen); got != tc.newer || b.Gen() != tc.then {
			t.Errorf("Advance(%d) = %v, gen %d; want %v, gen %d", tc.gen, got, b.Gen(), tc.newer, tc.then)
		}
	}
}

// TestSpinnerTurnsOnlyWhileBusy checks that the spinner moves on its own
// ticks while the page is busy and stops when it is not or the tick is
// another spinner's.
func TestSpinnerTurnsOnlyWhileBusy(t *testing.T) {
	t.Parallel()
	fake := bridgetest.New(bridgetest.Options{})
	t.Cleanup(fake.Close)
	b := page.New(fake)
	tick, ok := b.Spin()().(spinner.TickMsg)
	if !ok {
		t.Fatal("Spin's Cmd did not return a spinner tick")
	}
	first := b.Spinner()
	if b.Turn(tick, false) != nil || b.Spinner() != first {
		t.Fatal("the spinner turned while the page was not busy")
	}
	if b.Turn(tick, true) == nil || b.Spinner() == first {
		t.Fatal("the spinner did not turn on its own tick while busy")
	}
	other := page.New(fake)
	foreign := other.Spin()().(spinner.TickMsg)
	now := b.Spinner()
	if b.Turn(foreign, true) != nil || b.Spinner() != now {
		t.Fatal("the spinner turned on another spinner's tick")
	}
}
