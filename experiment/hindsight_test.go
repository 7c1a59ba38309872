package experiment

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRehindsight runs a small online suite, solves its hindsight problems
// again and checks that the new brackets are those of the runs (the
// solves converge here, so they must agree with the recorded ones), that
// -run selects runs, that a changed generator (a fingerprint that differs)
// is an error in its row, and that a directory without a summary fails.
func TestRehindsight(t *testing.T) {
	dir, res := runSuiteJSON(t, `{"name": "online", "experiments": [
	  {"name": "online-h", "polytope": "birkhoff:5", "losses": "quadratic:rounds=60", "time_limit": "1m",
	   "methods": ["ocg", "locg-pf"]},
	  {"name": "offline", "polytope": "simplex:5", "objective": "distance", "time_limit": "1s", "methods": ["cg"]}]}`)
	rows, err := Rehindsight(context.Background(), dir, HindsightOptions{TimeLimit: 20e9})
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %+v, error %v", rows, err)
	}
	for i, row := range rows {
		rr := &res.Experiments[0].Runs[i]
		if row.Err != nil || row.Experiment != "online-h" || row.Label != rr.Label || row.Rounds != 60 {
			t.Fatalf("row %+v for run %s", row, rr.Label)
		}
		lo, hi := *rr.Summary.AvgRegretLower, *rr.Summary.AvgRegretUpper
		if row.BeforeLower != lo || row.BeforeUpper != hi {
			t.Errorf("%s: recorded bracket [%g, %g], want [%g, %g]", row.Label, row.BeforeLower, row.BeforeUpper, lo, hi)
		}
		tol := 1e-6 * (1 + math.Abs(lo))
		if !(row.Lower <= row.Upper+tol) || math.Abs(row.Lower-lo) > tol || math.Abs(row.Upper-hi) > tol+(hi-lo) {
			t.Errorf("%s: new bracket [%g, %g], recorded [%g, %g]", row.Label, row.Lower, row.Upper, lo, hi)
		}
	}
	only, err := Rehindsight(context.Background(), dir, HindsightOptions{TimeLimit: 20e9, Run: regexp.MustCompile("^ocg$")})
	if err != nil || len(only) != 1 || only[0].Label != "ocg" {
		t.Errorf("-run ocg: %+v, %v", only, err)
	}
	only, err = Rehindsight(context.Background(), dir, HindsightOptions{TimeLimit: 20e9, Run: regexp.MustCompile("^online-h/locg")})
	if err != nil || len(only) != 1 || only[0].Label != "locg-pf" {
		t.Errorf("-run online-h/locg: %+v, %v", only, err)
	}
	// Polytope options reach the spec: birkhoff:5 has none, so any is refused.
	only, err = Rehindsight(context.Background(), dir, HindsightOptions{TimeLimit: 20e9, Run: regexp.MustCompile("^ocg$"), PolytopeOptions: "cycles=1"})
	if err != nil || len(only) != 1 || only[0].Err == nil || !strings.Contains(only[0].Err.Error(), "cycles") {
		t.Errorf("polytope option cycles=1 on birkhoff:5: %+v, %v", only, err)
	}

	// A run whose inputs differ from the rebuilt ones.
	path := filepath.Join(dir, SummaryFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	run0 := raw["experiments"].([]any)[0].(map[string]any)["runs"].([]any)[0].(map[string]any)
	run0["fingerprint"] = "0123456789abcdef"
	if b, err = json.Marshal(raw); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err = Rehindsight(context.Background(), dir, HindsightOptions{TimeLimit: 20e9})
	if err != nil || len(rows) != 2 || rows[0].Err == nil || !strings.Contains(rows[0].Err.Error(), "fingerprint") ||
		!math.IsNaN(rows[0].Lower) || rows[1].Err != nil {
		t.Errorf("changed fingerprint: %+v, %v", rows, err)
	}

	if _, err := Rehindsight(context.Background(), t.TempDir(), HindsightOptions{}); err == nil {
		t.Error("a directory without summary.json: no error")
	}
}

// TestRehindsightOtherOracle records online runs over a cut polytope
// solved by CBC with the triangle inequalities as a cut pool and solves
// their hindsight problems again over the same polytope by enumeration
// (lazycg hindsight -polytope-options triangles=0,oracle=enum): the
// fingerprint still matches, and the exact solves give the recorded
// (converged) brackets. Options that may change the polytope are refused
// in each run's row.
func TestRehindsightOtherOracle(t *testing.T) {
	dir, res := runSuiteJSON(t, `{"name": "online", "experiments": [
	  {"name": "online-cut", "polytope": "cut:6,triangles=cuts", "losses": "quadratic:rounds=30", "time_limit": "1m",
	   "methods": ["ocg", "locg-pf"]}]}`)
	rows, err := Rehindsight(context.Background(), dir, HindsightOptions{TimeLimit: 20e9, PolytopeOptions: "triangles=0,oracle=enum"})
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %+v, error %v", rows, err)
	}
	for i, row := range rows {
		s := res.Experiments[0].Runs[i].Summary
		lo, hi := *s.AvgRegretLower, *s.AvgRegretUpper
		tol := 1e-6 * (1 + math.Abs(lo))
		if row.Err != nil || row.Rounds != 30 || !(row.Lower <= row.Upper+tol) ||
			math.Abs(row.Lower-lo) > tol+(hi-lo) || math.Abs(row.Upper-hi) > tol+(hi-lo) {
			t.Errorf("%s: new bracket [%g, %g] (%v), recorded [%g, %g]", row.Label, row.Lower, row.Upper, row.Err, lo, hi)
		}
	}
	rows, err = Rehindsight(context.Background(), dir, HindsightOptions{TimeLimit: 20e9, PolytopeOptions: "seed=2"})
	if err != nil || len(rows) != 2 || rows[0].Err == nil || !strings.Contains(rows[0].Err.Error(), "may change the polytope") {
		t.Errorf("polytope option seed=2: %+v, %v", rows, err)
	}
}

// TestHindsightRowCombined checks the intersection of two proven brackets,
// with unknown ends taken from the other bracket.
func TestHindsightRowCombined(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		before, after [2]float64
		want          [2]float64
	}{
		{[2]float64{3.49, 35.4}, [2]float64{6.05, 60.4}, [2]float64{6.05, 35.4}},
		{[2]float64{0.31, 0.56}, [2]float64{0.34, 0.37}, [2]float64{0.34, 0.37}},
		{[2]float64{nan, nan}, [2]float64{1, 2}, [2]float64{1, 2}},
		{[2]float64{1, 2}, [2]float64{nan, nan}, [2]float64{1, 2}},
	} {
		r := HindsightRow{BeforeLower: tc.before[0], BeforeUpper: tc.before[1], Lower: tc.after[0], Upper: tc.after[1]}
		if lo, hi := r.Combined(); lo != tc.want[0] || hi != tc.want[1] {
			t.Errorf("%v and %v: [%g, %g], want %v", tc.before, tc.after, lo, hi, tc.want)
		}
	}
}

// runSuiteJSON runs the suite given as JSON into a temporary directory and
// returns the directory and the result.
func runSuiteJSON(t *testing.T, suite string) (string, *SuiteResult) {
	t.Helper()
	s, err := ParseSuite("suite.json", []byte(suite))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &Runner{Out: dir, DataDir: t.TempDir()}
	res, err := r.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return dir, res
}
