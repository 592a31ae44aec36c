package backend

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/scoutdev/scout/backend/server"
	"github.com/scoutdev/scout/backend/sessions"
	"github.com/scoutdev/scout/backend/wire"
)

// newSessions builds the session feature on the backend home the workspace
// state resolved (config.HomeDir: one rule for every feature), the other
// agents' stores where their variables (else their defaults below the
// user's home) put them, narrowed by [sessions] sources. A home that
// cannot be determined, or a broken config.toml (whose [sessions] sources
// cannot be known: reading every store instead could read one the person
// left out), leaves the feature registered with no store; its requests
// then answer discovery_unavailable (or session_invalid for an exact
// open).
func newSessions(opts Options, ws *workspaceState) *sessions.Service {
	home, stores := ws.home, sessions.StoresFromEnv(opts.Getenv, ws.userHome)
	switch {
	case ws.home == "":
		fmt.Fprintln(opts.Stderr, "scout backend: the backend home cannot be determined; sessions are unavailable")
	case ws.broken: // already said, with why
		home, stores = "", sessions.Stores{}
	}
	return sessions.New(sessions.Config{
		Home: home, Workspace: opts.Workspace,
		Stores:  stores,
		Sources: ws.user.Sessions.Sources,
		Log:     opts.Stderr,
		Step:    debugDuration(opts.Getenv, debugDiscoverStepEnv),
	})
}

// debugDiscoverStepEnv, with server.DebugEnv set to "1" (tests only),
// replaces session.discover's 2,000 ms step deadline by that many
// milliseconds, so a test of the other step bounds is not cut short by
// the deadline on a loaded machine.
const debugDiscoverStepEnv = "SCOUT_DEBUG_DISCOVER_STEP_MS"

// debugDuration is the debug hook name's milliseconds, or zero unless
// server.DebugEnv is "1" and the value a positive integer.
func debugDuration(getenv func(string) string, name string) time.Duration {
	if getenv(server.DebugEnv) != "1" {
		return 0
	}
	ms, err := strconv.Atoi(getenv(name))
	if err != nil || ms <= 0 {
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}

// registerSessions adds session.list, session.discover, session.open and
// session.new (docs/protocol.md §6).
func registerSessions(srv *server.Server, svc *sessions.Service) {
	srv.Register(&server.Method{
		Name: wire.MethodSessionList, Kind: server.KindCatalog, LongRunning: true,
		Handle: func(ctx context.Context, c *server.Call) (any, error) { return svc.List(ctx) },
	})
	srv.Register(&server.Method{
		Name: wire.MethodSessionDiscover, Kind: server.KindDiscover, LongRunning: true,
		Extension: func(e *wire.Extensions) {
			ext := wire.DefaultDiscoverExtension
			e.SessionDiscover = &ext
		},
		NewParams: func() any { return new(wire.CursorParams) },
		Handle: func(ctx context.Context, c *server.Call) (any, error) {
			res, commit, err := svc.Discover(ctx, c.Params.(*wire.CursorParams).Cursor)
			return committed(c, res, commit, err)
		},
	})
	srv.Register(&server.Method{
		Name: wire.MethodSessionOpen, Kind: server.KindSelection,
		NewParams: func() any { return new(wire.SessionOpenParams) },
		Handle: func(ctx context.Context, c *server.Call) (any, error) {
			p := c.Params.(*wire.SessionOpenParams)
			res, commit, err := svc.Open(ctx, *p.ID, p.AgentName())
			return committed(c, res, commit, err)
		},
	})
	srv.Register(&server.Method{
		Name: wire.MethodSessionNew, Kind: server.KindSelection,
		Handle: func(ctx context.Context, c *server.Call) (any, error) {
			res, commit := svc.NewSession()
			return committed(c, res, commit, nil)
		},
	})
}

// committed makes commit run atomically with writing res: a concurrent
// operation.cancel either wins completely (commit never runs) or loses
// completely.
func committed[T any](c *server.Call, res *T, commit func(), err error) (any, error) {
	if err != nil {
		return nil, err
	}
	if commit != nil {
		c.OnCommit(func() error { commit(); return nil })
	}
	return res, nil
}
