package mip

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestTSPInstanceNonFiniteCoords: a TSP instance built by hand with a NaN,
// infinite or huge coordinate is refused by every method that computes
// distances, naming the instance, the coordinate and the node. Without
// the check Dist returned math.MinInt for every pair with that node,
// ArcCosts and EdgeCosts returned −9.2e18 costs silently, and TourLength
// reported an int overflow instead of the bad coordinate.
func TestTSPInstanceNonFiniteCoords(t *testing.T) {
	for _, wt := range []string{"EUC_2D", "CEIL_2D", "ATT", "GEO"} {
		for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -2e15} {
			for _, axis := range []string{"X", "Y"} {
				inst := &TSPInstance{Name: "h", N: 4, WeightType: wt, X: []float64{0, 3, 0, 1}, Y: []float64{0, 0, 4, 1}}
				if axis == "X" {
					inst.X[1] = v
				} else {
					inst.Y[1] = v
				}
				want := fmt.Sprintf(`TSP instance "h": coordinate %s of node 1 is %g`, axis, v)
				name := fmt.Sprintf("%s/%s=%g", wt, axis, v)
				expectPanic(t, name+"/Dist", func() { inst.Dist(0, 1) }, "mip: TSPInstance.Dist: "+want)
				expectPanic(t, name+"/Dist to itself", func() { inst.Dist(1, 1) }, "mip: TSPInstance.Dist: "+want)
				expectPanic(t, name+"/ArcCosts", func() { inst.ArcCosts() }, "mip: TSPInstance.ArcCosts: "+want)
				expectPanic(t, name+"/EdgeCosts", func() { inst.EdgeCosts() }, "mip: TSPInstance.EdgeCosts: "+want)
				if l, err := inst.TourLength([]int{0, 1, 2, 3}); err == nil || !strings.HasPrefix(err.Error(), "mip: TSPInstance.TourLength: "+want) {
					t.Errorf("%s: TourLength = %d, %v; want the error %q", name, l, err, want)
				}
				// Dist between other nodes is O(1) and checks only theirs.
				if d := inst.Dist(0, 2); d < 0 {
					t.Errorf("%s: Dist(0, 2) = %d", name, d)
				}
			}
		}
	}
	// The readers' limit itself is accepted (TestTourLengthOverflow).
	edge := &TSPInstance{N: 3, WeightType: "EUC_2D", X: []float64{-1e15, 1e15, 0}, Y: []float64{0, 0, 1e15}}
	if d := edge.Dist(0, 1); d != 2e15 {
		t.Errorf("Dist at the coordinate limit = %d, want 2e15", d)
	}
	if len(edge.ArcCosts()) != 6 || len(edge.EdgeCosts()) != 3 {
		t.Error("costs at the coordinate limit")
	}
}

// TestTSPLIBNonFiniteNumbers: the reader refuses NaN and infinite numbers
// (which strconv.ParseFloat accepts as "nan", "inf", "Infinity" or, as
// ±Inf with a range error, 1e400) in coordinate sections, and any
// non-integer in EDGE_WEIGHT_SECTION, with the line.
func TestTSPLIBNonFiniteNumbers(t *testing.T) {
	const head = "NAME: e\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\n"
	const exp = "NAME: e\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n"
	var cases []struct{ name, src, want string }
	for _, tok := range []string{"nan", "NaN", "-nan", "inf", "+Inf", "-inf", "Infinity", "-infinity", "1e400", "-1e400"} {
		cases = append(cases,
			struct{ name, src, want string }{"x " + tok, head + "NODE_COORD_SECTION\n1 0 0\n2 " + tok + " 1\n3 2 2\n",
				fmt.Sprintf("line 7: NODE_COORD_SECTION: bad number %q", tok)},
			struct{ name, src, want string }{"y " + tok, head + "NODE_COORD_SECTION\n1 0 0\n2 1 1\n3 2 " + tok + "\n",
				fmt.Sprintf("line 8: NODE_COORD_SECTION: bad number %q", tok)},
			struct{ name, src, want string }{"display " + tok, exp + "1 2 3\nDISPLAY_DATA_SECTION\n1 0 " + tok + "\n2 0 0\n3 0 0\n",
				fmt.Sprintf("line 8: DISPLAY_DATA_SECTION: bad number %q", tok)},
			struct{ name, src, want string }{"weight " + tok, exp + "1 " + tok + " 3\n",
				fmt.Sprintf("line 6: EDGE_WEIGHT_SECTION: bad integer %q", tok)},
		)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inst, err := ReadTSPLIB(strings.NewReader(tc.src))
			if err == nil {
				t.Fatalf("accepted (X %v, Y %v); want %q", inst.X, inst.Y, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "mip: tsplib: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
	// Negative explicit weights are read: the polytope does not depend on
	// the weights, only the objective does.
	inst, err := ReadTSPLIB(strings.NewReader(exp + "-1 2 3\n"))
	if err != nil || inst.Dist(0, 1) != -1 {
		t.Errorf("negative weight: %v", err)
	}
}
