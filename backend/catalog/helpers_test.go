package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
)

// env is a fake environment.
type env map[string]string

func (e env) get(k string) string { return e[k] }

// startFake starts a fake provider for the test.
func startFake(t *testing.T) *fakeprovider.Server {
	t.Helper()
	srv, err := fakeprovider.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// newService is a Service over a fresh home with the given providers and
// the key "k" in $KEY.
func newService(t testing.TB, opts Options, providers ...Provider) (*Service, string) {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	opts.Home = home
	opts.Providers = providers
	if opts.Getenv == nil {
		opts.Getenv = env{"KEY": "k"}.get
	}
	return New(opts), home
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
