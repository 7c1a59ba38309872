package lmo

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

// TestHugeCostsNoOverflow checks oracles whose internal sums of costs
// overflowed for finite costs near MaxFloat64 although the optimum has a
// modest value: an infinite partial sum won a comparison it should lose
// (OWL, K-norm), an infinite label hid every path or assignment through it
// (path: a wrong path, an index −1 panic or a spurious empty face;
// Birkhoff: a spurious empty face), and Inf − Inf = NaN hid cuts from the
// enumeration table (cut). The rows marked beyond have an optimum beyond
// the range of float64 (2e308): the oracle must refuse it with the error
// saying so (it returned Value +Inf before 2026-12-03), not panic or call
// the face empty.
func TestHugeCostsNoOverflow(t *testing.T) {
	must := func(l lazycg.LMO, err error) lazycg.LMO {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	owl := must(NewOWLBall([]float64{1, 1, 1}, 1))
	knorm := must(NewKNormBall(4, 2, 1e-10))
	path2 := must(NewDAG(3, [][2]int{{0, 1}, {1, 2}}, 0, 2))
	// Path 0→1→2→3→4 (arcs 0, 2, 1, 3) costs exactly 0, the arc 0→4 costs 1.
	path5 := must(NewDAG(5, [][2]int{{0, 1}, {2, 3}, {1, 2}, {3, 4}, {0, 4}}, 0, 4))
	birk := must(NewBirkhoff(2))
	cut := must(CompleteGraphCut(4)) // edges 01 02 03 12 13 23
	const big = 1e308
	tests := []struct {
		name   string
		lmo    lazycg.LMO
		zero   []bool // MinimizeFace when not nil
		c      []float64
		want   []float64
		beyond bool // c·want lies beyond float64: want errBeyondFloat64
	}{
		{"owl/sum-overflows", owl, nil, []float64{1.7e308, 0.1e308, 0}, []float64{-1, 0, 0}, false},
		{"knorm/l1-norm-overflows", knorm, nil, []float64{big, big, big, big}, []float64{-5e-11, -5e-11, -5e-11, -5e-11}, false},
		{"path/label-overflows", path2, nil, []float64{big, big}, []float64{1, 1}, true},
		{"path/face-label-overflows", path2, []bool{false, false}, []float64{big, big}, []float64{1, 1}, true},
		{"path/overflow-hides-best", path5, nil, []float64{big, -big, big, -big, 1}, []float64{1, 1, 1, 1, 0}, false},
		{"path/face-overflow-hides-best", path5, make([]bool, 5), []float64{big, -big, big, -big, 1}, []float64{1, 1, 1, 1, 0}, false},
		{"birkhoff/potentials-overflow", birk, nil, []float64{-1.7e308, 1.359e308, -1.7e308, 1.7e308}, []float64{0, 1, 1, 0}, false},
		{"birkhoff/face-potentials-overflow", birk, make([]bool, 4), []float64{-1.7e308, 1.359e308, -1.7e308, 1.7e308}, []float64{0, 1, 1, 0}, false},
		{"cut/table-sum-overflows", cut, nil, []float64{-1, -1, -1, 0, big, big}, []float64{1, 1, 1, 0, 0, 0}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]float64, len(tc.c))
			var (
				res lazycg.LinearResult
				err error
			)
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				if tc.zero != nil {
					res, err = tc.lmo.(lazycg.FaceMinimizer).MinimizeFace(context.Background(), dst, tc.c, tc.zero)
				} else {
					res, err = tc.lmo.Minimize(context.Background(), dst, tc.c)
				}
			}()
			if tc.beyond {
				if err == nil || !strings.Contains(err.Error(), "beyond the range of float64") {
					t.Fatalf("c = %v: result %+v (%v), want the error that c·v lies beyond the range of float64", tc.c, res, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("c = %v: %v", tc.c, err)
			}
			if !slices.Equal(dst, tc.want) {
				t.Fatalf("c = %v: dst = %v (value %v), want %v (value %v)", tc.c, dst, res.Value, tc.want, basicNaiveDot(tc.c, tc.want))
			}
			if got := basicNaiveDot(tc.c, dst); res.Value != got || !res.Optimal() {
				t.Fatalf("result %+v, want exact with Value c·dst = %v", res, got)
			}
		})
	}
}

