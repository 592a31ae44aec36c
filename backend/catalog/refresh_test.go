package catalog

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
)

// refreshReason runs the refresh phases against a provider and returns the
// reason word ("" on success).
func refreshReason(t *testing.T, s *Service, id string) string {
	t.Helper()
	err := s.refreshCache(context.Background(), s.byID[id])
	if err != nil && ReasonOf(err) == "" {
		t.Fatalf("refresh of %s failed without a reason: %v", id, err)
	}
	return ReasonOf(err)
}

func TestRefreshReasons(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	long := strings.Repeat("n", 250)
	bigModels := make([]fakeprovider.Model, MaxModels)
	for i := range bigModels {
		bigModels[i] = fakeprovider.Model{ID: strings.Repeat("i", 240) + itoa(i), Name: long}
	}
	refused, err := fakeprovider.UnreachableURL()
	if err != nil {
		t.Fatal(err)
	}
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	scenarios := map[string]fakeprovider.Scenario{
		"ok":          fakeprovider.Success("m1", "m2", "m1"),
		"keyed":       {Models: fakeprovider.Models("m1"), Key: "k"},
		"unauth":      fakeprovider.Unauthorized,
		"forbidden":   fakeprovider.Forbidden,
		"notfound":    fakeprovider.NotFound,
		"ratelimited": fakeprovider.RateLimited,
		"server":      fakeprovider.ServerError,
		"teapot":      {Status: http.StatusTeapot},
		"badrequest":  {Status: http.StatusBadRequest},
		"moved":       {Status: http.StatusNotModified},
		"empty":       fakeprovider.Empty,
		"invalidjson": fakeprovider.InvalidJSON,
		"wrongshape":  fakeprovider.WrongShape,
		"unsafeid":    {Body: []byte(`{"data":[{"id":"a\u0000b"}]}`)},
		"nullid":      {Body: []byte(`{"data":[{"id":null}]}`)},
		"notobject":   {Body: []byte(`[{"id":"m"}]`)},
		"oversized":   fakeprovider.Oversized,
		"toomany":     fakeprovider.TooMany,
		"bigcache":    {Models: bigModels},
		"crossorigin": fakeprovider.CrossOrigin,
		"sameorigin":  {RedirectSameOrigin: "ok"},
		"reset":       fakeprovider.Reset,
		"hanging":     fakeprovider.Hanging,
		"slowbody":    fakeprovider.Slow(2*time.Second, "m1"),
	}
	var providers []Provider
	add := func(id, typ, base string, mod func(*Provider)) {
		p := Provider{ID: id, Type: typ, BaseURL: base, APIKeyEnv: "KEY"}
		if mod != nil {
			mod(&p)
		}
		providers = append(providers, p)
	}
	for name, sc := range scenarios {
		add(name, TypeOpenAI, fake.Add(name, sc), nil)
	}
	add("nokey", TypeOpenAI, fake.URL("ok"), func(p *Provider) { p.APIKeyEnv = "MISSING" })
	add("blankkey", TypeOpenAI, fake.URL("ok"), func(p *Provider) { p.APIKeyEnv = "BLANK" })
	add("nofile", TypeOpenAI, fake.URL("ok"), func(p *Provider) { p.APIKeyEnv, p.CredentialFile = "", filepath.Join(t.TempDir(), "none") })
	add("nocredential", TypeAnthropic, fake.URL("ok"), func(p *Provider) { p.APIKeyEnv = "" })
	add("badurl", TypeOpenAI, "ftp://127.0.0.1/v1", nil)
	add("nohost", TypeOpenAI, "http://"+strings.TrimPrefix(fake.URL("ok"), "http://127.0.0.1"), nil) // http://:port/...: no host, only a port
	add("badtype", "gopher", fake.URL("ok"), nil)
	add("refused", TypeOpenAI, refused, nil)
	add("tls", TypeOpenAI, tlsSrv.URL, nil)
	add("timeout", TypeOpenAI, fake.URL("hanging"), func(p *Provider) { p.RefreshTimeout = 200 * time.Millisecond })
	add("slowtimeout", TypeOpenAI, fake.URL("slowbody"), func(p *Provider) { p.RefreshTimeout = 200 * time.Millisecond })
	add("ollama", TypeOllama, fake.URL("ok"), func(p *Provider) { p.APIKeyEnv = "" })
	add("compatible-nokey", TypeOpenAICompatible, fake.URL("ok"), func(p *Provider) { p.APIKeyEnv = "" })
	s, _ := newService(t, Options{Getenv: env{"KEY": "k", "BLANK": "  "}.get}, providers...)

	want := map[string]string{
		"ok": "", "keyed": "", "sameorigin": "", "ollama": "", "compatible-nokey": "",
		"unauth":       wire.ReasonAuthenticationRejected,
		"forbidden":    wire.ReasonAuthenticationRejected,
		"notfound":     wire.ReasonConfigurationInvalid,
		"badurl":       wire.ReasonConfigurationInvalid,
		"nohost":       wire.ReasonConfigurationInvalid,
		"badtype":      wire.ReasonConfigurationInvalid,
		"ratelimited":  wire.ReasonRateLimited,
		"server":       wire.ReasonRemoteUnavailable,
		"teapot":       wire.ReasonRemoteUnavailable,
		"badrequest":   wire.ReasonRemoteUnavailable,
		"moved":        wire.ReasonRemoteUnavailable,
		"crossorigin":  wire.ReasonRemoteUnavailable,
		"reset":        wire.ReasonRemoteUnavailable,
		"refused":      wire.ReasonRemoteUnavailable,
		"tls":          wire.ReasonRemoteUnavailable,
		"timeout":      wire.ReasonRemoteTimeout,
		"slowtimeout":  wire.ReasonRemoteTimeout,
		"empty":        wire.ReasonEmptyCatalog,
		"invalidjson":  wire.ReasonInvalidCatalog,
		"wrongshape":   wire.ReasonInvalidCatalog,
		"unsafeid":     wire.ReasonInvalidCatalog,
		"nullid":       wire.ReasonInvalidCatalog,
		"notobject":    wire.ReasonInvalidCatalog,
		"oversized":    wire.ReasonCatalogLimit,
		"toomany":      wire.ReasonCatalogLimit,
		"bigcache":     wire.ReasonCatalogLimit,
		"nokey":        wire.ReasonAuthenticationUnavailable,
		"blankkey":     wire.ReasonAuthenticationUnavailable,
		"nofile":       wire.ReasonAuthenticationUnavailable,
		"nocredential": wire.ReasonAuthenticationUnavailable,
		"hanging":      "", // not run: it would wait for the default 300 s
		"slowbody":     "", // not run directly
	}
	for _, p := range providers {
		if p.ID == "hanging" || p.ID == "slowbody" {
			continue
		}
		t.Run(p.ID, func(t *testing.T) {
			if got := refreshReason(t, s, p.ID); got != want[p.ID] {
				t.Fatalf("reason = %q, want %q", got, want[p.ID])
			}
		})
	}
	if reqs := fake.Requests("keyed"); len(reqs) == 0 || reqs[0].Bearer != "k" || reqs[0].Path != "/models" {
		t.Errorf("keyed requests: %+v", reqs)
	}
	if reqs := fake.Requests("crossorigin"); len(reqs) != 1 {
		t.Errorf("the cross-origin redirect was followed: %+v", reqs)
	}
}

