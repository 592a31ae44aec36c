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
func TestConcurrentRequestBound(t *testing.T) {
	t.Parallel()
	var inflight, peak atomic.Int32
	release := make(chan struct{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inflight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-release
		inflight.Add(-1)
		w.Write([]byte(`{"data":[]}`))
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	f := newFetcher(nil)
	u, _ := url.Parse("http://" + l.Addr().String() + "/models")
	const clients = MaxConcurrentRequests + 8
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := f.get(context.Background(), u, http.Header{}, MaxBodyBytes)
			errs <- err
		}()
	}
	deadline := time.Now().Add(10 * time.Second)
	for inflight.Load() < MaxConcurrentRequests && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // give any excess request the chance to arrive
	if got := peak.Load(); got != MaxConcurrentRequests {
		t.Errorf("%d requests in flight, want %d", got, MaxConcurrentRequests)
	}
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
	if got := peak.Load(); got > MaxConcurrentRequests {
		t.Errorf("peak %d", got)
	}
}
