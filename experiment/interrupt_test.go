package experiment

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/online"
	"github.com/lazycg/lazycg/spec"
)

// cancelAfter is a progress log that cancels a context when a line
// contains marker.
type cancelAfter struct {
	marker string
	cancel context.CancelFunc
	log    strings.Builder
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.log.Write(p)
	if strings.Contains(string(p), c.marker) {
		c.cancel()
	}
	return len(p), nil
}

// TestCanceledBenchKeepsEarlierResults runs experiments a, b and c of
// mergeSuite into one directory, then runs the suite again and interrupts
// it after a: b and c did not run, so the summary and the report must
// still hold their earlier results, not rows "not run: canceled" in their
// place (their directories, with the traces, are untouched).
func TestCanceledBenchKeepsEarlierResults(t *testing.T) {
	out := t.TempDir()
	runMerge(t, out, "", 1)
	before, err := ReadSuiteResult(out)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSuite("merge.json", []byte(mergeSuite))
	if err != nil {
		t.Fatal(err)
	}
	// The second bench: a runs again, then it is interrupted.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &cancelAfter{marker: "a/lcg: iteration-limit", cancel: cancel}
	res, err := (&Runner{Out: out, DataDir: t.TempDir(), NoFigures: true, Log: log}).Run(ctx, s)
	if err == nil {
		t.Fatal("the interrupted Run returned no error")
	}
	var got []string
	for _, er := range res.Experiments {
		got = append(got, fmt.Sprintf("%s:%q", er.Spec.Name, er.Error))
	}
	if want := `a:"" b:"not run: canceled" c:"not run: canceled"`; strings.Join(got, " ") != want {
		t.Fatalf("interrupted bench: %s, want %s", strings.Join(got, " "), want)
	}
	after, err := ReadSuiteResult(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Experiments) != len(before.Experiments) {
		t.Fatalf("%d experiments after the canceled bench, %d before", len(after.Experiments), len(before.Experiments))
	}
	for i, er := range after.Experiments {
		b := before.Experiments[i]
		if i == 0 {
			b = res.Experiments[0] // run again
		}
		if er.Spec.Name != b.Spec.Name || er.Error != "" || er.Started != b.Started || len(er.Runs) != len(b.Runs) {
			t.Errorf("experiment %d after the canceled bench: %s, error %q, started %s, %d runs; before: %s started %s, %d runs",
				i, er.Spec.Name, er.Error, er.Started, len(er.Runs), b.Spec.Name, b.Started, len(b.Runs))
		}
	}
	for _, f := range []string{ReportFile, SummaryTableFile} {
		text, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(text), "not run") {
			t.Errorf("%s reports experiments as not run although their earlier results are kept:\n%s", f, text)
		}
	}
	if !strings.Contains(log.log.String(), "keeping 2 experiments of earlier runs") {
		t.Errorf("the log does not say that b and c were kept:\n%s", log.log.String())
	}
	// The bench runs of the summary: b and c from the first, a from the
	// second.
	var benches []string
	for _, b := range after.Benches {
		benches = append(benches, strings.Join(b.Experiments, "+"))
	}
	if strings.Join(benches, " ") != "b+c a" {
		t.Errorf("bench runs of the summary: %q, want b+c from the first and a from the second", benches)
	}

	// Without an earlier result the experiments not run are reported as such.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	fresh := t.TempDir()
	if _, err := (&Runner{Out: fresh, DataDir: t.TempDir(), NoFigures: true}).Run(ctx, s); err == nil {
		t.Fatal("Run with a canceled context returned no error")
	}
	sum, err := ReadSuiteResult(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Experiments) != 3 || sum.Experiments[0].Error != notRunCanceled {
		t.Errorf("fresh directory after a canceled bench: %+v", sum.Experiments)
	}
}

// TestMergeNotStarted checks mergeSummaries with experiments that did not
// start: they replace no earlier result, a placeholder of an earlier
// write is replaced, and the bench runs list every experiment once.
func TestMergeNotStarted(t *testing.T) {
	exp := func(n, st string, ran bool) ExperimentResult {
		e := ExperimentResult{Spec: Experiment{Name: n}, Started: st}
		if !ran {
			e.Error = notRunCanceled
		}
		return e
	}
	prev := &SuiteResult{Suite: "s", TimeScale: 1, Started: "2026-01-01T10:00:00Z", WallTimeS: 60, Machine: "m",
		Experiments: []ExperimentResult{exp("x", "1", true), exp("y", "1", true)}}
	// The second bench runs z, then is interrupted: x and y did not start.
	res := &SuiteResult{Suite: "s", TimeScale: 1, Started: "2026-01-01T11:00:00Z", WallTimeS: 60, Machine: "m",
		Experiments: []ExperimentResult{exp("z", "2", true), exp("x", "2", false), exp("w", "2", false), exp("y", "2", false)}}
	all := mergeSummaries(prev, res)
	var got []string
	for _, e := range all.Experiments {
		got = append(got, fmt.Sprintf("%s%s%q", e.Spec.Name, e.Started, e.Error))
	}
	if want := `x1"" y1"" z2"" w2"not run: canceled"`; strings.Join(got, " ") != want {
		t.Errorf("experiments %s, want %s", strings.Join(got, " "), want)
	}
	benches := func(s *SuiteResult) string {
		var out []string
		for _, b := range s.Benches {
			out = append(out, b.Started[11:13]+"="+strings.Join(b.Experiments, "+"))
		}
		return strings.Join(out, " ")
	}
	if b := benches(all); b != "10=x+y 11=z+w" {
		t.Errorf("bench runs %q", b)
	}
	// A later write of the same bench (w's placeholder is in the summary
	// now) keeps w listed with it.
	res.Experiments = append(res.Experiments, exp("v", "2", false))
	again := mergeSummaries(all, res)
	if b := benches(again); b != "10=x+y 11=z+w+v" {
		t.Errorf("bench runs after another write %q", b)
	}
	if len(again.Experiments) != 5 || again.Experiments[0].Error != "" || again.Experiments[1].Error != "" {
		t.Errorf("experiments after another write: %+v", again.Experiments)
	}
}

