//go:build linux

package objective

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPUTime returns the CPU time consumed by the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID); the benchmarks lock their goroutine to a
// thread, so time spent descheduled on a loaded machine is not counted.
func threadCPUTime() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		panic(e)
	}
	return time.Duration(ts.Nano())
}
