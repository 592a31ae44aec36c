package spawn

import (
	"io"
	"sync"
)

// relayHeld bounds what a Relay keeps before it is attached; a child
// writes a line or two at its start, if anything.
const relayHeld = 64 << 10

// Relay is a child's stderr before anyone knows where it goes: what is
// written is kept (up to 64 KiB; the rest is dropped) until Attach, then
// written there, and everything after goes straight there. Safe for
// concurrent use.
type Relay struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte
}

// Write keeps p, or writes it to the writer attached.
func (r *Relay) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w != nil {
		return r.w.Write(p)
	}
	r.held = append(r.held, p[:min(len(p), relayHeld-len(r.held))]...)
	return len(p), nil
}

// Attach writes what was kept to w and sends everything after to w; a
// second Attach changes nothing.
func (r *Relay) Attach(w io.Writer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w != nil {
		return
	}
	r.w = w
	if len(r.held) > 0 {
		_, _ = w.Write(r.held)
	}
	r.held = nil
}
