//go:build unix

package rank

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, all threads, user
// and system: on a shared machine it varies less than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
