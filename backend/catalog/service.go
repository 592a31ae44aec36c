package catalog

import (
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Options configure a Service.
type Options struct {
	// Home is the backend home.
	Home string
	// Providers are the configured providers, in configuration order.
	Providers []Provider
	// EnrichmentURL is the models.dev-shaped document to enrich refreshed
	// catalogs from ("" turns enrichment off).
	EnrichmentURL string
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// Log receives diagnostics without paths, URLs or keys (discarded when nil).
	Log io.Writer
	// Now is the clock for fetched_at (time.Now when nil).
	Now func() time.Time
	// HTTP overrides the catalog HTTP client's transport settings (tests).
	HTTP *HTTPOptions
	// EnableStall makes model.enable wait this long (cancellably) before
	// writing, so tests can cancel one in flight (the backend sets it only
	// for the test-only debug environment).
	EnableStall time.Duration
}

// Service holds the providers, the current snapshot and the refresh
// machinery of one backend process. It is safe for concurrent use.
type Service struct {
	home          Home
	providers     []Provider
	byID          map[string]*Provider
	enrichmentURL string
	getenv        func(string) string
	log           io.Writer
	now           func() time.Time
	cursors       cursors
	http          *fetcher
	enableStall   time.Duration

	mu      sync.Mutex // guards the fields below
	lastRev uint64     // the last revision number handed out
	current *snapshot  // the current snapshot, nil when invalidated
	epoch   uint64     // advanced by every admitted refresh
}

// New returns a Service. The providers are used as given; the backend
// validated them when it loaded the configuration.
func New(opts Options) *Service {
	s := &Service{
		home: Home{Dir: opts.Home}, providers: append([]Provider(nil), opts.Providers...),
		enrichmentURL: opts.EnrichmentURL, getenv: opts.Getenv, log: opts.Log, now: opts.Now,
		byID: map[string]*Provider{}, enableStall: opts.EnableStall,
	}
	if s.getenv == nil {
		s.getenv = os.Getenv
	}
	if s.log == nil {
		s.log = io.Discard
	}
	if s.now == nil {
		s.now = time.Now
	}
	for i := range s.providers {
		p := &s.providers[i]
		p.EnabledModels = slices.Clone(p.EnabledModels)
		s.byID[p.ID] = p
	}
	s.cursors.secret = make([]byte, 32)
	if _, err := rand.Read(s.cursors.secret); err != nil {
		panic("catalog: no randomness for the cursor secret")
	}
	s.http = newFetcher(opts.HTTP)
	s.applyEnabled()
	return s
}

func (s *Service) logf(format string, args ...any) {
	fmt.Fprintf(s.log, "scout backend: catalog: "+format+"\n", args...)
}

// Provider returns the configured provider with id, or nil.
func (s *Service) Provider(id string) *Provider { return s.byID[id] }

// beginScan hands out the next revision and the epoch a scan starts in.
func (s *Service) beginScan() (rev, epoch uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastRev++
	return s.lastRev, s.epoch
}

// install makes snap current unless a newer revision was installed or a
// refresh was admitted since the scan began; such a snapshot is born stale
// (its cursors and guard answer stale_revision / selection_stale).
func (s *Service) install(snap *snapshot, epoch uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if epoch == s.epoch && (s.current == nil || s.current.rev < snap.rev) {
		s.current = snap
	}
}

// invalidate drops the current snapshot: an admitted refresh does this.
func (s *Service) invalidate() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epoch++
	s.current = nil
}

// abandon drops the current snapshot when it is revision rev: a cancelled
// request abandons the revision it held.
func (s *Service) abandon(rev uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.current != nil && s.current.rev == rev {
		s.current = nil
	}
}

// currentRevision returns the current snapshot if its revision is revision.
func (s *Service) currentRevision(revision string) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.current == nil || s.current.revision != revision {
		return nil
	}
	return s.current
}

func revisionName(rev uint64) string { return "c" + strconv.FormatUint(rev, 10) }