func TestRefreshDialFailures(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		err  error
		want string
	}{
		"dns":     {&net.DNSError{Err: "no such host", Name: "example.invalid", IsNotFound: true}, wire.ReasonRemoteUnavailable},
		"timeout": {&net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{}}, wire.ReasonRemoteTimeout},
		"refused": {&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, wire.ReasonRemoteUnavailable},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dial := func(ctx context.Context, network, addr string) (net.Conn, error) { return nil, c.err }
			s, _ := newService(t, Options{HTTP: &HTTPOptions{DialContext: dial}},
				Provider{ID: "p", Type: TypeOpenAI, BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: "KEY"})
			if got := refreshReason(t, s, "p"); got != c.want {
				t.Fatalf("reason = %q, want %q", got, c.want)
			}
		})
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func TestRefreshTLSHandshakeTimeout(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() { // accept and say nothing: the handshake never completes
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	s, _ := newService(t, Options{HTTP: &HTTPOptions{ConnectTimeout: 200 * time.Millisecond, TLSClientConfig: &tls.Config{}}},
		Provider{ID: "p", Type: TypeOpenAI, BaseURL: "https://" + l.Addr().String() + "/v1", APIKeyEnv: "KEY"})
	if got := refreshReason(t, s, "p"); got != wire.ReasonRemoteTimeout {
		t.Fatalf("reason = %q, want remote_timeout", got)
	}
}

func TestRefreshAnthropicPaging(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	models := fakeprovider.Numbered(25)
	s, home := newService(t, Options{},
		Provider{ID: "paged", Type: TypeAnthropic, BaseURL: fake.Add("paged", fakeprovider.Paged(10, models)), APIKeyEnv: "KEY"},
		Provider{ID: "toomany", Type: TypeAnthropic, BaseURL: fake.Add("toomany", fakeprovider.Paged(1000, fakeprovider.Numbered(2049))), APIKeyEnv: "KEY"},
		Provider{ID: "loop", Type: TypeAnthropic, BaseURL: fake.Add("loop", fakeprovider.Scenario{Body: []byte(`{"data":[{"id":"a"}],"has_more":true,"last_id":"a"}`)}), APIKeyEnv: "KEY"},
		Provider{ID: "nolast", Type: TypeAnthropic, BaseURL: fake.Add("nolast", fakeprovider.Scenario{Body: []byte(`{"data":[{"id":"a"}],"has_more":true,"last_id":null}`)}), APIKeyEnv: "KEY"},
	)
	if got := refreshReason(t, s, "paged"); got != "" {
		t.Fatalf("paged: %q", got)
	}
	reqs := fake.Requests("paged")
	if len(reqs) != 3 || reqs[0].APIKey != "k" || reqs[0].APIVersion == "" || !strings.Contains(reqs[1].Query, "after_id=model-0009") {
		t.Fatalf("paged requests: %+v", reqs)
	}
	st, entries := ParseCache(s.byID["paged"], readFile(t, filepath.Join(home, "catalog", "paged.json")))
	if st != wire.CatalogAvailable || len(entries) != 25 || entries[0].Name != "Model 0" {
		t.Fatalf("paged cache: %s %d %+v", st, len(entries), entries[:1])
	}
	for id, want := range map[string]string{"toomany": wire.ReasonCatalogLimit, "loop": wire.ReasonInvalidCatalog, "nolast": wire.ReasonInvalidCatalog} {
		if got := refreshReason(t, s, id); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
}

func TestRefreshKeepsPreviousBytesOnFailure(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	s, home := newService(t, Options{},
		Provider{ID: "p", Type: TypeOpenAI, BaseURL: fake.Add("p", fakeprovider.RateLimited), APIKeyEnv: "KEY"})
	path := filepath.Join(home, "catalog", "p.json")
	old := []byte(`{"old":true}`)
	writeFile(t, path, old)
	for _, sc := range []fakeprovider.Scenario{fakeprovider.RateLimited, fakeprovider.Empty, fakeprovider.InvalidJSON, fakeprovider.Oversized} {
		fake.Add("p", sc)
		if refreshReason(t, s, "p") == "" {
			t.Fatal("refresh succeeded")
		}
		if got := readFile(t, path); !bytes.Equal(got, old) {
			t.Fatalf("cache changed to %s", got)
		}
	}
}

func TestRefreshCacheWriteFailed(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	s, home := newService(t, Options{},
		Provider{ID: "p", Type: TypeOpenAI, BaseURL: fake.Add("p", fakeprovider.Success("m1")), APIKeyEnv: "KEY"})
	writeFile(t, filepath.Join(home, "catalog"), []byte("a file where the cache directory belongs"))
	if got := refreshReason(t, s, "p"); got != wire.ReasonCacheWriteFailed {
		t.Fatalf("reason = %q", got)
	}
	long := strings.Repeat("p", 252)
	s2, _ := newService(t, Options{}, Provider{ID: long, Type: TypeOpenAI, BaseURL: fake.URL("p"), APIKeyEnv: "KEY"})
	if got := refreshReason(t, s2, long); got != wire.ReasonCacheWriteFailed {
		t.Fatalf("long id: reason = %q", got)
	}
}

func TestRefreshCancelledWritesNothing(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	s, home := newService(t, Options{},
		Provider{ID: "p", Type: TypeOpenAI, BaseURL: fake.Add("p", fakeprovider.Slow(time.Minute, "m1")), APIKeyEnv: "KEY"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(fake.Requests("p")) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	res, _, err := s.Refresh(ctx, "p")
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("Refresh = %+v, %v; want cancellation", res, err)
	}
	if _, err := filepath.Glob(filepath.Join(home, "catalog", "*")); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(home, "catalog", "*")); len(m) != 0 {
		t.Fatalf("written after cancellation: %v", m)
	}
}

func TestRefreshRecovery(t *testing.T) {
	for reason, want := range map[string]string{
		"":                                   RecoveryReloadCatalog,
		wire.ReasonAuthenticationUnavailable: RecoveryConfigureAuthentication,
		wire.ReasonAuthenticationRejected:    RecoveryConfigureAuthentication,
		wire.ReasonConfigurationInvalid:      RecoveryFixConfiguration,
		wire.ReasonRateLimited:               RecoveryRetryLater,
		wire.ReasonRemoteUnavailable:         RecoveryRetryLater,
		wire.ReasonRemoteTimeout:             RecoveryRetryLater,
		wire.ReasonEmptyCatalog:              RecoveryCheckProvider,
		wire.ReasonInvalidCatalog:            RecoveryCheckProvider,
		wire.ReasonCatalogLimit:              RecoveryCheckProvider,
		wire.ReasonCacheWriteFailed:          RecoveryCheckHome,
	} {
		if got := refreshRecovery(reason, true); got != want {
			t.Errorf("%q: %s, want %s", reason, got, want)
		}
	}
	if got := refreshRecovery("", false); got != RecoveryCheckHome {
		t.Errorf("refreshed without a revision: %s", got)
	}
}
