package catalog

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// At most MaxConcurrentRequests catalog requests are in flight per process;
// the others wait for a slot and can be cancelled while waiting.
//
// The absence of an excess request is asserted where the order decides,
// not after a pause: once MaxConcurrentRequests requests have arrived and
// none has been let go, every slot must be held (a request that arrives
// holds its slot until the server has answered it), so no other request
// can pass the slot whatever the timing; and the peak of requests in the
// server's handler is exactly the bound.
func TestConcurrentRequestBound(t *testing.T) {
	t.Parallel()
	const clients = MaxConcurrentRequests + 8
	var inflight, peak atomic.Int32
	arrived := make(chan struct{}, clients+1)
	release := make(chan struct{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inflight.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		arrived <- struct{}{}
		<-release
		inflight.Add(-1)
		w.Write([]byte(`{"data":[]}`))
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	f := newFetcher(nil)
	u, _ := url.Parse("http://" + l.Addr().String() + "/models")
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for range clients {
		wg.Go(func() {
			_, err := f.get(context.Background(), u, http.Header{}, MaxBodyBytes)
			errs <- err
		})
	}
	awaitArrivals(t, arrived, MaxConcurrentRequests)
	if held := len(f.slots); held != MaxConcurrentRequests || cap(f.slots) != MaxConcurrentRequests {
		t.Fatalf("%d of %d slots held with %d requests in the server, want all %d", held, cap(f.slots), MaxConcurrentRequests, MaxConcurrentRequests)
	}
	if got := peak.Load(); got != MaxConcurrentRequests {
		t.Errorf("%d requests in flight, want %d", got, MaxConcurrentRequests)
	}
	// Every slot is held, so this request can only wait: its cancellation
	// ends the wait.
	ctx, cancel := context.WithCancel(context.Background())
	waiting := make(chan error, 1)
	go func() { _, err := f.get(ctx, u, http.Header{}, MaxBodyBytes); waiting <- err }()
	cancel()
	if err := <-waiting; err != context.Canceled {
		t.Errorf("a waiting request cancelled: %v", err)
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// The waiting ones were served after the first ones, never beside them.
	if got, n := peak.Load(), MaxConcurrentRequests+len(arrived); got != MaxConcurrentRequests || n != clients {
		t.Errorf("peak %d, %d requests served; want %d and %d", got, n, MaxConcurrentRequests, clients)
	}
}

// awaitArrivals waits until n requests have reached the server.
func awaitArrivals(t *testing.T, arrived <-chan struct{}, n int) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for i := range n {
		select {
		case <-arrived:
		case <-timeout:
			t.Fatalf("%d of %d requests reached the server", i, n)
		}
	}
}
