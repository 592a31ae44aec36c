package catalog

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// HTTP bounds (docs/protocol.md §7).
const (
	// ConnectTimeout bounds connecting (dial and TLS handshake).
	ConnectTimeout = 10 * time.Second
	// MaxBodyBytes bounds a provider's response body.
	MaxBodyBytes = 2 << 20
	// MaxConcurrentRequests bounds the catalog HTTP requests in flight in
	// one process, enrichment included.
	MaxConcurrentRequests = 32
	// maxRedirects bounds same-origin redirects followed for one request.
	maxRedirects = 5
	// userAgent names scout to providers.
	userAgent = "scout/0.1.0"
)

// HTTPOptions adjust the catalog HTTP client; the zero value (or nil) is
// what the backend uses. Tests set them to reach into loopback servers with
// their own certificates or to simulate dial failures.
type HTTPOptions struct {
	// DialContext replaces the dialer (its timeout is then the caller's).
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLSClientConfig replaces the TLS configuration.
	TLSClientConfig *tls.Config
	// ConnectTimeout replaces ConnectTimeout when positive.
	ConnectTimeout time.Duration
}

// fetcher is the catalog HTTP client: bounded bodies, a connect timeout, no
// redirect to another origin, and at most MaxConcurrentRequests requests in
// flight (a request waits for a slot, cancellably).
type fetcher struct {
	client *http.Client
	slots  chan struct{}
}

// errCrossOrigin refuses a redirect to another origin.
var errCrossOrigin = errors.New("redirect to another origin")

func newFetcher(o *HTTPOptions) *fetcher {
	if o == nil {
		o = &HTTPOptions{}
	}
	connect := ConnectTimeout
	if o.ConnectTimeout > 0 {
		connect = o.ConnectTimeout
	}
	dial := o.DialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}).DialContext
	}
	tr := &http.Transport{
		Proxy:                  http.ProxyFromEnvironment,
		DialContext:            dial,
		TLSClientConfig:        o.TLSClientConfig,
		TLSHandshakeTimeout:    connect,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           MaxConcurrentRequests,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &fetcher{
		client: &http.Client{Transport: tr, CheckRedirect: sameOriginRedirect},
		slots:  make(chan struct{}, MaxConcurrentRequests),
	}
}

// sameOriginRedirect follows a redirect only within the origin (scheme,
// host and port) of the first request, at most maxRedirects times. via
// holds the requests already made, so the k-th redirect sees k of them.
func sameOriginRedirect(req *http.Request, via []*http.Request) error {
	if origin(req.URL) != origin(via[0].URL) {
		return errCrossOrigin
	}
	if len(via) > maxRedirects {
		return errors.New("too many redirects")
	}
	return nil
}

func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// errTotalTimeout is the cause of a context that ran out of its total time.
var errTotalTimeout = errors.New("total timeout")

// get fetches u with headers and returns a body of at most max bytes. ctx
// bounds everything (a context whose cause is errTotalTimeout makes the
// failure remote_timeout). Failures are reason errors, except cancellation
// of ctx for another cause, which is returned as ctx's error.
func (f *fetcher) get(ctx context.Context, u *url.URL, headers http.Header, max int64) ([]byte, error) {
	select {
	case f.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctxFailure(ctx)
	}
	defer func() { <-f.slots }()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, failure(wire.ReasonConfigurationInvalid, "request cannot be built")
	}
	req.Header = headers.Clone()
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, transportFailure(ctx, err)
	}
	defer resp.Body.Close()
	if err := statusFailure(resp.StatusCode); err != nil {
		return nil, err
	}
	if resp.ContentLength > max {
		return nil, failure(wire.ReasonCatalogLimit, "body over its bound")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, transportFailure(ctx, err)
	}
	if int64(len(body)) > max {
		return nil, failure(wire.ReasonCatalogLimit, "body over its bound")
	}
	return body, nil
}

// statusFailure maps an HTTP status to a reason (nil for 2xx): 401 and 403
// rejected authentication, 404 a models endpoint that is not there
// (configuration_invalid), 429 rate_limited, anything else
// remote_unavailable (other 4xx, 5xx, and 1xx/3xx that were not followed).
func statusFailure(code int) error {
	switch {
	case code >= 200 && code < 300:
		return nil
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return failure(wire.ReasonAuthenticationRejected, http.StatusText(code))
	case code == http.StatusNotFound:
		return failure(wire.ReasonConfigurationInvalid, "models endpoint not found")
	case code == http.StatusTooManyRequests:
		return failure(wire.ReasonRateLimited, "too many requests")
	}
	return failure(wire.ReasonRemoteUnavailable, "HTTP status "+http.StatusText(code))
}

// transportFailure maps an error of the HTTP exchange: cancellation stays
// cancellation; the total timeout and connect (dial, TLS handshake) or read
// timeouts are remote_timeout; a redirect to another origin, DNS, TLS,
// refused and reset connections and anything else are remote_unavailable.
func transportFailure(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctxFailure(ctx)
	}
	if errors.Is(err, errCrossOrigin) {
		return failure(wire.ReasonRemoteUnavailable, "redirect to another origin")
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return failure(wire.ReasonRemoteTimeout, "connect or read timeout")
	}
	return failure(wire.ReasonRemoteUnavailable, "connection failed")
}

// ctxFailure is remote_timeout when ctx ran out of its total time, else
// ctx's error (cancellation).
func ctxFailure(ctx context.Context) error {
	if errors.Is(context.Cause(ctx), errTotalTimeout) {
		return failure(wire.ReasonRemoteTimeout, "total timeout")
	}
	return ctx.Err()
}
