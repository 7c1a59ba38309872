package lmo

import (
	"runtime"
	"testing"
)

// TestProbeLayeredDAGOneFrameMemory checks that LayeredDAG with a single
// frame does not allocate the boxes×boxes table of kept pairs, which it
// never uses: for 2^13 boxes that was 64 MiB for 2^14 arcs, and for the
// 2^27 boxes that the arc limit allows a makeslice panic.
func TestProbeLayeredDAGOneFrameMemory(t *testing.T) {
	const boxes = 1 << 13
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d, err := LayeredDAG(1, boxes, 0.5, 1)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if d.Dim() != 2*boxes || d.MaxPathArcs() != 2 {
		t.Fatalf("Dim %d, MaxPathArcs %d", d.Dim(), d.MaxPathArcs())
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("LayeredDAG(1, %d) allocated %d bytes, want < 16 MiB", boxes, got)
	}
}
