package online

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
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

// TestProbeSmoothingOverflow checks that smoothing's constants overflowed
// by a huge Lipschitz constant L or diameter D are refused with an error
// naming that input: it said "C=+Inf", a constant the caller never gave.
func TestProbeSmoothingOverflow(t *testing.T) {
	tests := []struct {
		name string
		p    Params
		lmo  lazycg.LMO
		want string // in the error; "" for none
	}{
		{"L 1e308", Params{Smoothing: true, L: 1e308, D: 1, L1Diameter: 2}, nil, "Lipschitz constant L=1e+308 is too large"},
		{"L MaxFloat64, default D", Params{Smoothing: true, L: math.MaxFloat64}, sizedZeroOne{3}, "Lipschitz constant L=1.7976931348623157e+308 is too large"},
		{"L 1e308, tiny D", Params{Smoothing: true, L: 1e308, D: 1e-200, L1Diameter: 2}, nil, "L=1e+308 is too large"},
		{"D 1e200", Params{Smoothing: true, L: 1, D: 1e200, L1Diameter: 2}, nil, "diameter D=1e+200 is too large for L=1"},
		{"D +Inf", Params{Smoothing: true, L: 1, D: math.Inf(1), L1Diameter: 2}, nil, "diameter D=+Inf is too large"},
		{"L 4.4e307, only L + 4L·D/√k overflows", Params{Smoothing: true, L: 4.4e307, D: 1, L1Diameter: 1}, nil, "L=4.4e+307 is too large"},
		{"D 1e160, only C overflows", Params{Smoothing: true, L: 1, D: 1e160, L1Diameter: 1}, nil, "D=1e+160 is too large"},
		{"L and D moderate", Params{Smoothing: true, L: 1e100, D: 1e100, L1Diameter: 2}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Check(tc.lmo)
			if msg := testutil.ErrMismatch(err, tc.want); msg != "" {
				t.Fatal(msg)
			}
			if err != nil && strings.Contains(err.Error(), "C=+Inf") {
				t.Fatalf("error %q blames C, which the caller did not give", err)
			}
		})
	}
}
