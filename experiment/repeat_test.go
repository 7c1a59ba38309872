package experiment

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/spec"
)

// TestSuiteRepeat checks the expansion of a suite into repetitions: names,
// marks, the variants' alternating order and the errors.
func TestSuiteRepeat(t *testing.T) {
	s, err := ParseSuite("tiny.json", []byte(tinySuite()))
	if err != nil {
		t.Fatal(err)
	}
	if same, err := s.Repeat(1); err != nil || same != s {
		t.Fatalf("Repeat(1) = %p, %v; want the suite itself", same, err)
	}
	for _, n := range []int{0, -1, MaxRepeat + 1} {
		if _, err := s.Repeat(n); err == nil {
			t.Errorf("Repeat(%d) accepted", n)
		}
	}
	r, err := s.Repeat(3)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Experiments) != 3*len(s.Experiments) {
		t.Fatalf("%d experiments, want %d", len(r.Experiments), 3*len(s.Experiments))
	}
	for i, e := range r.Experiments {
		orig := s.Experiments[i/3]
		k := i%3 + 1
		if want := orig.Name + "-r" + string(rune('0'+k)); e.Name != want || e.RepeatOf != orig.Name || e.Repeat != k {
			t.Errorf("experiment %d: %s (of %q, %d), want %s (of %q, %d)", i, e.Name, e.RepeatOf, e.Repeat, want, orig.Name, k)
		}
		for j, v := range e.Variants {
			w := orig.Variants[j]
			if k%2 == 0 {
				w = orig.Variants[len(orig.Variants)-1-j]
			}
			if v.DisplayLabel() != w.DisplayLabel() {
				t.Errorf("%s: variant %d is %s, want %s", e.Name, j, v.DisplayLabel(), w.DisplayLabel())
			}
		}
	}
	// The original's variants are not reordered by the reversal.
	if s.Experiments[0].Variants[0].DisplayLabel() != "CG" {
		t.Error("Repeat changed the original suite")
	}
	if _, err := r.Repeat(2); err == nil || !strings.Contains(err.Error(), "already a repetition") {
		t.Errorf("repeating a repeated suite: %v", err)
	}
}

