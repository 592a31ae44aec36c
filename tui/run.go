package tui

import (
	"context"
	"errors"
	"io"

	tea "charm.land/bubbletea/v2"
)

// Run runs the picker with its input and output on the terminal (in, out:
// normally /dev/tty, so stdout is left for the result) until it ends, and
// returns how it ended. Bubble Tea restores the terminal on every way out,
// a panic in Update, View or a Cmd included (Run then returns an error).
func Run(ctx context.Context, m Model, in io.Reader, out io.Writer, opts ...tea.ProgramOption) (Outcome, error) {
	opts = append([]tea.ProgramOption{tea.WithInput(in), tea.WithOutput(out), tea.WithContext(ctx)}, opts...)
	final, err := tea.NewProgram(m, opts...).Run()
	switch {
	case errors.Is(err, tea.ErrInterrupted):
		return Outcome{Cancelled: true}, nil
	case errors.Is(err, tea.ErrProgramPanic):
		return Outcome{}, errors.New("internal error: the picker panicked (the terminal was restored)")
	case err != nil:
		return Outcome{}, err
	}
	fm, ok := final.(Model)
	if !ok {
		return Outcome{}, errors.New("internal error: the picker ended without its model")
	}
	return fm.Outcome(), nil
}
