//go:build !(linux || darwin || freebsd || netbsd)

package spec

// addressSpaceLimit returns 0: the platform has no address-space limit
// that the syscall package exposes.
func addressSpaceLimit() int64 { return 0 }
