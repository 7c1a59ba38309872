package online

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// sizedZeroOne is a 0/1 polytope with a vertex and an ℓ1-diameter bound
// that claims dimension n: the default diameter reads its vertex into a
// vector of that dimension.
type sizedZeroOne struct{ n int }

func (s sizedZeroOne) Dim() int        { return s.n }
func (s sizedZeroOne) ZeroOne() bool   { return true }
func (s sizedZeroOne) L1Diameter() int { return 2 }
func (s sizedZeroOne) Vertex(dst []float64) {
	clear(dst)
	if len(dst) > 0 {
		dst[0] = 1
	}
}
func (s sizedZeroOne) Minimize(_ context.Context, dst, _ []float64) (lazycg.LinearResult, error) {
	s.Vertex(dst)
	return lazycg.Exact(0), nil
}

// TestProbeParamsLMODimension checks that Params.Check and
// Params.TheoremBound, exported and callable without a problem, refuse an
// LMO whose dimension is out of [1, lazycg.MaxDim] with an error naming
// the limit: the default diameter allocated a vector of that dimension
// and panicked in makeslice (−1, 1<<62) or asked for terabytes.
func TestProbeParamsLMODimension(t *testing.T) {
	for _, n := range []int{0, -1, 1 << 62, math.MaxInt, math.MinInt} {
		for name, call := range map[string]func() error{
			"Check":        func() error { return Params{}.Check(sizedZeroOne{n}) },
			"TheoremBound": func() error { _, err := Params{L: 1}.TheoremBound(sizedZeroOne{n}, 10); return err },
		} {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s, dimension %d: panicked: %v", name, n, r)
					}
				}()
				err = call()
			}()
			if err == nil || !strings.HasPrefix(err.Error(), "online: ") || !strings.Contains(err.Error(), "(lazycg.MaxDim)") {
				t.Errorf("%s, dimension %d: error %v, want one naming lazycg.MaxDim", name, n, err)
			}
		}
	}
	// Legal sizes keep working.
	if err := (Params{}).Check(sizedZeroOne{3}); err != nil {
		t.Errorf("dimension 3: %v", err)
	}
	if err := (Params{D: 1}).Check(nil); err != nil {
		t.Errorf("nil LMO with D set: %v", err)
	}
}
