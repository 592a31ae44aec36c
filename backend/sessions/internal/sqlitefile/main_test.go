package sqlitefile

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/scoutdev/scout/internal/testhome"
)

// TestMain gives the tests a home of their own (sqlite3 reads
// ~/.sqliterc) and fails them if a goroutine outlives them.
func TestMain(m *testing.M) {
	testhome.Isolate()
	goleak.VerifyTestMain(testhome.Wrap(m))
}
