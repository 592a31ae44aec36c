// Package fakeprovider is a scripted model provider on 127.0.0.1 for tests
// and for `scout demo`: one HTTP server that answers every provider type's
// models endpoint (GET /models in the OpenAI and Anthropic shapes, GET
// /api/tags in ollama's) and serves enrichment documents, each scenario
// under its own base URL:
//
//	srv, err := fakeprovider.Start()
//	defer srv.Close()
//	base := srv.Add("ok", fakeprovider.Success("gpt-5", "gpt-5-mini"))
//	// base_url = base  (http://127.0.0.1:PORT/s/ok)
//
// A base URL may also end in /v1 (OPENAI_BASE_URL's shape; scout adds it
// to ANTHROPIC_BASE_URL): /v1/models is /models. Root makes the server's
// root answer as one scenario, for a base URL without a path (OLLAMA_HOST's
// host:port).
//
// A request carrying an anthropic-version header gets Anthropic's shape
// (display names, has_more, last_id, paging by after_id and limit); any
// other request to /models gets OpenAI's. A scenario with a Key answers 401
// unless the request carries it (as a Bearer token or x-api-key).
//
// The server never listens on anything but 127.0.0.1.
package fakeprovider

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Model is one model a scenario lists.
type Model struct {
	ID   string
	Name string // display name (Anthropic shape only)
}

// Scenario is what one base URL does. The zero value lists no models.
type Scenario struct {
	// Models are listed on success.
	Models []Model
	// Numbered, when positive and Models is nil, lists that many
	// Numbered models, made when a list is answered (TooMany's 2,049
	// would otherwise be made at every scout start: `scout demo` links
	// this package).
	Numbered int
	// Key, when set, is required (401 otherwise).
	Key string
	// Status, when not 0 or 200, is answered instead of the list.
	Status int
	// Body, when set, is answered (with Status or 200) instead of the list.
	Body []byte
	// Delay is waited before answering; the wait ends early when the client
	// goes away or the server closes.
	Delay time.Duration
	// Hang never answers: the handler returns only when the client goes
	// away or the server closes.
	Hang bool
	// Oversize, when positive, answers a valid model list padded to this
	// many bytes.
	Oversize int
	// PageSize, when positive, pages the Anthropic shape this many models
	// at a time.
	PageSize int
	// RedirectCrossOrigin answers 302 to the same path on the server's
	// second listener (another port: another origin).
	RedirectCrossOrigin bool
	// RedirectSameOrigin answers 302 to the named scenario on this origin.
	RedirectSameOrigin string
	// Reset closes the connection without an answer (a TCP reset).
	Reset bool
}

// Request is what the server saw of one request.
type Request struct {
	Path       string
	Query      string
	Bearer     string // the Authorization Bearer token, if any
	APIKey     string // x-api-key, if any
	APIVersion string // anthropic-version, if any
}

// Server is a running fake provider.
type Server struct {
	main, other *http.Server
	mainURL     string
	otherURL    string
	done        chan struct{}

	mu        sync.Mutex
	root      string // the scenario answering outside /s/ ("" for none)
	scenarios map[string]Scenario
	requests  map[string][]Request
	wg        sync.WaitGroup
}

// Start listens on two ports of 127.0.0.1 (the second one is the "other
// origin" of cross-origin redirects) and serves until Close.
func Start() (*Server, error) {
	s := &Server{scenarios: map[string]Scenario{}, requests: map[string][]Request{}, done: make(chan struct{})}
	l1, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	l2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		l1.Close()
		return nil, err
	}
	s.mainURL, s.otherURL = "http://"+l1.Addr().String(), "http://"+l2.Addr().String()
	s.main = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	s.other = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go s.main.Serve(l1)
	go s.other.Serve(l2)
	return s, nil
}

// Close stops the server, ending hanging and delayed answers.
func (s *Server) Close() {
	close(s.done)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.main.Shutdown(ctx)
	s.other.Shutdown(ctx)
	s.main.Close()
	s.other.Close()
	s.wg.Wait()
}

