package lazycg

// SetNumCPU makes IdleHull see n cores until the returned function
// restores the machine's count (tests of the hull steps' pause).
func SetNumCPU(n int) (restore func()) {
	old := numCPU
	numCPU = func() int { return n }
	return func() { numCPU = old }
}
