package cbc_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/mip"
)

// generalIntMPS has six integer columns in [−2, 2] (some bounded by rows
// only, free or half free), an equality and two inequality rows.
const generalIntMPS = `NAME probe
ROWS
 N OBJ
 L box
 L R1
 L R2
 L R3
 E eq
 L le
 L rg
COLUMNS
    MARKER 'MARKER' 'INTORG'
    x0 rg 2
    x1 box 1
    x1 eq 1
    x1 rg 1
    x2 le -1
    x2 rg 1
    x3 R1 1
    x4 R2 1
    x4 eq -2
    x5 R3 1
    x5 le 3
    x5 rg -2
    MARKER 'MARKER' 'INTEND'
RHS
    RHS box 2
    RHS R1 2
    RHS R2 2
    RHS R3 2
    RHS le 7
    RHS rg 1
RANGES
    RNG box 4
    RNG R1 4
    RNG R2 4
    RNG R3 4
    RNG rg 2
BOUNDS
 LO BND x0 -2
 UP BND x0 2
 MI BND x1
 UP BND x1 2
 LO BND x2 -2
 UP BND x2 2
 FR BND x3
 LO BND x4 -2
 PL BND x4
 MI BND x5
 UP BND x5 2
ENDATA
`

// intPoints enumerates the feasible points of m in the box [−2, 2]^n.
func intPoints(m *mip.Model) [][]float64 {
	n := m.NumCols()
	var out [][]float64
	x := make([]float64, n)
	var rec func(j int)
	rec = func(j int) {
		if j == n {
			if m.Check(x, 1e-9) == nil {
				out = append(out, append([]float64(nil), x...))
			}
			return
		}
		for v := -2; v <= 2; v++ {
			x[j] = float64(v)
			rec(j + 1)
		}
	}
	rec(0)
	return out
}

// TestStandardGeneralIntegerProbing: CBC's standard search (CbcMain1)
// strengthens rows in its probing with the cutoff of an incumbent, which
// on general integer columns cut off the optimum: "optimal" at −16.33
// (bound −16.33) where −16.67 is feasible (the shim's
// noProbingStrengthening).
func TestStandardGeneralIntegerProbing(t *testing.T) {
	m, err := mip.ReadMPS(strings.NewReader(generalIntMPS))
	if err != nil {
		t.Fatal(err)
	}
	c := []float64{-2.0 / 3, 3, 2.0 / 3, -10.0 / 3, 2.0 / 3, 1}
	opt := math.Inf(1)
	for _, p := range intPoints(m) {
		opt = math.Min(opt, dot(c, p))
	}
	for _, search := range []mip.Search{mip.SearchStandard, mip.SearchLight} {
		s := cbcSolver(t, m, mip.Options{Search: search, Preprocess: mip.PreprocessOff})
		dst := make([]float64, m.NumCols())
		res, err := s.Minimize(context.Background(), dst, c)
		if err != nil {
			t.Fatal(err)
		}
		if !cbcNear(res.Value, opt) || res.Bound > opt+1e-9 {
			t.Errorf("%v search: %+v at %v, optimum %g", search, res, dst, opt)
		}
	}
}
