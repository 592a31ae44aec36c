// Package backend assembles `scout backend`: the protocol server of
// backend/server with every feature's methods registered. Each feature wires
// itself in its own file of this package (files, sessions, catalog), so the
// features stay independent of one another and of the protocol layer.
package backend

import (
	"io"
	"os"

	"github.com/scoutdev/scout/backend/server"
	"github.com/scoutdev/scout/backend/wire"
)

// Version is the backend's version, reported by initialize and `scout version`.
const Version = "0.1.0"

// Options configure one backend process.
type Options struct {
	// Workspace is the workspace root (the process's working directory).
	Workspace string
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// Stderr receives diagnostics.
	Stderr io.Writer
}

// Run serves the protocol on in/out until shutdown or end of input.
func Run(opts Options, in io.Reader, out io.Writer) error {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	ff := newFilesFeature(loadWorkspace(opts.Workspace, opts.Getenv, opts.Stderr), opts.Getenv)
	sessions := newSessions(opts, ff.ws)
	srv := server.New(server.Options{
		Info:      wire.ServerInfo{Name: "scout", Version: Version},
		Log:       opts.Stderr,
		Workspace: ff.ws.workspace,
		// The attachment is the session feature's (session.open/new).
		Attachment: sessions.Attachment,
	})
	ff.register(srv)
	registerSessions(srv, sessions)
	if opts.Getenv(server.DebugEnv) == "1" {
		srv.RegisterDebug()
	}
	registerCatalog(srv, opts, ff.ws)
	return srv.Serve(in, out)
}
