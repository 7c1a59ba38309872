package cbc_test

import (
	"context"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
)

// TestThreadsDeterministic: a threaded call runs CBC's deterministic
// parallel search, so that repeated solves of lseu and stein27 on two
// threads, exact and with a bound to certify, search the same number of
// nodes and return the same answer (the optimum, or a bound at most the
// optimum). In CBC's default opportunistic mode the node counts of the
// exact solves varied from call to call (337 to 492 on lseu with the
// standard search), and once a solve of lseu reported 1128 as the optimum
// (1120).
func TestThreadsDeterministic(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  float64
	}{
		{"lseu", 1120},
		{"stein27", 18},
	} {
		m := cbcFixture(t, tc.name)
		dst := make([]float64, m.NumCols())
		for _, search := range []mip.Search{mip.SearchStandard, mip.SearchLight} {
			for _, rule := range []lazycg.StopRule{
				{},                                      // exact
				{Certify: tc.opt - 0.5, Improve: -1e30}, // certify just below the optimum
			} {
				var first lazycg.LinearResult
				for rep := 0; rep < 3; rep++ {
					s := cbcSolver(t, m, mip.Options{Search: search, Threads: 2})
					var res lazycg.LinearResult
					var err error
					if rule == (lazycg.StopRule{}) {
						res, err = s.Minimize(context.Background(), dst, m.Obj)
					} else {
						res, err = s.MinimizeUntil(context.Background(), dst, m.Obj, rule)
					}
					if err != nil {
						t.Fatalf("%s search %d rule %+v: %v", tc.name, search, rule, err)
					}
					if rule == (lazycg.StopRule{}) {
						if !cbcNear(res.Value, tc.opt) || !cbcFeasible(m, dst) || res.Bound > tc.opt+1e-6 {
							t.Errorf("%s search %d: value %g bound %g, want the optimum %g", tc.name, search, res.Value, res.Bound, tc.opt)
						}
					} else if res.Reason != lazycg.StopCertified || res.Bound < rule.Certify || res.Bound > tc.opt+1e-6 {
						t.Errorf("%s search %d certify %g: %+v (optimum %g)", tc.name, search, rule.Certify, res, tc.opt)
					}
					if rep == 0 {
						first = res
						continue
					}
					if res.Nodes != first.Nodes || res.Value != first.Value || res.Bound != first.Bound || res.Reason != first.Reason {
						t.Errorf("%s search %d rule %+v: repetition %d gave %+v, the first %+v", tc.name, search, rule, rep, res, first)
					}
				}
			}
		}
	}
}
