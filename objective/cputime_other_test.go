//go:build !linux

package objective

import "time"

var cpuStart = time.Now()

// threadCPUTime falls back to wall-clock time off Linux.
func threadCPUTime() time.Duration { return time.Since(cpuStart) }