// Add installs scenario sc under name (letters, digits, "-", "_") and
// returns its base URL. Adding a name again replaces the scenario.
func (s *Server) Add(name string, sc Scenario) string {
	if name == "" || strings.ContainsAny(name, "/?#% ") {
		panic("fakeprovider: bad scenario name " + name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scenarios[name] = sc
	return s.URL(name)
}

// Root makes requests outside /s/ go to scenario name and returns the
// server's host:port (what OLLAMA_HOST holds without a scheme).
func (s *Server) Root(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.root = name
	return strings.TrimPrefix(s.mainURL, "http://")
}

// URL is the base URL of scenario name.
func (s *Server) URL(name string) string { return s.mainURL + "/s/" + name }

// UnreachableURL returns a base URL on 127.0.0.1 where nothing listens (a
// port that was bound and released), for the "refused connection" case.
func UnreachableURL() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1", nil
}

// Requests returns what scenario name was asked so far.
func (s *Server) Requests(name string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests[name]...)
}

// serve routes /s/<name>/<rest> to the scenario.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.wg.Add(1)
	defer s.wg.Done()
	s.mu.Lock()
	name, rest, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/s/"), "/")
	if !strings.HasPrefix(r.URL.Path, "/s/") {
		name, rest, ok = s.root, strings.TrimPrefix(r.URL.Path, "/"), s.root != ""
	}
	if !ok {
		s.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	sc, known := s.scenarios[name]
	s.requests[name] = append(s.requests[name], Request{
		Path: "/" + rest, Query: r.URL.RawQuery, APIKey: r.Header.Get("x-api-key"),
		Bearer: strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), APIVersion: r.Header.Get("anthropic-version"),
	})
	s.mu.Unlock()
	if !known {
		http.NotFound(w, r)
		return
	}
	rest = "/" + rest
	if strings.HasPrefix(rest, "/v1/") {
		rest = rest[len("/v1"):]
	}
	s.answer(w, r, name, rest, sc)
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, name, rest string, sc Scenario) {
	if sc.Hang || sc.Delay > 0 {
		if !s.wait(r.Context(), sc) {
			return
		}
	}
	switch {
	case sc.Reset:
		reset(w)
		return
	case sc.RedirectCrossOrigin:
		http.Redirect(w, r, s.otherURL+"/s/"+name+rest, http.StatusFound)
		return
	case sc.RedirectSameOrigin != "":
		http.Redirect(w, r, s.URL(sc.RedirectSameOrigin)+rest, http.StatusFound)
		return
	case sc.Key != "" && r.Header.Get("x-api-key") != sc.Key && r.Header.Get("Authorization") != "Bearer "+sc.Key:
		writeJSON(w, http.StatusUnauthorized, []byte(`{"error":{"message":"invalid key"}}`))
		return
	case sc.Body != nil:
		writeJSON(w, statusOr200(sc.Status), sc.Body)
		return
	case sc.Status != 0 && sc.Status != http.StatusOK:
		writeJSON(w, sc.Status, []byte(fmt.Sprintf(`{"error":{"code":%d}}`, sc.Status)))
		return
	}
	body, err := listBody(r, rest, sc)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	writeJSON(w, http.StatusOK, body)
}

// wait sleeps for the scenario's delay (forever when it hangs) and reports
// whether to answer afterwards.
func (s *Server) wait(ctx context.Context, sc Scenario) bool {
	var timer <-chan time.Time
	if !sc.Hang {
		t := time.NewTimer(sc.Delay)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-timer:
		return true
	case <-ctx.Done():
	case <-s.done:
	}
	return false
}

func statusOr200(code int) int {
	if code == 0 {
		return http.StatusOK
	}
	return code
}

func writeJSON(w http.ResponseWriter, code int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(body)
}

// reset closes the connection with SO_LINGER 0, which sends a TCP reset.
func reset(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

var errNoRoute = errors.New("no such endpoint")
