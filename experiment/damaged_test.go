package experiment

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyTinyExperiment copies the tiny suite's experiment name into a new
// output directory with a summary.json of its own, and returns it.
func copyTinyExperiment(t *testing.T, name string) (string, *SuiteResult) {
	t.Helper()
	src, res, _ := runTiny(t)
	out := t.TempDir()
	var er *ExperimentResult
	for i := range res.Experiments {
		if res.Experiments[i].Spec.Name == name {
			e := res.Experiments[i]
			er = &e
		}
	}
	if er == nil {
		t.Fatalf("no experiment %s", name)
	}
	if err := os.MkdirAll(filepath.Join(out, name), 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Join(src, name))
	if err != nil {
		t.Fatal(err)
	}
	for _, ent := range ents {
		b, err := os.ReadFile(filepath.Join(src, name, ent.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, name, ent.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	one := *res
	one.Experiments = []ExperimentResult{*er}
	if err := writeJSON(filepath.Join(out, SummaryFile), &one); err != nil {
		t.Fatal(err)
	}
	return out, &one
}

// TestReportTruncatedTrace: a trace cut at a line boundary reads as a
// valid CSV; the report must not draw a figure from it as if it were the
// run.
func TestReportTruncatedTrace(t *testing.T) {
	out, res := copyTinyExperiment(t, "birkhoff-6")
	r := res.Experiments[0].Runs[1]
	path := filepath.Join(out, "birkhoff-6", r.Trace)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:len(lines)/2], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Report(out, ReportOptions{Figures: true})
	if !errors.Is(err, ErrFigures) || !strings.Contains(err.Error(), "the run recorded") {
		t.Fatalf("Report with a truncated trace: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "birkhoff-6", FigurePNG)); err == nil {
		t.Error("a figure was drawn from the truncated trace")
	}
}

// TestLogTickLabels: the labels of a log axis are the powers of ten as
// written, not their floating-point approximations (9.999999999999999e-05).
func TestLogTickLabels(t *testing.T) {
	for _, r := range [][2]float64{{1e-10, 10}, {3e-7, 2e-3}, {0.5, 2e6}} {
		labeled := 0
		for _, tk := range (logTicks{}).Ticks(r[0], r[1]) {
			if tk.Label == "" {
				continue
			}
			labeled++
			if strings.Contains(tk.Label, "999") || strings.Contains(tk.Label, "000000000") {
				t.Errorf("range %g..%g: tick %g labeled %q", r[0], r[1], tk.Value, tk.Label)
			}
		}
		if labeled < 2 {
			t.Errorf("range %g..%g: %d labeled ticks", r[0], r[1], labeled)
		}
	}
}

// TestRepeatKeepsBaseline: with several non-lazy variants, the reversed
// order of the even repetitions must not compare the lazy run with
// another baseline than the odd ones do.
func TestRepeatKeepsBaseline(t *testing.T) {
	s, err := ParseSuite("rp.json", []byte(`{"name": "rp", "defaults": {"max_iterations": 20}, "experiments": [
  {"name": "a", "polytope": "birkhoff:4", "objective": "quadratic", "methods": ["cg", "cg-ls", "lcg"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Repeat(2)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	run := &Runner{Out: t.TempDir(), Log: &log, NoFigures: true}
	res, err := run.Run(t.Context(), r)
	if err != nil {
		t.Fatal(err)
	}
	for _, er := range res.Experiments {
		lcg := er.run("lcg")
		if lcg == nil || lcg.Versus == nil || lcg.Versus.Baseline != "cg" {
			t.Errorf("%s: lcg compared with %+v, want cg", er.Spec.Name, lcg.Versus)
		}
	}
	// A hand-made result comparing the repetitions with different
	// baselines gets a row per baseline.
	sp := 2.0
	for i := range res.Experiments {
		res.Experiments[i].run("lcg").Versus = &Comparison{Baseline: []string{"cg", "cg-ls"}[i], Measure: MeasurePrimal, Reached: true, Speedup: &sp}
	}
	tab := RepeatTable(res)
	if !strings.Contains(tab, "| a | lcg (cg) | 1 |") || !strings.Contains(tab, "| a | lcg (cg-ls) | 1 |") {
		t.Errorf("repeat table mixes baselines:\n%s", tab)
	}
}

// TestRepeatLongName: a name that fits alone but not with the
// repetition suffix gets an error saying so.
func TestRepeatLongName(t *testing.T) {
	name := strings.Repeat("a", 97)
	s, err := ParseSuite("long.json", []byte(`{"name": "l", "defaults": {"max_iterations": 20}, "experiments": [
  {"name": "`+name+`", "polytope": "birkhoff:4", "objective": "quadratic", "methods": ["cg", "lcg"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Repeat(9); err != nil {
		t.Errorf("Repeat(9): %v", err)
	}
	if _, err := s.Repeat(10); err == nil || !strings.Contains(err.Error(), "shorten its name") {
		t.Errorf("Repeat(10): %v", err)
	}
}

// TestSavedPointOfAnotherRun: a run's point file replaced by another
// run's is reported, not credited to the run.
func TestSavedPointOfAnotherRun(t *testing.T) {
	prob := simplexStream(t, 3, 20)
	dir := t.TempDir()
	x := []float64{1, 0, 0}
	if err := WritePointFile(filepath.Join(dir, "b"+PointSuffix), SavedPoint{Label: "A", Fingerprint: "fp", Rounds: 10, X: x}); err != nil {
		t.Fatal(err)
	}
	er := &ExperimentResult{Runs: []RunResult{{Label: "B", Fingerprint: "fp", LastPoint: "b" + PointSuffix}}}
	row := &HindsightRow{Rounds: 10}
	_, err := savedPointsBound(er, &er.Runs[0], dir, prob, row, math.Inf(-1))
	if err == nil || !strings.Contains(err.Error(), "the point is A's, not B's") || row.Point != "" {
		t.Errorf("savedPointsBound: %v, point from %q", err, row.Point)
	}
}
