package display

import (
	"os"
	"testing"

	"github.com/scoutdev/scout/internal/testhome"
)

// TestMain runs the package's tests in a home of their own (testhome).
func TestMain(m *testing.M) {
	testhome.Isolate()
	os.Exit(testhome.Wrap(m).Run())
}
