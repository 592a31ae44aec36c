package sessions

import (
	"context"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// The bounds of docs/protocol.md §6, taken from the session.discover extension so
// the numbers announced in initialize and the numbers enforced are one.
var (
	// StepDirectoryEntries: names read from the store per request, over
	// both passes.
	StepDirectoryEntries = wire.DefaultDiscoverExtension.StepDirectoryEntries
	// StepLines: history records read per request.
	StepLines = wire.DefaultDiscoverExtension.StepLines
	// StepBytes: history bytes read per request.
	StepBytes = int64(wire.DefaultDiscoverExtension.StepBytes)
	// StepDuration: the cooperative deadline of one request.
	StepDuration = time.Duration(wire.DefaultDiscoverExtension.StepMS) * time.Millisecond
	// PageEntries: rows per page.
	PageEntries = wire.DefaultDiscoverExtension.PageEntries
	// MaxListHistories: session.list's ceiling on primary histories.
	MaxListHistories = wire.DefaultLimits.DiscoverySessions
)

// PageBytes bounds the serialized rows of one page: the "sessions" array
// as encoded, brackets and commas included.
const PageBytes = 32768

// readerBufferBytes is the one read buffer a scan holds.
const readerBufferBytes = 8 << 10

// budget is what one request may still do. list and open use an unlimited
// budget (only the record bound and cancellation apply).
type budget struct {
	ctx      context.Context
	limited  bool
	deadline time.Time
	entries  int
	lines    int
	bytes    int64
	worked   bool // at least one name or record was handled
}

// stepBudget is one discovery request's budget; step is its deadline
// (StepDuration when zero).
func stepBudget(ctx context.Context, now time.Time, step time.Duration) *budget {
	if step <= 0 {
		step = StepDuration
	}
	return &budget{ctx: ctx, limited: true, deadline: now.Add(step), entries: StepDirectoryEntries, lines: StepLines, bytes: StepBytes}
}

func unlimitedBudget(ctx context.Context) *budget {
	return &budget{ctx: ctx, bytes: 1 << 62}
}

// expired reports whether the deadline has passed. A request always
// handles at least one name or record first, so a store on a slow file
// system still makes progress. It reads the clock on every call (tens of
// nanoseconds, far below a record's cost).
func (b *budget) expired() bool {
	return b.limited && b.worked && !time.Now().Before(b.deadline)
}

// readLimit is how many bytes the next read may take.
func (b *budget) readLimit(want int) int {
	return int(min(int64(want), b.bytes))
}
