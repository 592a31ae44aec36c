package catalog_test

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
)

// A broken config.toml leaves the catalog without providers: both catalog
// methods answer no providers and no choices, and model.refresh refuses
// every id as invalid_params (docs/protocol.md §10.8.1).
func TestBlackBoxBrokenConfigHasNoProviders(t *testing.T) {
	t.Parallel()
	p := prov{id: "x", typ: "openai", base: "http://127.0.0.1:9/v1", keyEnv: testKeyEnv, enabled: []string{"m"}}
	home := newHome(t, "", p)
	writeValidCache(t, home, p, "m")
	mustWrite(t, filepath.Join(home, "config.toml"), []byte(p.toml()+"bogus = 1\n"))
	b := startBackend(t, home)
	st := status(t, b)
	if len(st.Choices) != 0 || len(*st.Providers) != 0 || len(*st.Notices) != 0 {
		t.Errorf("broken config.toml: status %+v", st)
	}
	if c := catalogPage(t, b, nil); len(c.Choices) != 0 || len(*c.Notices) != 0 {
		t.Errorf("broken config.toml: catalog %+v", c)
	}
	if m, _ := refresh(t, b, "x"); m.Code() != wire.CodeInvalidParams {
		t.Errorf("refresh of a provider of a broken config.toml: %s", m.Raw)
	}
}

// Without an [enrichment] table a refresh fetches https://models.dev/api.json,
// through the environment's proxy; the provider on 127.0.0.1 is reached
// directly. The proxy here refuses, so enrichment is skipped and the refresh
// still succeeds (§10.8.1, §10.8.4). Nothing leaves 127.0.0.1.
func TestBlackBoxDefaultEnrichmentThroughProxy(t *testing.T) {
	t.Parallel()
	proxy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proxy.Close() })
	asked := make(chan string, 4)
	go func() {
		for {
			conn, err := proxy.Accept()
			if err != nil {
				return
			}
			line, _ := bufio.NewReader(conn).ReadString('\n')
			asked <- strings.TrimSpace(line)
			conn.Close()
		}
	}()
	fake := startFake(t)
	p := prov{id: "local", typ: "openai-compatible", base: fake.Add("local", fakeprovider.Success("m")), enabled: []string{"m"}}
	home := filepath.Join(t.TempDir(), "home")
	mustWrite(t, filepath.Join(home, "config.toml"), []byte(p.toml()))
	url := "http://" + proxy.Addr().String()
	b := startBackend(t, home, "HTTPS_PROXY="+url, "https_proxy="+url, "HTTP_PROXY="+url, "http_proxy="+url, "NO_PROXY=", "no_proxy=")
	m, before := refresh(t, b, "local")
	checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	select {
	case got := <-asked:
		if got != "CONNECT models.dev:443 HTTP/1.1" {
			t.Errorf("the proxy was asked %q", got)
		}
	default:
		t.Error("enrichment did not go through the proxy")
	}
	if n := len(fake.Requests("local")); n != 1 {
		t.Errorf("the provider on 127.0.0.1 was asked %d times", n)
	}
	if data, err := os.ReadFile(cachePath(home, "local")); err != nil || !strings.Contains(string(data), `"name":"m"`) {
		t.Errorf("cache without enrichment: %s %v", data, err)
	}
}
