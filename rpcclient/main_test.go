package rpcclient_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/scoutdev/scout/internal/testhome"
)

// Every test must leave no goroutine behind: readers, event pumps and
// cancellation senders all end with their child or client.
func TestMain(m *testing.M) {
	testhome.Isolate()
	goleak.VerifyTestMain(testhome.Wrap(m))
}