// TestRepeatTable checks the repeated runs' section on a hand-made result:
// lower medians, a target not reached, a run without a proven dual bound
// and the baseline's values.
func TestRepeatTable(t *testing.T) {
	sp := func(v float64) *float64 { return &v }
	run := func(label string, primal float64, dual *float64, versus *Comparison) RunResult {
		return RunResult{Label: label, Summary: &spec.Summary{Primal: primal, DualBound: dual}, Versus: versus}
	}
	var res SuiteResult
	speedups := []*Comparison{
		{Baseline: "CG", Reached: true, Speedup: sp(3)},
		{Baseline: "CG", Reached: false},
		{Baseline: "CG", Reached: true, Speedup: sp(2)},
		{Baseline: "CG", Reached: true, Speedup: sp(5)},
	}
	for k, c := range speedups {
		er := ExperimentResult{Spec: Experiment{Name: "e-r" + string(rune('1'+k)), RepeatOf: "e", Repeat: k + 1}}
		var lazyDual *float64 // the first repetition proves no bound
		if k > 0 {
			lazyDual = sp(0.5 + float64(k))
		}
		er.Runs = []RunResult{run("CG", 10+float64(k), sp(5+float64(k)), nil), run("LCG", 1+float64(k), lazyDual, c)}
		if k%2 == 1 {
			er.Runs[0], er.Runs[1] = er.Runs[1], er.Runs[0]
		}
		res.Experiments = append(res.Experiments, er)
	}
	res.Experiments = append(res.Experiments, ExperimentResult{Spec: Experiment{Name: "single"},
		Runs: []RunResult{run("CG", 1, nil, nil), run("LCG", 1, nil, speedups[0])}})
	got := RepeatTable(&res)
	for _, want := range []string{"## Repeated runs", "| e | LCG (CG) | 4 | ×3, not reached, ×2, ×5 | ×2 | 2 / 11 | 1.5 / 6 | — |"} {
		if !strings.Contains(got, want) {
			t.Errorf("RepeatTable lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "single") {
		t.Errorf("an experiment that was not repeated is in the table:\n%s", got)
	}
	if RepeatTable(&SuiteResult{Experiments: res.Experiments[4:]}) != "" {
		t.Error("a result without repetitions has a repeated runs section")
	}
	if m := fmtMedian([]float64{math.Inf(-1), 3}); m != "none" {
		t.Errorf("lower median of a missing bound and 3 = %q, want none", m)
	}
	if m := lowerMedian([]float64{4, 1, 3, 2}); m != 2 {
		t.Errorf("lower median of 1..4 = %g, want 2", m)
	}
}

// TestRepeatTableRegretUnknown: the "average regret ≤" column is the
// lower median of the runs' proven upper ends. A repetition without a
// hindsight bound (its upper end unknown) must count as +Inf: dropping it
// would print the median of the other repetitions, which bounds nothing
// (here 0.5 from one of three runs, whose other two may be far above).
func TestRepeatTableRegretUnknown(t *testing.T) {
	sp := func(v float64) *float64 { return &v }
	var res SuiteResult
	for k := range 3 {
		var up *float64
		if k == 0 {
			up = sp(0.5)
		}
		er := ExperimentResult{Spec: Experiment{Name: "o-r" + string(rune('1'+k)), RepeatOf: "o", Repeat: k + 1}}
		er.Runs = []RunResult{
			{Label: "OCG", Online: true, Summary: &spec.Summary{Primal: 3, OnlineSummary: &spec.OnlineSummary{AvgRegretUpper: sp(2)}}},
			{Label: "LOCG", Online: true, Lazy: true, Summary: &spec.Summary{Primal: 2, OnlineSummary: &spec.OnlineSummary{AvgRegretUpper: up}},
				Versus: &Comparison{Baseline: "OCG", Reached: true, Speedup: sp(2)}},
		}
		res.Experiments = append(res.Experiments, er)
	}
	got := RepeatTable(&res)
	if want := "| none / 2 |"; !strings.Contains(got, want) {
		t.Errorf("RepeatTable lacks %q:\n%s", want, got)
	}
	if m := fmtMedian([]float64{math.Inf(1), 3, math.Inf(1)}); m != "none" {
		t.Errorf("lower median of 3 and two missing upper bounds = %q, want none", m)
	}
}

// TestRunnerRepeat runs one tiny experiment twice through the runner and
// checks the order of the runs and the reports.
func TestRunnerRepeat(t *testing.T) {
	s, err := ParseSuite("tiny.json", []byte(tinySuite()))
	if err != nil {
		t.Fatal(err)
	}
	if s, err = s.Select("^birkhoff-6$"); err != nil {
		t.Fatal(err)
	}
	if s, err = s.Repeat(2); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	res, err := (&Runner{Out: out, NoFigures: true}).Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Experiments) != 2 {
		t.Fatalf("%d experiments", len(res.Experiments))
	}
	if a, b := res.Experiments[0].Runs[0].Label, res.Experiments[1].Runs[0].Label; a != "CG" || b != "LCG" {
		t.Errorf("first runs %s and %s, want CG then LCG", a, b)
	}
	for _, er := range res.Experiments {
		for _, r := range er.Runs {
			if r.Label == "LCG" && (r.Versus == nil || r.Versus.Baseline != "CG") {
				t.Errorf("%s: LCG not compared with CG (%+v)", er.Spec.Name, r.Versus)
			}
		}
	}
	for _, f := range []string{ReportFile, SummaryTableFile} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "| birkhoff-6 | LCG (CG) | 2 |") {
			t.Errorf("%s has no repeated runs row:\n%s", f, b)
		}
	}
}
