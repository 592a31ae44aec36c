package adversarial

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/scouttest"
)

// hostileServer is a model provider on 127.0.0.1 that misbehaves in one
// way per path prefix (/s/<fault>/...), and a second listener on another
// port that answers a valid list (where a cross-origin redirect points: a
// client that follows it would see a success).
type hostileServer struct {
	url, other string
	done       chan struct{}
	flood      []byte // 10 MiB of a list that never ends
	bomb       []byte // gzip of 10 MiB of whitespace
}

// validList is a correct OpenAI-shaped list.
const validList = `{"object":"list","data":[{"id":"good-1"},{"id":"good-2"}]}`

// hostileBodies are the flood's and the gzip bomb's bodies, made once per
// test process and shared read only by every server: each world of the
// package starts a server, and under -race making 10 MiB of list and
// compressing 10 MiB of whitespace cost about a third of a CPU-second a
// server (and 20 MiB of heap each for the collector to scan).
var hostileBodies = sync.OnceValues(func() (flood, bomb []byte) {
	flood = append([]byte(`{"data":[`), bytes.Repeat([]byte(`{"id":"flood"},`), (10<<20)/15)...)
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte(`{"data":[`))
	zw.Write(bytes.Repeat([]byte(" "), 10<<20))
	zw.Close()
	return flood, zb.Bytes()
})

func startHostile(t *testing.T) *hostileServer {
	t.Helper()
	l1, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	l2, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	h := &hostileServer{url: "http://" + l1.Addr().String(), other: "http://" + l2.Addr().String(), done: make(chan struct{})}
	h.flood, h.bomb = hostileBodies()
	main := &http.Server{Handler: http.HandlerFunc(h.serve), ReadHeaderTimeout: 10 * time.Second}
	other := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, validList) })}
	go main.Serve(l1)
	go other.Serve(l2)
	t.Cleanup(func() {
		close(h.done)
		main.Close()
		other.Close()
	})
	return h
}

func (h *hostileServer) base(fault string) string { return h.url + "/s/" + fault }

// raw takes the connection over, so the fault can break HTTP itself.
func raw(w http.ResponseWriter) (net.Conn, *bufio.ReadWriter) {
	conn, rw, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	return conn, rw
}

func (h *hostileServer) serve(w http.ResponseWriter, r *http.Request) {
	fault, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/s/"), "/")
	switch fault {
	case "ok":
		fmt.Fprint(w, validList)
	case "drip": // a valid body, one byte every 100 ms
		conn, rw := raw(w)
		defer conn.Close()
		fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(validList))
		for i := range len(validList) {
			rw.WriteByte(validList[i])
			if rw.Flush() != nil {
				return
			}
			select {
			case <-time.After(100 * time.Millisecond):
			case <-h.done:
				return
			}
		}
	case "hang": // headers never come
		select {
		case <-r.Context().Done():
		case <-h.done:
		}
	case "flood": // 10 MiB of a list that never ends, no Content-Length
		w.Header().Set("Content-Type", "application/json")
		w.(http.Flusher).Flush() // headers now: the body is chunked
		w.Write(h.flood)
	case "floodlen": // announced as 10 MiB
		w.Header().Set("Content-Length", fmt.Sprint(10<<20))
		w.Write(bytes.Repeat([]byte(" "), 10<<20))
	case "gzipbomb": // 10 MiB of whitespace in a few KiB of gzip
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", fmt.Sprint(len(h.bomb)))
		w.Write(h.bomb)
	case "cut": // closes after a tenth of the announced body
		conn, rw := raw(w)
		fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n%s", validList[:20])
		rw.Flush()
		conn.Close()
	case "cutchunked": // closes inside a chunked body
		conn, rw := raw(w)
		fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n%s", validList[:10])
		rw.Flush()
		conn.Close()
	case "redirect": // to the other port: another origin
		http.Redirect(w, r, h.other+r.URL.Path, http.StatusFound)
	case "redirectloop":
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	case "bigheader": // a 256 KiB header line before a valid body
		conn, rw := raw(w)
		defer conn.Close()
		fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nX-Padding: %s\r\nContent-Length: %d\r\n\r\n%s", strings.Repeat("x", 256<<10), len(validList), validList)
		rw.Flush()
	case "badchunk": // a chunk size no reader can hold
		conn, rw := raw(w)
		rw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n{\"data\":[]}\r\n0\r\n\r\n")
		rw.Flush()
		conn.Close()
	case "interim": // an endless stream of 103 Early Hints before any answer
		conn, rw := raw(w)
		defer conn.Close()
		for range 10000 {
			if _, err := rw.WriteString("HTTP/1.1 103 Early Hints\r\nLink: </x>; rel=preload\r\n\r\n"); err != nil {
				return
			}
		}
		rw.Flush()
	case "garbage": // not HTTP at all
		conn, rw := raw(w)
		rw.WriteString("SSH-2.0-OpenSSH_9.6\r\n\x00\xff\xfe")
		rw.Flush()
		conn.Close()
	default:
		http.NotFound(w, r)
	}
}

