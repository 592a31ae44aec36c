package backend_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/scoutdev/scout/internal/testhome"
)

// TestMain fails the package's tests if any goroutine outlives them, and
// removes the fixtures the package's tests share (cleanups).
func TestMain(m *testing.M) {
	testhome.Isolate()
	goleak.VerifyTestMain(withCleanups{m})
}

type withCleanups struct{ m *testing.M }

func (w withCleanups) Run() int {
	defer func() {
		for _, c := range cleanups {
			c()
		}
	}()
	return w.m.Run()
}
