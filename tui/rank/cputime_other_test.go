//go:build !unix

package rank

import "time"

// cpuTime is not measured here; the cpu-ms/key metric reads 0.
func cpuTime() time.Duration { return 0 }
