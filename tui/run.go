package tui

import (
	"context"
	"errors"
	"io"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/tui/internal/frameclock"
)

// Run runs the picker with its input and output on the terminal (in, out:
// normally /dev/tty, so stdout is left for the result) until it ends, and
// returns how it ended. With a zero height the picker takes the whole
// screen (the alternate screen); otherwise it is drawn inline, in that
// many rows under the cursor, and what was on the screen above stays
// (Height). Bubble Tea restores the terminal on every way out, a panic in
// Update, View or a Cmd included (Run then returns an error).
//
// While nothing changes the program uses almost no CPU: Bubble Tea's
// frame ticker is slowed to once a second after the last frame and sped
// up again by the next one (frameclock.Clock).
func Run(ctx context.Context, m Model, h Height, in io.Reader, out io.Writer, opts ...tea.ProgramOption) (Outcome, error) {
	clock := &frameclock.Clock{}
	opts = append([]tea.ProgramOption{tea.WithInput(in), tea.WithOutput(out), tea.WithContext(ctx)}, opts...)
	p := tea.NewProgram(program{m: m, height: h, clock: clock}, opts...)
	clock.Attach(p)
	defer clock.Close()
	final, err := p.Run()
	switch {
	case errors.Is(err, tea.ErrInterrupted):
		return Outcome{Cancelled: true}, nil
	case errors.Is(err, tea.ErrProgramPanic):
		return Outcome{}, errors.New("internal error: the picker panicked (the terminal was restored)")
	case err != nil:
		return Outcome{}, err
	}
	fm, ok := final.(program)
	if !ok {
		return Outcome{}, errors.New("internal error: the picker ended without its model")
	}
	return fm.m.Outcome(), nil
}

// program is the root model as Run runs it: inline in its rows when a
// height is given, and waking the frame clock on every frame.
type program struct {
	m      Model
	height Height
	clock  *frameclock.Clock
}

// Init implements tea.Model.
func (p program) Init() tea.Cmd { return p.m.Init() }

// Update implements tea.Model: an inline picker's pages are sized to its
// rows, not the terminal's.
func (p program) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok && !p.height.Full() {
		ws.Height = p.height.Rows(ws.Height)
		msg = ws
	}
	next, cmd := p.m.Update(msg)
	if nm, ok := next.(Model); ok {
		p.m = nm
	}
	return p, cmd
}

// View implements tea.Model.
func (p program) View() tea.View {
	p.clock.Wake()
	v := p.m.View()
	if !p.height.Full() {
		v.AltScreen = false
		v.WindowTitle = "" // an inline picker leaves the terminal's title alone
	}
	return v
}