// TestPathAugmentHugeCosts checks that PathPolytope.Augment does not
// report an improvement that exists only because its labels overflowed:
// the path 0→1→2→3 costs exactly as much as the arc 0→3 (−1e308), but its
// label −1.7e308 − 1e308 = −Inf looked cheaper.
func TestPathAugmentHugeCosts(t *testing.T) {
	d, err := NewDAG(4, [][2]int{{0, 1}, {2, 3}, {1, 2}, {0, 3}}, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		c, x   []float64
		better bool // an improving path exists
	}{
		{"tie", []float64{-1.7e308, 1.7e308, -1e308, -1e308}, []float64{0, 0, 0, 1}, false},
		{"better", []float64{-1.7e308, 1.7e308, -1e308, -0.5e308}, []float64{0, 0, 0, 1}, true},
		{"worse", []float64{-1.7e308, 1.7e308, -0.5e308, -1e308}, []float64{0, 0, 0, 1}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			y := make([]float64, 4)
			ok, err := d.Augment(context.Background(), y, tc.c, tc.x)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.better {
				t.Fatalf("Augment = %v, want %v (y = %v, c·y = %v, c·x = %v)", ok, tc.better, y, basicNaiveDot(tc.c, y), basicNaiveDot(tc.c, tc.x))
			}
			if ok && !(basicNaiveDot(tc.c, y) < basicNaiveDot(tc.c, tc.x)) {
				t.Fatalf("y = %v does not improve: c·y = %v, c·x = %v", y, basicNaiveDot(tc.c, y), basicNaiveDot(tc.c, tc.x))
			}
		})
	}
}

// TestFlowAugmentHugeCosts checks that FlowPolytope.Augment finds a
// negative cycle whose labels would overflow: two units go from node 0 to
// node 1 over the arc of cost −1 while the parallel arc of cost −1e308 has
// room for one. The labels reached −Inf after four updates, before the
// predecessor graph was checked (every 5 updates, one per node), and then
// stopped changing, so the search reported x optimal.
func TestFlowAugmentHugeCosts(t *testing.T) {
	net := &FlowNetwork{
		Nodes:  5, // nodes 2…4 are isolated: they only delay the cycle check
		Supply: []int64{2, -2, 0, 0, 0},
		Arcs:   []Arc{{From: 0, To: 1, Cap: 1}, {From: 0, To: 1, Cap: 2}},
	}
	p, err := NewFlowPolytope(net)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		c, x   []float64
		better bool
	}{
		{"negative-cycle", []float64{-1e308, -1}, []float64{0, 2}, true},
		{"negative-cycle-max", []float64{-math.MaxFloat64, -1}, []float64{0, 2}, true},
		{"optimal", []float64{-1, -1e308}, []float64{0, 2}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			y := make([]float64, 2)
			ok, err := p.Augment(context.Background(), y, tc.c, tc.x)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.better {
				t.Fatalf("Augment = %v, want %v (y = %v)", ok, tc.better, y)
			}
			if ok && !(basicNaiveDot(tc.c, y) < basicNaiveDot(tc.c, tc.x)) {
				t.Fatalf("y = %v does not improve: c·y = %v, c·x = %v", y, basicNaiveDot(tc.c, y), basicNaiveDot(tc.c, tc.x))
			}
		})
	}
}

// TestConvexHullHugeProducts: atoms and costs whose products overflow
// (1e300·1e10 − 1e300·1e10 is NaN in floating point, though the true c·a
// is 0) no longer give Value = Bound = +Inf; a minimum beyond float64 is an
// error.
func TestConvexHullHugeProducts(t *testing.T) {
	dense := [][]float64{{1e10, -1e10}, {1, 2}, {3, 1}}
	var atoms []SparseAtom
	for _, a := range dense {
		atoms = append(atoms, SparseAtom{Index: []int{0, 1}, Value: a})
	}
	for _, sparse := range []bool{false, true} {
		var h *ConvexHull
		var err error
		if sparse {
			h, err = NewSparseConvexHull(2, atoms)
		} else {
			h, err = NewConvexHull(dense)
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, 2)
		// c·atoms = 0 (NaN in floats), 3e300, 4e300.
		res, err := h.Minimize(context.Background(), dst, []float64{1e300, 1e300})
		if err != nil || res.Value != 0 || res.Bound != 0 || dst[0] != 1e10 {
			t.Errorf("sparse %v: %+v at %v (%v), want 0 at the first atom", sparse, res, dst, err)
		}
		// The first atom's −2e310 is beyond float64: an error.
		if res, err := h.Minimize(context.Background(), dst, []float64{-1e300, 1e300}); err == nil {
			t.Errorf("sparse %v: %+v at %v, want an error", sparse, res, dst)
		}
	}
}

// TestBoxHugeValue: a box answer whose c·v overflows in its terms but not
// in total gets its true value (it was NaN); one beyond float64 is an
// error.
func TestBoxHugeValue(t *testing.T) {
	b, err := NewBox([]float64{-1e10, -1e10}, []float64{1e10, 1e10})
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float64, 2)
	// v = (1e10, −1e10): both terms are −1e310, c·v = −2e310 is beyond
	// float64.
	if res, err := b.Minimize(context.Background(), dst, []float64{-1e300, 1e300}); err == nil {
		t.Errorf("%+v: want an error for c·v = −2e310", res)
	}
	b, err = NewBox([]float64{1e10, -1e10}, []float64{2e10, 1e10})
	if err != nil {
		t.Fatal(err)
	}
	// v = (1e10, −1e10): c·v = 1e310 − 1e310 = 0 (NaN in floats).
	res, err := b.Minimize(context.Background(), dst, []float64{1e300, 1e300})
	if err != nil || res.Value != 0 || res.Bound != 0 {
		t.Errorf("%+v (%v), want the value 0", res, err)
	}
}
