package scouttest

import (
	"slices"
	"testing"
	"time"
)

// PromptBound is how late the fastest of several status answers may come
// while other work runs: the protocol's 100 ms, with room for the tests'
// shared 2-core machine and the race detector.
const PromptBound = 300 * time.Millisecond

// CheckPrompt holds status answers measured while work of length work
// (a stall, say) runs: the fastest within PromptBound, and every one
// within half the work's length. A status queued behind the work would
// take about as long as the work, so that is what fails; one slow answer
// on a loaded machine does not.
func CheckPrompt(t testing.TB, what string, took []time.Duration, work time.Duration) {
	t.Helper()
	if len(took) == 0 {
		t.Fatalf("%s: no status answer measured", what)
	}
	if fastest := slices.Min(took); fastest > PromptBound {
		t.Errorf("%s: the fastest of %d status answers took %v (bound %v): %v", what, len(took), fastest, PromptBound, took)
	}
	for _, d := range took {
		if d > work/2 {
			t.Errorf("%s: a status answer took %v, as if it waited for the work (%v): %v", what, d, work, took)
			return
		}
	}
}
