package bridge_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/scoutdev/scout/internal/testhome"
)

// TestMain fails the package's tests if any goroutine outlives them.
func TestMain(m *testing.M) {
	testhome.Isolate()
	goleak.VerifyTestMain(testhome.Wrap(m))
}
