package sessions

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scoutdev/scout/backend/cursor"
	"github.com/scoutdev/scout/backend/wire"
)

// Config configures a Service.
type Config struct {
	// Home is the backend home ("" when it could not be determined: every
	// request then answers discovery_unavailable).
	Home string
	// Workspace is the workspace root, as the process saw its working
	// directory; it is canonicalized per request.
	Workspace string
	// Now is the clock for the busy hint (time.Now when nil).
	Now func() time.Time
	// Stores locates the other agents' stores (StoresFromEnv); the zero
	// Stores reads scout's own store only.
	Stores Stores
	// Sources narrows the sources read to these agents ([sessions] sources
	// in config.toml); nil reads every source whose store is known.
	Sources []string
	// Log receives the few diagnostics the stores give (a database of a
	// schema scout does not know); nil discards them.
	Log io.Writer
	// Step is session.discover's cooperative deadline per request
	// (StepDuration when zero); only a test hook changes it.
	Step time.Duration
}

// Service is the session feature of one backend child: the stores, the one
// discovery scan it may hold, and the attachment.
type Service struct {
	cfg     Config
	cursors *cursor.Codec

	mu       sync.Mutex // guards scan, scanSeq and the scan's cursor state
	scan     *scan
	scanSeq  uint64
	attached atomic.Pointer[attachment]
}

// attachment is the attached session and its identity: gen changes on
// every successful session.open or session.new, so a scan that started
// before notices the change even when the same id is attached again.
type attachment struct {
	wire.Attachment
	gen uint64
}

// New returns a Service for cfg.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Service{cfg: cfg, cursors: newCursorCodec()}
	s.attached.Store(&attachment{})
	return s
}

// Attachment reports the attached session, or nil. It never blocks: status
// calls it on the protocol loop.
func (s *Service) Attachment() *wire.Attachment {
	a := s.attached.Load()
	if a.gen == 0 {
		return nil
	}
	out := a.Attachment
	return &out
}

// attachGen is the attachment identity a scan compares before and after
// each step.
func (s *Service) attachGen() uint64 { return s.attached.Load().gen }

// attach makes a the attachment. It runs under the server's output lock
// (Call.OnCommit), so the change and the response are one step.
func (s *Service) attach(a wire.Attachment) {
	for {
		old := s.attached.Load()
		if s.attached.CompareAndSwap(old, &attachment{Attachment: a, gen: old.gen + 1}) {
			return
		}
	}
}

// protocolError maps an engine error to the protocol code of a listing
// request (list and discover). Errors that are not the engine's (cancellation)
// pass through for the server to map.
func protocolError(err error) error {
	switch err {
	case errUnavailable:
		return wire.NewError(wire.CodeDiscoveryUnavailable)
	case errRecordTooLarge:
		return wire.NewError(wire.CodeDiscoveryRecordBytes)
	case errRowTooLarge:
		return wire.NewError(wire.CodeDiscoveryPageBytes)
	case errStale:
		return wire.NewError(wire.CodeStaleRevision)
	}
	return err
}
