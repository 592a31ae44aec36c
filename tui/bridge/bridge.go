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
// need more methods add them here, implemented on *rpcclient.Client (typed
// wrappers, one file per concern) and on bridgetest.Fake.
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
	// ProjectIndex is project.index: one page of the walk of the whole
	// tree (cursor nil: a fresh walk).
	ProjectIndex(ctx context.Context, cursor *string) (wire.ProjectIndexResult, error)
	// ProjectList is project.list: one page of one folder.
	ProjectList(ctx context.Context, ref string, limit int) (wire.ListResult, error)
	// ProjectRead is project.read: the head of one file.
	ProjectRead(ctx context.Context, ref string, maxBytes int) (wire.ReadResult, error)

	// SessionDiscover is session.discover: one page of the incremental
	// scan (cursor nil: a fresh scan).
	SessionDiscover(ctx context.Context, cursor *string) (wire.DiscoverResult, error)
	// SessionOpen is session.open: the exact open of session id of agent.
	SessionOpen(ctx context.Context, id, agent string) (wire.SessionOpenResult, error)

	// ModelCatalog is model.catalog: one page of the choices (cursor nil:
	// a fresh revision).
	ModelCatalog(ctx context.Context, cursor *string) (wire.CatalogResult, error)
	// ModelCatalogStatus is model.catalog.status: one page, the providers'
	// status on the first.
	ModelCatalogStatus(ctx context.Context, cursor *string) (wire.CatalogStatusResult, error)
	// ModelRefresh is model.refresh of one provider.
	ModelRefresh(ctx context.Context, provider string) (wire.RefreshResult, error)
	// ModelSelect is model.select under the guard revision.
	ModelSelect(ctx context.Context, provider, model string, effort *string, revision string) (wire.SelectResult, error)
	// ModelEnable is model.enable: a model enabled or disabled, applied by
	// the next child.
	ModelEnable(ctx context.Context, provider, model string, enabled bool) (wire.EnableResult, error)
	// ModelCatalogModels is model.catalog.models: one page of every cached
	// model with its enabled state (cursor nil: a fresh revision).
	ModelCatalogModels(ctx context.Context, cursor *string) (wire.ModelsResult, error)
}

var _ Backend = (*rpcclient.Client)(nil)

// Required are the capabilities every picker needs, whichever tab it
// opens on: the Files page's snapshot.
var Required = []string{wire.MethodProjectFiles}

// Sessions are the Sessions page's capabilities: discovery and the exact
// open.
var Sessions = []string{wire.MethodSessionDiscover, wire.MethodSessionOpen}

// Providers are the Providers page's capabilities: status and choices,
// the deliberate refresh, the deliberate selection, enabling models and the
// list of every cached model.
var Providers = []string{
	wire.MethodModelCatalog, wire.MethodModelCatalogStatus, wire.MethodModelRefresh, wire.MethodModelSelect,
	wire.MethodModelEnable, wire.MethodModelCatalogModels,
}

// Optional are the capabilities the picker uses when the backend offers
// them: the whole tree after a truncated snapshot (project.index), lazy
// folders and the preview (project.list, project.read), cancellation of
// stale work (operation.cancel), and the other tabs' capabilities (a tab
// whose capabilities were not negotiated says so).
var Optional = slices.Concat([]string{wire.MethodProjectIndex, wire.MethodProjectList, wire.MethodProjectRead, wire.MethodCancel}, Sessions, Providers)

// Negotiation returns the capabilities of a picker that opens on a tab
// needing tab: Required plus tab are required, the rest of Optional is
// negotiated when offered.
func Negotiation(tab []string) (required, optional []string) {
	required = slices.Concat(Required, tab)
	for _, c := range Optional {
		if !slices.Contains(required, c) {
			optional = append(optional, c)
		}
	}
	return required, optional
}

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
