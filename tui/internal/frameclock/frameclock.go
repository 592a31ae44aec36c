// Package frameclock slows Bubble Tea's frame ticker while nothing on
// the screen changes, and speeds it up again with the next frame.
package frameclock

import (
	"reflect"
	"sync"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// Bubble Tea draws frames on a ticker that runs 60 times a second for as
// long as the program runs, whether or not anything changed; each tick
// wakes the Go scheduler, which on a virtual machine costs about 1% of a
// core with nothing on screen moving. Bubble Tea offers no way to pause
// it, so Clock reaches the ticker (the unexported field
// Program.ticker, found by reflection; TestFrameClockFindsTheTicker
// fails when an upgrade renames it) and slows it to idleRate once no new
// frame was made for idleAfter, and speeds it up again with the next
// frame. Every frame is made by View, which Bubble Tea calls after each
// Update, and drawn on the next tick.
//
// The ticker is slowed, never stopped: its goroutine (Bubble Tea's
// drawer) may not have run since the last frame was made (a loaded
// machine, two cores, -race), and slowing or stopping a ticker drops the
// tick it had ready. A stopped ticker would leave that last frame undrawn
// until the next one, which may never come (the screen showed a query
// over the tree its ranking had replaced, TestFilterEqualsWhatThePickerShows
// in a loaded CI run); a slowed one draws it at most idleRate late. When
// the ticker cannot be found, the program runs as Bubble Tea runs it.

// idleAfter is how long the frame clock keeps ticking at frameRate after
// the last frame was made: several frames of Bubble Tea's 60 a second.
const idleAfter = 100 * time.Millisecond

// idleRate is the ticker's interval while nothing changes: the longest a
// frame made while the drawer could not run waits to be drawn.
const idleRate = time.Second

// frameRate is Bubble Tea's default frame interval (60 frames a second),
// which the clock restores.
const frameRate = time.Second / 60

// Clock slows and speeds up a program's frame ticker. The zero Clock
// does nothing until Attach gives it its program.
type Clock struct {
	program *tea.Program

	mu     sync.Mutex
	ticker *time.Ticker // the program's, once found
	looked bool         // the ticker was looked for
	slow   bool         // the ticker runs at idleRate
	frames uint64       // frames made
	idle   *time.Timer  // slows the ticker after idleAfter without a frame
	closed bool
}

// Wake notes a new frame: the ticker runs at frameRate (again) and is
// slowed idleAfter after the last frame.
func (c *Clock) Wake() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.program == nil {
		return
	}
	if !c.looked {
		c.ticker, c.looked = programTicker(c.program), true
	}
	if c.ticker == nil {
		return
	}
	c.frames++
	if c.slow {
		c.ticker.Reset(frameRate)
		c.slow = false
	}
	frames := c.frames
	if c.idle != nil {
		c.idle.Stop()
	}
	c.idle = time.AfterFunc(idleAfter, func() { c.sleep(frames) })
}

// Attach gives the clock the program whose ticker it slows; call it
// before the program runs.
func (c *Clock) Attach(p *tea.Program) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.program = p
}

// sleep slows the ticker unless a frame was made after frame number
// frames.
func (c *Clock) sleep(frames uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.frames != frames || c.slow {
		return
	}
	c.ticker.Reset(idleRate)
	c.slow = true
}

// Close ends the clock's work when the program has ended.
func (c *Clock) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.idle != nil {
		c.idle.Stop()
	}
}

// programTicker returns p's frame ticker, or nil when Bubble Tea has
// none by that name (or has not started it).
func programTicker(p *tea.Program) *time.Ticker {
	f := reflect.ValueOf(p).Elem().FieldByName("ticker")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*time.Ticker]() {
		return nil
	}
	t, _ := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(*time.Ticker)
	return t
}
