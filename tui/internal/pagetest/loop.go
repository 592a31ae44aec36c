package pagetest

import (
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// Loop follows a program's event loop through its message filter, for a
// harness that records what it sees of the model before each message. It
// waits for events instead of sleeping:
//
//   - Started returns once the program has had the messages Bubble Tea
//     sends by itself at start, so none of them arrives after a test's own
//     and undoes it. teatest sends the initial size before NewTestModel
//     returns, but Program.Run sends it again, and the colour profile, from
//     goroutines of their own.
//   - Until sends a probe, a message only the filter sees: when the probe
//     reaches the filter, the record is of the model after every message
//     sent before it. While the condition does not hold it waits for the
//     next message before probing again.
//   - Handled waits for a message the program got from elsewhere (a
//     command's answer, say) to have been handled, for a test that checks
//     what that message did not change.
type Loop struct {
	record func(tea.Model)
	// moved holds a token when a message other than a probe has passed
	// since the last probe.
	moved   chan struct{}
	started chan struct{}
	// On the event loop: the start-up messages seen so far, and whether
	// started is closed.
	sizes, profiles int
	isStarted       bool

	mu   sync.Mutex
	msgs []tea.Msg // every message but probes, for Handled
}

// probe is the message Until sends: the filter closes seen and drops it.
type probe struct{ seen chan struct{} }

// NewLoop returns a Loop that calls record, on the event loop, with the
// model before every message.
func NewLoop(record func(tea.Model)) *Loop {
	return &Loop{record: record, moved: make(chan struct{}, 1), started: make(chan struct{})}
}

// Filter is the program's message filter (tea.WithFilter).
func (l *Loop) Filter(m tea.Model, msg tea.Msg) tea.Msg {
	l.record(m)
	switch msg := msg.(type) {
	case probe:
		close(msg.seen)
		return nil
	case tea.WindowSizeMsg:
		l.sizes++
	case tea.ColorProfileMsg:
		l.profiles++
	}
	if !l.isStarted && l.sizes >= 2 && l.profiles >= 1 {
		l.isStarted = true
		close(l.started)
	}
	l.mu.Lock()
	l.msgs = append(l.msgs, msg)
	l.mu.Unlock()
	select {
	case l.moved <- struct{}{}:
	default:
	}
	return msg
}

// Started waits until the start-up messages have passed the filter: the
// initial size twice (teatest's and the program's) and the colour profile.
// It reports false when they have not by deadline.
func (l *Loop) Started(deadline time.Time) bool {
	select {
	case <-l.started:
		return true
	case <-time.After(time.Until(deadline)):
		return false
	}
}

// Until probes tm until check, called after each probe has passed, holds,
// and reports whether it did by deadline. Between probes it waits for a
// message, so check must turn on what messages change: the model, or what
// a command changes before its message comes.
func (l *Loop) Until(tm *teatest.TestModel, deadline time.Time, check func() bool) bool {
	timeout := time.After(time.Until(deadline))
	for {
		p := probe{seen: make(chan struct{})}
		tm.Send(p)
		select {
		case <-p.seen:
		case <-timeout:
			return false
		}
		if check() {
			return true
		}
		select {
		case <-l.moved:
		case <-timeout:
			return false
		}
	}
}

// Handled waits until a message for which match holds has passed the
// filter (at any time since the program started) and has been handled,
// and reports whether it had by deadline.
func (l *Loop) Handled(tm *teatest.TestModel, deadline time.Time, match func(tea.Msg) bool) bool {
	return l.Until(tm, deadline, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return slices.ContainsFunc(l.msgs, match)
	})
}
