package lmo

import (
	"fmt"
	"strings"
	"testing"
)

// TestProbeSupplySumOverflow checks that supplies whose int64 sum wraps
// around to 0 (2^11 nodes of supply 2^53 sum to 2^64) are rejected as
// unbalanced by ReadDIMACS and FlowNetwork.Validate, while a balanced
// network whose partial sums pass 2^63 is accepted.
func TestProbeSupplySumOverflow(t *testing.T) {
	const n = 1 << 11
	var b strings.Builder
	fmt.Fprintf(&b, "p min %d 0\n", n)
	for v := 1; v <= n; v++ {
		fmt.Fprintf(&b, "n %d %d\n", v, MaxFlowAmount)
	}
	if net, err := ReadDIMACS(strings.NewReader(b.String())); err == nil {
		t.Errorf("ReadDIMACS accepted %d supplies of 2^53 (Nodes %d)", n, net.Nodes)
	} else if !strings.Contains(err.Error(), "supplies sum to 18446744073709551616") {
		t.Errorf("error %q does not state the sum 2^64", err)
	}
	net := &FlowNetwork{Nodes: n, Supply: make([]int64, n)}
	for v := range net.Supply {
		net.Supply[v] = MaxFlowAmount
	}
	if err := net.Validate(); err == nil {
		t.Error("Validate accepted supplies summing to 2^64")
	}
	net.Supply[0] = -MaxFlowAmount // 2^64 − 2^54: not 0 either
	if err := net.Validate(); err == nil {
		t.Error("Validate accepted supplies summing to 2^64 − 2^54")
	}
	// Balanced: 2^10 supplies of 2^53 (partial sum 2^63) then 2^10 of −2^53.
	for v := range net.Supply {
		net.Supply[v] = MaxFlowAmount
		if v >= n/2 {
			net.Supply[v] = -MaxFlowAmount
		}
	}
	if err := net.Validate(); err != nil {
		t.Errorf("balanced supplies rejected: %v", err)
	}
	// Negative sums are stated exactly too.
	net.Supply = []int64{-MaxFlowAmount, -MaxFlowAmount, 5}
	net.Nodes = 3
	if err := net.Validate(); err == nil || !strings.Contains(err.Error(), "supplies sum to -18014398509481979") {
		t.Errorf("error %v, want the sum −2^54 + 5", err)
	}
}
