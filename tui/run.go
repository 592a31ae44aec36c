package tui

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sys/unix"

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
	susp := &suspender{sig: make(chan os.Signal, 1), done: make(chan struct{})}
	p := tea.NewProgram(program{m: m, height: h, clock: clock, susp: susp}, opts...)
	clock.Attach(p)
	defer clock.Close()
	susp.start(p)
	defer susp.stop()
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
	susp   *suspender // nil: no suspending (tests drive the Model alone)
}

// Init implements tea.Model.
func (p program) Init() tea.Cmd { return p.m.Init() }

// Update implements tea.Model: an inline picker's pages are sized to its
// rows, not the terminal's.
func (p program) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case suspendMsg:
		if p.susp == nil {
			return p, nil
		}
		return p, p.susp.suspend()
	case tea.ResumeMsg:
		next, cmd := p.m.Update(msg)
		if nm, ok := next.(Model); ok {
			p.m = nm
		}
		if p.height.Full() {
			// The shell drew on the screen while the picker was stopped.
			cmd = tea.Batch(cmd, tea.ClearScreen)
		}
		return p, cmd
	}
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

// suspendMsg asks for the picker to be suspended: Ctrl-Z, or a SIGTSTP
// from outside.
type suspendMsg struct{}

// suspender suspends the picker for Ctrl-Z and for a SIGTSTP from outside
// (kill -TSTP; in raw mode the terminal sends Ctrl-Z to the picker as a
// key): the terminal given back, the process group stopped, and on
// SIGCONT (fg) the terminal taken again and repainted. Without it such a
// signal stopped the process with the terminal still raw and on the
// alternate screen, and fg left it unusable. SIGTSTP is caught for that,
// so the stop is SIGSTOP, which cannot be: once a Go program has caught
// SIGTSTP, the runtime keeps its handler and drops the signals nobody
// wants (signal.Reset does not bring the default stop back), which is why
// Bubble Tea's own tea.Suspend (a SIGTSTP) is not used.
type suspender struct {
	p    *tea.Program
	sig  chan os.Signal
	done chan struct{}
}

// start catches SIGTSTP for p.
func (s *suspender) start(p *tea.Program) {
	s.p = p
	signal.Notify(s.sig, syscall.SIGTSTP)
	go func() {
		for {
			select {
			case <-s.sig:
				p.Send(suspendMsg{})
			case <-s.done:
				return
			}
		}
	}()
}

// suspend is the Cmd that stops the process until it is continued, the
// terminal released meanwhile, and then says tea.ResumeMsg. It does
// nothing when the picker is not a job of its own: run by a shell's key
// binding (Ctrl-T's command substitution) it is in the shell's process
// group, the session leader's, and stopping that group would stop the
// shell, which would wait for the picker for ever.
func (s *suspender) suspend() tea.Cmd {
	if sid, err := unix.Getsid(0); err != nil || unix.Getpgrp() == sid {
		return nil
	}
	return func() tea.Msg {
		if err := s.p.ReleaseTerminal(); err != nil {
			return nil
		}
		cont := make(chan os.Signal, 1)
		signal.Notify(cont, syscall.SIGCONT)
		_ = syscall.Kill(0, syscall.SIGSTOP) // the job's whole process group, as the shell stops it
		<-cont
		signal.Stop(cont)
		_ = s.p.RestoreTerminal()
		return tea.ResumeMsg{}
	}
}

func (s *suspender) stop() {
	close(s.done)
	signal.Stop(s.sig)
}