// TestHostileProviders refreshes one provider per fault. Each answers its
// outcome and reason (docs/protocol.md §7's mapping), the earlier cache keeps
// its bytes exactly when the refresh failed, no temporary file stays in
// the home, nothing in any answer names the server, and catalog status
// still answers afterwards. Enrichment that floods or is cut never fails
// a refresh.
func TestHostileProviders(t *testing.T) {
	t.Parallel()
	srv := startHostile(t)
	tok := token(t)
	key := "sk-" + tok
	cases := []struct {
		fault, reason string // reason "" means refreshed
	}{
		{"drip", wire.ReasonRemoteTimeout},
		{"hang", wire.ReasonRemoteTimeout},
		{"flood", wire.ReasonCatalogLimit},
		{"floodlen", wire.ReasonCatalogLimit},
		{"gzipbomb", wire.ReasonCatalogLimit},
		{"cut", wire.ReasonRemoteUnavailable},
		{"cutchunked", wire.ReasonRemoteUnavailable},
		{"redirect", wire.ReasonRemoteUnavailable},
		{"redirectloop", wire.ReasonRemoteUnavailable},
		{"bigheader", wire.ReasonRemoteUnavailable},
		{"badchunk", wire.ReasonRemoteUnavailable},
		{"interim", wire.ReasonRemoteUnavailable},
		{"garbage", wire.ReasonRemoteUnavailable},
		{"ok", ""},
	}
	var provs []catalogProvider
	for _, c := range cases {
		timeout := "30s" // generous: a loaded machine must not turn a limit into a timeout
		if c.reason == wire.ReasonRemoteTimeout {
			timeout = "1s"
		}
		provs = append(provs, catalogProvider{id: c.fault, typ: "openai", base: srv.base(c.fault), keyEnv: "ADV_PROVIDER_KEY", timeout: timeout, enabled: []string{"good-1", "old-1"}})
	}
	home := catalogHome(t, srv.base("flood")+"/enrich.json", provs...)
	old := map[string][]byte{}
	for _, p := range provs {
		old[p.id] = encodeCache(t, p, []string{"old-1"})
		must(t, os.WriteFile(filepath.Join(home, "catalog", p.id+".json"), old[p.id], 0o600))
	}
	p := start(t, scouttest.Options{Env: []string{"SCOUT_HOME=" + home, "ADV_PROVIDER_KEY=" + key}},
		leakscan.Canaries{Paths: []string{home}, Keys: []string{key}})
	p.Initialize(catalogCaps...)
	for _, c := range cases {
		m := p.Call(wire.MethodModelRefresh, map[string]any{"provider": c.fault})
		var res wire.RefreshResult
		if m.Error != nil {
			t.Errorf("%s: refresh answered %s", c.fault, m.Raw)
			continue
		}
		m.Decode(t, &res)
		t.Logf("%-12s → %s %v", c.fault, res.Outcome, deref(res.Reason))
		now, err := os.ReadFile(filepath.Join(home, "catalog", c.fault+".json"))
		must(t, err)
		switch {
		case c.reason == "" && (res.Outcome != wire.OutcomeRefreshed || bytes.Equal(now, old[c.fault])):
			t.Errorf("%s: %s, cache replaced: %v", c.fault, m.Raw, !bytes.Equal(now, old[c.fault]))
		case c.reason != "" && (res.Outcome != wire.OutcomeFailed || res.Reason == nil || *res.Reason != c.reason):
			t.Errorf("%s: want %s, got %s", c.fault, c.reason, m.Raw)
		case c.reason != "" && !bytes.Equal(now, old[c.fault]):
			t.Errorf("%s: a failed refresh changed the cache", c.fault)
		}
		if res.CatalogRevision == nil {
			t.Errorf("%s: no catalog revision after the refresh: %s", c.fault, m.Raw)
		}
	}
	if st := p.Call(wire.MethodModelCatalogStatus, map[string]any{"cursor": nil}); st.Error != nil {
		t.Errorf("status after the faults: %s", st.Raw)
	}
	checkHomeFiles(t, home)
}

func deref(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}
