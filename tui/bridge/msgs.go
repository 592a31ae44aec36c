package bridge

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient"
)

// EventMsg is one event of the backend: a notification or the child's
// unexpected exit. The root model handles it, re-arms Listen, and hands the
// typed messages below to the pages.
type EventMsg struct {
	Child uint64
	// Invalidated is set for project_files.invalidated.
	Invalidated *wire.InvalidatedParams
	// Exit is set when the child died.
	Exit *rpcclient.ExitError
	// Closed is set when the event stream ended (the client was closed);
	// Listen must not be re-armed.
	Closed bool
}

// InvalidatedMsg tells pages that the visibility policy changed: drop every
// snapshot, listing and id of older generations and rescan.
type InvalidatedMsg struct {
	Generation int64
}

// DownMsg tells pages that the child died; calls fail until a restart.
type DownMsg struct {
	Err error
}

// RestartedMsg reports a restart (Err nil: the new child is ready; pages
// start over from its generation).
type RestartedMsg struct {
	Child uint64
	Init  wire.InitializeResult
	Err   error
}

// Listen waits for the next backend event and returns it as an EventMsg.
// The root model returns Listen again after handling each one (the
// self-re-arming pattern of Bubble Tea's realtime example).
func Listen(b Backend) tea.Cmd {
	ch := b.Events()
	return func() tea.Msg {
		e, ok := <-ch
		if !ok {
			return EventMsg{Closed: true}
		}
		msg := EventMsg{Child: e.Child, Exit: e.Exit}
		if e.Method == wire.NotifyProjectInvalidated {
			var p wire.InvalidatedParams
			if wire.Unmarshal(e.Params, &p) == nil {
				msg.Invalidated = &p
			}
		}
		return msg
	}
}

// restartTimeout bounds a restart: spawning and initializing a child takes
// milliseconds, so a restart still running after this is stuck.
const restartTimeout = 15 * time.Second

// Restart replaces the child and reports the outcome as a RestartedMsg.
func Restart(b Backend) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), restartTimeout)
		defer cancel()
		if err := b.Restart(ctx); err != nil {
			return RestartedMsg{Err: err}
		}
		return RestartedMsg{Child: b.Child(), Init: b.Init()}
	}
}
