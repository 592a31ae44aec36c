// Package bridge is the frontend's link to the backend child: the Backend
// interface every page calls through, the capabilities the picker
// negotiates, and the tea.Cmds that turn calls, notifications and exits
// into typed messages. Nothing here blocks Update: each Cmd runs in Bubble
// Tea's goroutines and returns one message.
//
// The real Backend is *rpcclient.Client; tests use bridgetest.Fake, a
// scripted in-process backend.
package bridge

import (
	"context"
	"slices"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient"
)

// Backend is what the frontend needs from the backend child. Pages that
// need more methods (sessions, catalog) add them here, implemented on
// *rpcclient.Client and on bridgetest.Fake.
type Backend interface {
	// Init is the current child's initialize result: negotiated
	// capabilities, limits and the starting generation.
	Init() wire.InitializeResult
	// Child numbers the current child; events of older children are stale.
	Child() uint64
	// Events delivers notifications and unexpected exits of every child.
	Events() <-chan rpcclient.Event
	// Restart replaces the child with a new, initialized one.
	Restart(ctx context.Context) error

	// ProjectFiles is project.files: a fresh snapshot.
	ProjectFiles(ctx context.Context) (wire.ProjectFilesResult, error)
	// ProjectList is project.list: one page of one folder.
	ProjectList(ctx context.Context, ref string, limit int) (wire.ListResult, error)
	// ProjectRead is project.read: the head of one file.
	ProjectRead(ctx context.Context, ref string, maxBytes int) (wire.ReadResult, error)
}

var _ Backend = (*rpcclient.Client)(nil)

// Required are the capabilities the picker cannot work without.
var Required = []string{wire.MethodProjectFiles}

// Optional are the capabilities the picker uses when the backend offers
// them: lazy folders and the preview (project.list, project.read) and
// cancellation of stale previews and scans (operation.cancel).
var Optional = []string{wire.MethodProjectList, wire.MethodProjectRead, wire.MethodCancel}

// Negotiated reports whether every one of caps was negotiated with the
// current child.
func Negotiated(b Backend, caps ...string) bool {
	got := b.Init().Negotiated
	for _, c := range caps {
		if !slices.Contains(got, c) {
			return false
		}
	}
	return true
}
