package experiment

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunnerDC runs a difference-of-convex experiment (concave set) in a
// suite: both runs see the same F and G, their summaries carry the DCA
// fields and no dual bound, the traces end at the summaries' values, and
// the lazy run is compared with the baseline on φ.
func TestRunnerDC(t *testing.T) {
	s, err := ParseSuite("dc.json", []byte(`{"name": "dc", "experiments": [
	  {"name": "dc-birkhoff", "polytope": "birkhoff:5", "objective": "quadratic", "concave": "distance:weight=0.6",
	   "time_limit": 20, "methods": ["bpcg", "lazy-bpcg"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var log bytes.Buffer
	r := &Runner{Out: filepath.Join(dir, "out"), DataDir: dir, Log: &log}
	res, err := r.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	er := res.Experiments[0]
	if len(er.Runs) != 2 || er.Runs[0].Fingerprint != er.Runs[1].Fingerprint || er.Runs[0].Fingerprint == "" {
		t.Fatalf("runs %+v", er.Runs)
	}
	for _, rr := range er.Runs {
		sum := rr.Summary
		if sum == nil || sum.DCSummary == nil || sum.DualBound != nil || sum.Status != "gap-converged" ||
			sum.GapBound == nil || *sum.GapBound > 1e-9 || sum.DCAIterations < 2 {
			t.Fatalf("%s: summary %+v (%+v)", rr.Label, sum, sum.DCSummary)
		}
		tr, err := ReadTraceFile(filepath.Join(r.Out, er.Spec.Name, rr.Trace))
		if err != nil {
			t.Fatal(err)
		}
		last := tr.Points[len(tr.Points)-1]
		if last.Primal != sum.Primal || last.Iteration != sum.Iterations || last.LMOCalls != sum.LMOCalls ||
			!math.IsInf(last.DualBound, -1) || len(tr.Points) != sum.DCAIterations+1 {
			t.Fatalf("%s: last trace point %+v, summary %+v, %d points", rr.Label, last, sum, len(tr.Points))
		}
	}
	if v := er.run("lazy-bpcg").Versus; v == nil || v.Baseline != "bpcg" || v.Measure != MeasurePrimal {
		t.Fatalf("comparison %+v", v)
	}
	if tab := SummaryTable(res); !strings.Contains(tab, "none (DCA gap ≤ ") {
		t.Fatalf("the summary table does not state the DCA gap:\n%s", tab)
	}
}
