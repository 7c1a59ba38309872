package lmo

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// TestProbeSizesRefusedBeforeAllocation checks constructors given sizes
// and parameters that must be refused with an "lmo:" error naming the
// parameter and its limit, without a panic and before the oracle's
// buffers are allocated: NewLInfBall panicked (makeslice: len out of
// range) for n = 2^62 and MaxInt; NewNuclearBall allocated its Lanczos
// buffers for an m·n beyond lazycg.MaxDim (2^31−1 square: a fatal out of
// memory); NewSpanningTree allocated O(nodes) buffers before finding a
// graph with fewer than nodes − 1 edges disconnected; NewOSCARBall
// allocated its n weights, and NewOWLBall its four buffers, before
// checking the radius and the weights.
//
// Every size here is refused before allocation with the fixes; without
// them the largest allocation attempted is about 600 MB of untouched
// memory (the nuclear row), so the test is safe on a small machine either
// way.
func TestProbeSizesRefusedBeforeAllocation(t *testing.T) {
	const big = 1 << 22
	owlW := make([]float64, 1<<20)
	for i := range owlW {
		owlW[i] = 1
	}
	owlW[len(owlW)-1] = math.NaN()
	tests := []struct {
		name string
		make func() error
		want []string // key words of the error
		// maxAlloc bounds the bytes the call may allocate (0: not checked,
		// for rows whose unfixed version panics before allocating).
		maxAlloc uint64
	}{
		{"linf/2^62", func() error { _, err := NewLInfBall(1<<62, 1); return err },
			[]string{"lmo: linf ball:", "dimension", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim), fmt.Sprint(1 << 62)}, 0},
		{"linf/maxint", func() error { _, err := NewLInfBall(math.MaxInt, 1); return err },
			[]string{"lmo: linf ball:", "dimension", "lazycg.MaxDim", fmt.Sprint(math.MaxInt)}, 0},
		{"nuclear/m·n-over-MaxDim", func() error { _, err := NewNuclearBall(1<<20+1, 1<<20+1, 1); return err },
			[]string{"lmo: nuclear ball:", "1048577×1048577", "m·n", "lazycg.MaxDim", fmt.Sprint(lazycg.MaxDim)}, 1 << 20},
		{"spanning-tree/too-few-edges", func() error { _, err := NewSpanningTree(big, [][2]int{{0, 1}}); return err },
			[]string{"lmo: spanning tree:", "disconnected", fmt.Sprint(big), "at least", fmt.Sprint(big - 1)}, 1 << 20},
		{"oscar/nan-radius", func() error { _, err := NewOSCARBall(big, 1, 1, math.NaN()); return err },
			[]string{"lmo: oscar ball:", "radius", "NaN"}, 1 << 20},
		{"oscar/zero-weights", func() error { _, err := NewOSCARBall(big, 0, 0, 1); return err },
			[]string{"lmo: oscar ball:", "first weight", "> 0"}, 1 << 20},
		{"oscar/infinite-first-weight", func() error { _, err := NewOSCARBall(big, 1e308, 1e308, 1); return err },
			[]string{"lmo: oscar ball:", "first weight", "finite"}, 1 << 20},
		{"owl/nan-weight", func() error { _, err := NewOWLBall(owlW, 1); return err },
			[]string{"lmo: owl ball:", "weight", "NaN"}, 1 << 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var (
				err    error
				before runtime.MemStats
				after  runtime.MemStats
			)
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				runtime.ReadMemStats(&before)
				err = tc.make()
				runtime.ReadMemStats(&after)
			}()
			if err == nil {
				t.Fatal("accepted, want an error")
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if got := after.TotalAlloc - before.TotalAlloc; tc.maxAlloc > 0 && got > tc.maxAlloc {
				t.Errorf("allocated %d bytes before refusing, want at most %d", got, tc.maxAlloc)
			}
		})
	}
}
