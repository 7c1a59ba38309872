package lazycg

import (
	"context"
	"testing"
)

// TestCostSplit checks that a run splits its time into gradient
// evaluations, LMO calls, cache scans and line searches, each part
// measured and together at most the run time, in Stats and in the trace.
func TestCostSplit(t *testing.T) {
	p, _ := simplexProblem(2000, 5)
	res, err := Minimize(context.Background(), p, &Settings{MaxIterations: 300}, &LazyCG{K: 1.1})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats
	if st.GradTime <= 0 || st.OracleTime <= 0 || st.CacheTime <= 0 || st.LineSearchTime <= 0 {
		t.Fatalf("a part of the split is missing: %+v", st)
	}
	if sum := st.GradTime + st.OracleTime + st.CacheTime + st.LineSearchTime; sum > st.Runtime {
		t.Fatalf("the parts sum to %v > run time %v", sum, st.Runtime)
	}
	last := res.Trace[len(res.Trace)-1]
	if last.GradTime != st.GradTime || last.CacheTime != st.CacheTime || last.LineSearchTime != st.LineSearchTime {
		t.Fatalf("last trace point %+v disagrees with the stats %+v", last, st)
	}
}
