//go:build linux || darwin || freebsd || netbsd

package spec

import (
	"math"
	"syscall"
)

// addressSpaceLimit returns the soft address-space limit of the process
// (ulimit -v) in bytes, or 0 when there is none.
func addressSpaceLimit() int64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil {
		return 0
	}
	cur := uint64(rl.Cur)
	if cur == 0 || cur >= math.MaxInt64 {
		return 0
	}
	return int64(cur)
}