// TestCrossPointsSharedRounds: the runs of an experiment that played the
// same number of rounds share one hindsight problem (hindsightKey), so a
// point that lowers its primal value must raise the lower ends of all of
// them, not only of the first one met. Runs a and b play the same 40
// rounds identically; b's own problem takes a's last point, which a's
// bracket must then show as well; a third run's point, better still on
// the 40 rounds, must raise both.
func TestCrossPointsSharedRounds(t *testing.T) {
	const n = 6
	prob := simplexStream(t, n, 1000)
	play := func(rounds int) *online.Result {
		res, err := online.Minimize(context.Background(), prob, &online.Settings{MaxRounds: rounds, NoHindsight: true},
			&online.OCG{Params: online.Params{D: math.Sqrt2}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := play(40), play(40)
	fa, _ := online.LossAt(prob, 40, a.LastPoint)
	hind := map[hindsightKey]*lazycg.Result{{40}: {F: fa + 1e3, DualBound: fa - 1e3}}
	er := &ExperimentResult{}
	var points []knownPoint
	// run plays as the runner does: the hindsight solve and the regret
	// curve, crossPoints, then the summary from the result.
	run := func(label string, res *online.Result) RunResult {
		res.SetHindsight(hind[hindsightKey{res.Rounds}], nil)
		lo, _ := res.AverageRegret()
		rr := RunResult{Label: label, Fingerprint: "fp", Regret: []RegretPoint{{Round: res.Rounds, Lower: floatPtr(lo)}}}
		from := crossPoints(prob, &rr, res, er, hind, &points)
		lo, hi := res.AverageRegret()
		rr.Summary = &spec.Summary{OnlineSummary: &spec.OnlineSummary{Rounds: res.Rounds, TotalLoss: res.TotalLoss,
			RegretLower: floatPtr(res.RegretLower), RegretUpper: floatPtr(res.RegretUpper),
			AvgRegretLower: floatPtr(lo), AvgRegretUpper: floatPtr(hi), HindsightPoint: from}}
		rr.RegretLower = rr.Summary.RegretLower
		er.Runs = append(er.Runs, rr)
		return rr
	}
	run("a", a)
	if rb := run("b", b); rb.Summary.HindsightPoint != "a" {
		t.Fatalf("b's hindsight primal value from %q, want a's point", rb.Summary.HindsightPoint)
	}
	check := func(when string, f float64, from string) {
		t.Helper()
		want := (a.TotalLoss - f) / 40
		for _, r := range er.Runs {
			s := r.Summary
			if math.Abs(*s.AvgRegretLower-want) > 1e-9*(1+math.Abs(want)) || math.Abs(*s.RegretLower-40*want) > 1e-9*(1+math.Abs(40*want)) ||
				math.Abs(*r.Regret[0].Lower-want) > 1e-9*(1+math.Abs(want)) || *r.RegretLower != *s.RegretLower {
				t.Errorf("%s: %s's average regret lower end %g (curve %g), want %g from the primal value %g",
					when, r.Label, *s.AvgRegretLower, *r.Regret[0].Lower, want, f)
			}
		}
		if s := er.Runs[0].Summary; s.HindsightPoint != from {
			t.Errorf("%s: a's hindsight point from %q, want %q", when, s.HindsightPoint, from)
		}
		if hr := hind[hindsightKey{40}]; hr.F != f {
			t.Errorf("%s: shared hindsight primal value %g, want %g", when, hr.F, f)
		}
	}
	check("after b", fa, "a")

	// A third run whose last point is the hindsight solve's point: better
	// than a's on the 40 rounds.
	hs, err := online.SolveHindsight(context.Background(), prob, 40, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := play(60)
	c.LastPoint = hs.X
	fc, _ := online.LossAt(prob, 40, hs.X)
	if !(fc < fa-1e-9) {
		t.Fatalf("the hindsight point's loss %g is not below a's %g", fc, fa)
	}
	rc := RunResult{Label: "c", Fingerprint: "fp"}
	crossPoints(prob, &rc, c, er, hind, &points)
	check("after c", fc, "c")
	if s := er.Runs[1].Summary; s.HindsightPoint != "c" {
		t.Errorf("b's hindsight point from %q, want c", s.HindsightPoint)
	}
}

// TestRepeatTableFailedRepetition: a repetition whose lazy run or whose
// baseline failed has no comparison; the repeated runs' row must still
// count it (as a target not reached, the smallest) rather than drop it,
// which would print the median of the others as if they were all: here
// ×3, error, ×5, ×7, baseline error has the lower median ×3, the three
// comparisons alone ×5. Likewise a failed run's final value counts as the
// largest.
func TestRepeatTableFailedRepetition(t *testing.T) {
	sp := func(v float64) *float64 { return &v }
	var res SuiteResult
	variants := []Variant{{Method: "cg-ls", Label: "CG"}, {Method: "lcg", Label: "LCG", Baseline: "CG"}}
	for k, speed := range []float64{3, 0, 5, 7, 0} {
		er := ExperimentResult{Spec: Experiment{Name: fmt.Sprintf("e-r%d", k+1), RepeatOf: "e", Repeat: k + 1, Variants: variants}}
		base := RunResult{Label: "CG", Method: "cg-ls", Trace: "cg.csv", Summary: &spec.Summary{Primal: 10 + float64(k)}}
		lazy := RunResult{Label: "LCG", Method: "lcg", Lazy: true, Trace: "lcg.csv", Summary: &spec.Summary{Primal: 1 + float64(k)},
			Versus: &Comparison{Baseline: "CG", Reached: true, Speedup: sp(speed)}}
		switch k {
		case 1: // the lazy run failed
			lazy = RunResult{Label: "LCG", Method: "lcg", Lazy: true, Error: "boom"}
		case 4: // the baseline failed
			base = RunResult{Label: "CG", Method: "cg-ls", Error: "bang"}
			lazy.Versus = nil
		}
		er.Runs = []RunResult{base, lazy}
		res.Experiments = append(res.Experiments, er)
	}
	got := RepeatTable(&res)
	// Final values: LCG 1, failed, 3, 4, 5 (lower median 4, not the 3 of
	// the four that ran); CG 10, 11, 12, 13, failed (12, not 11).
	if want := "| e | LCG (CG) | 5 | ×3, error, ×5, ×7, baseline error | ×3 | 4 / 12 |"; !strings.Contains(got, want) {
		t.Errorf("RepeatTable lacks %q:\n%s", want, got)
	}
}

// TestTablesOddLabels: labels, errors and titles are free text; a carriage
// return ends a line in Markdown as a newline does, so either must not
// split a row of the tables or a heading of the report.
func TestTablesOddLabels(t *testing.T) {
	sp := func(v float64) *float64 { return &v }
	odd := "LCG\r(K=4) | \"x\"\r\nNEXTX"
	res := &SuiteResult{Suite: "s\rHEREX", Experiments: []ExperimentResult{{
		Spec: Experiment{Name: "e", Title: "a\rtitle\nHEREX", Variants: []Variant{{Method: "cg", Label: "CG\rbase"}, {Method: "lcg", Label: odd}},
			Paper: Reference{Figure: "fig:odd", Side: "left\nSIDEX | x"}},
		Runs: []RunResult{
			{Label: "CG\rbase", Summary: &spec.Summary{Primal: 1, Status: "done\nSTATX | y"}, Error: "bad\rTHINGX"},
			{Label: odd, Lazy: true, Summary: &spec.Summary{Primal: 1}, Versus: &Comparison{Baseline: "CG\rbase", Reached: true, Speedup: sp(2)}},
		}}}}
	for name, text := range map[string]string{"summary": SummaryTable(res), "report": ReportMarkdown(t.TempDir(), res)} {
		lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' })
		for _, l := range lines {
			if strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "## ") && !strings.HasPrefix(l, "# ") {
				t.Errorf("%s: heading %q", name, l)
			}
			if strings.Contains(l, "NEXTX") || strings.Contains(l, "HEREX") || strings.Contains(l, "THINGX") ||
				strings.Contains(l, "STATX") || strings.Contains(l, "SIDEX") {
				if !strings.HasPrefix(l, "|") && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "- ") {
					t.Errorf("%s: a label, title, status, side or error split a line: %q", name, l)
				}
			}
			// A status or a side read from a summary.json is free text
			// too: a '|' in it must not add a column.
			if (strings.Contains(l, "STATX") && !strings.Contains(l, `STATX \| y`)) ||
				(strings.Contains(l, "SIDEX") && !strings.Contains(l, `SIDEX \| x`)) {
				t.Errorf("%s: a '|' of a status or side is not escaped: %q", name, l)
			}
		}
	}
}
