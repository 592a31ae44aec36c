package server

import (
	"context"
	"errors"
	"time"
)

// DebugEnv is the environment variable that, set to "1", makes the backend
// register the test-only debug methods. Only tests set it; the methods are
// never listed in capabilities.
const DebugEnv = "SCOUT_DEBUG_METHODS"

// SleepParams is the params of debug.sleep.
type SleepParams struct {
	// MS is how long to sleep.
	MS *int `json:"ms"`
	// Stuck ignores cancellation, like a worker blocked inside an OS call.
	Stuck bool `json:"stuck,omitzero"`
}

// Validate requires ms between 0 and 600000.
func (p *SleepParams) Validate() error {
	if p.MS == nil || *p.MS < 0 || *p.MS > 600000 {
		return errors.New("params.ms must be between 0 and 600000.")
	}
	return nil
}

// SleepResult is the result of debug.sleep.
type SleepResult struct {
	Slept int `json:"slept_ms"`
	stamp
}

type stamp struct {
	TS string `json:"ts"`
}

func (s *stamp) SetTS(ts string) { s.TS = ts }

// RegisterDebug adds debug.sleep: an auxiliary-kind, long-running,
// cancellable method that sleeps, used to test admission, cancellation,
// status and shutdown before (and besides) the real long-running methods.
func (s *Server) RegisterDebug() {
	s.Register(&Method{
		Name: "debug.sleep", Kind: KindAux, LongRunning: true, Unlisted: true,
		NewParams: func() any { return new(SleepParams) },
		Handle: func(ctx context.Context, c *Call) (any, error) {
			p := c.Params.(*SleepParams)
			d := time.Duration(*p.MS) * time.Millisecond
			if p.Stuck {
				time.Sleep(d)
				return &SleepResult{Slept: *p.MS}, nil
			}
			select {
			case <-time.After(d):
				return &SleepResult{Slept: *p.MS}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	})
}
