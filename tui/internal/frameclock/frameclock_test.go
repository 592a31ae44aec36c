package frameclock

import (
	"bytes"
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// clockModel quits after its first frames, reporting whether the frame
// clock had found the program's ticker by then.
type clockModel struct {
	clock *Clock
	found chan bool
}

type quitNow struct{}

func (c clockModel) Init() tea.Cmd {
	return tea.Tick(50*time.Millisecond, func(time.Time) tea.Msg { return quitNow{} })
}

func (c clockModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(quitNow); ok {
		c.clock.mu.Lock()
		c.found <- c.clock.ticker != nil
		c.clock.mu.Unlock()
		return c, tea.Quit
	}
	return c, nil
}

func (c clockModel) View() tea.View {
	c.clock.Wake()
	return tea.NewView("frame")
}

// TestFrameClockFindsTheTicker fails when a Bubble Tea upgrade renames or
// retypes Program.ticker: the picker would then tick 60 times a second
// while idle again.
func TestFrameClockFindsTheTicker(t *testing.T) {
	t.Parallel()
	clock := &Clock{}
	m := clockModel{clock: clock, found: make(chan bool, 1)}
	var out bytes.Buffer
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(&out), tea.WithContext(context.Background()))
	clock.Attach(p)
	defer clock.Close()
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
	if !<-m.found {
		t.Fatal("the frame clock did not find Bubble Tea's frame ticker (Program.ticker)")
	}
}

// TestFrameClockSlowsAndSpeedsUp: idleAfter after the last frame the
// ticker runs at idleRate; the next frame brings back frameRate.
func TestFrameClockSlowsAndSpeedsUp(t *testing.T) {
	t.Parallel()
	c := &Clock{program: &tea.Program{}, looked: true, ticker: time.NewTicker(frameRate)}
	defer c.ticker.Stop()
	c.Wake()
	slow := func() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.slow }
	deadline := time.Now().Add(10 * time.Second)
	for !slow() {
		if time.Now().After(deadline) {
			t.Fatal("the ticker was not slowed after the last frame")
		}
		time.Sleep(idleAfter / 4)
	}
	// Slowed: no tick for several frames (a tick already on its way may
	// come first).
	select {
	case <-c.ticker.C:
	case <-time.After(5 * frameRate):
	}
	select {
	case <-c.ticker.C:
		t.Fatal("a slowed ticker ticked at the frame rate")
	case <-time.After(idleRate / 2):
	}
	c.Wake()
	start := time.Now()
	select {
	case <-c.ticker.C:
	case <-time.After(10 * time.Second):
		t.Fatal("the next frame did not speed the ticker up again")
	}
	if d := time.Since(start); d >= idleRate {
		t.Fatalf("the first tick after a frame came after %v: the ticker is still slow", d)
	}
	c.Close()
}

// TestAFrameMadeWhileTheDrawerStarvesIsDrawn: a frame is made and the
// drawer (the goroutine reading the ticker) does not run before the clock
// goes idle, as on a loaded machine. A tick must still come, or that
// frame stays undrawn until the next one: the clock once stopped the
// ticker here, which dropped the tick it had ready.
func TestAFrameMadeWhileTheDrawerStarvesIsDrawn(t *testing.T) {
	t.Parallel()
	c := &Clock{program: &tea.Program{}, looked: true, ticker: time.NewTicker(frameRate)}
	defer c.ticker.Stop()
	c.Wake() // the frame; nobody reads the ticker
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.mu.Lock()
		idle := c.slow
		c.mu.Unlock()
		if idle {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the clock never went idle")
		}
		time.Sleep(idleAfter / 4)
	}
	select {
	case <-c.ticker.C: // the drawer runs at last and draws the frame
	case <-time.After(3 * idleRate):
		t.Fatal("no tick came after the clock went idle: the last frame would never be drawn")
	}
	c.Close()
}
