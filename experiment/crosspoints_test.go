package experiment

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
	"github.com/lazycg/lazycg/spec"
)

// TestCrossPoints plays two runs of different lengths on one stream with
// deliberately poor hindsight primal values and checks that each run's
// last point lowers the other's (and only where it is better), that the
// brackets move by exactly the difference, and that a run of another
// stream (fingerprint) is left alone.
func TestCrossPoints(t *testing.T) {
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
	a, b := play(300), play(40)
	hind := map[hindsightKey]*lazycg.Result{}
	// Poor hindsight primal values, far above both last points.
	fa, _ := online.LossAt(prob, a.Rounds, a.LastPoint)
	fb, _ := online.LossAt(prob, b.Rounds, b.LastPoint)
	hind[hindsightKey{a.Rounds}] = &lazycg.Result{F: fa + 1e6, DualBound: fa - 1000}
	hind[hindsightKey{b.Rounds}] = &lazycg.Result{F: fb + 1e6, DualBound: fb - 1000}

	summarize := func(label string, res *online.Result) RunResult {
		res.SetHindsight(hind[hindsightKey{res.Rounds}], nil)
		lo, hi := res.AverageRegret()
		elo, ehi := res.AverageError()
		s := spec.Summary{OnlineSummary: &spec.OnlineSummary{Rounds: res.Rounds, TotalLoss: res.TotalLoss,
			RegretLower: floatPtr(res.RegretLower), RegretUpper: floatPtr(res.RegretUpper),
			AvgRegretLower: floatPtr(lo), AvgRegretUpper: floatPtr(hi), AvgErrorLower: floatPtr(elo), AvgErrorUpper: floatPtr(ehi)}}
		lower := (res.TotalLoss - hind[hindsightKey{res.Rounds}].F) / float64(res.Rounds)
		return RunResult{Label: label, Fingerprint: "fp", Summary: &s, RegretLower: s.RegretLower,
			Regret: []RegretPoint{{Round: res.Rounds, Lower: floatPtr(lower)}}}
	}
	er := &ExperimentResult{}
	var points []knownPoint
	// Run a first: nothing to compare with.
	ra := summarize("a", a)
	if from := crossPoints(prob, &ra, a, er, hind, &points); from != "" || len(points) != 1 {
		t.Fatalf("first run: from %q, %d points", from, len(points))
	}
	er.Runs = append(er.Runs, ra)
	// A run of another stream is not touched by b's point.
	other := summarize("other", play(40))
	other.Fingerprint = "other"
	er.Runs = append(er.Runs, other)
	otherLower := *other.Summary.AvgRegretLower

	// Run b: each point beats the other run's poor primal value.
	rb := summarize("b", b)
	oldA := *er.Runs[0].Summary.AvgRegretLower
	oldAerr := *er.Runs[0].Summary.AvgErrorLower
	from := crossPoints(prob, &rb, b, er, hind, &points)
	faOnB, _ := online.LossAt(prob, b.Rounds, a.LastPoint)
	if from != "a" || math.Abs(b.Hindsight.F-faOnB) > 1e-9*math.Abs(faOnB) {
		t.Fatalf("b's hindsight primal %g from %q, want a's point %g", b.Hindsight.F, from, faOnB)
	}
	if want := (b.TotalLoss - faOnB) / float64(b.Rounds); math.Abs(*rb.Regret[0].Lower-want) > 1e-9*math.Abs(want) {
		t.Errorf("b's curve lower end %g, want %g", *rb.Regret[0].Lower, want)
	}
	fbOnA, _ := online.LossAt(prob, a.Rounds, b.LastPoint)
	oldF := fa + 1e6
	sa := er.Runs[0].Summary
	d := (oldF - fbOnA) / float64(a.Rounds)
	if !(d > 0) || math.Abs(*sa.AvgRegretLower-(oldA+d)) > 1e-9*(1+math.Abs(oldA+d)) || sa.HindsightPoint != "b" ||
		math.Abs(*sa.AvgErrorLower-(oldAerr+d)) > 1e-9*(1+math.Abs(oldAerr+d)) ||
		math.Abs(*er.Runs[0].Regret[0].Lower-(oldA+d)) > 1e-9*(1+math.Abs(oldA+d)) ||
		er.Runs[0].RegretLower != sa.RegretLower || math.Abs(*sa.RegretLower-(a.TotalLoss-fbOnA)) > 1e-6*math.Abs(fbOnA) {
		t.Errorf("a's summary after b: %+v, curve %v; want the lower ends raised by %g per round", *sa.OnlineSummary, *er.Runs[0].Regret[0].Lower, d)
	}
	er.Runs = append(er.Runs, rb)
	// Run c plays b's rounds again (the same last point): it improves
	// nothing, and its own problem takes a's point as b's did.
	after := *sa.AvgRegretLower
	c := play(40)
	rc := summarize("c", c)
	hind[hindsightKey{c.Rounds}] = b.Hindsight // shared by b and c
	if from := crossPoints(prob, &rc, c, er, hind, &points); from != "" || *sa.AvgRegretLower != after || sa.HindsightPoint != "b" {
		t.Errorf("run c: from %q, a's lower end %g (was %g), from %q", from, *sa.AvgRegretLower, after, sa.HindsightPoint)
	}
	if *other.Summary.AvgRegretLower != otherLower || other.Summary.HindsightPoint != "" {
		t.Errorf("run of another stream changed: %+v", *other.Summary.OnlineSummary)
	}
	// The bracket stays a bracket: the lower end never passes the upper one.
	for _, rr := range []RunResult{er.Runs[0], rb} {
		if s := rr.Summary; *s.AvgRegretLower > *s.AvgRegretUpper {
			t.Errorf("%s: bracket [%g, %g]", rr.Label, *s.AvgRegretLower, *s.AvgRegretUpper)
		}
	}
}

// simplexStream returns an online problem over the probability simplex of
// dimension n: rounds drawn from 10 seeded quadratic losses.
func simplexStream(t *testing.T, n, rounds int) online.Problem {
	t.Helper()
	poly, err := lmo.NewProbabilitySimplex(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := objective.QuadraticLosses(n, 10, 0.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := objective.Repeat(pool, rounds, objective.OrderRandom, 4)
	if err != nil {
		t.Fatal(err)
	}
	return online.Problem{Losses: stream, LMO: poly}
}

// TestRegretVerdict checks the report's comparison of two online runs'
// average regret brackets: lower or higher only when the brackets are
// disjoint, and nothing when a bracket or a run is unknown.
func TestRegretVerdict(t *testing.T) {
	run := func(label string, lo, hi *float64) *RunResult {
		return &RunResult{Label: label, Online: true, Summary: &spec.Summary{OnlineSummary: &spec.OnlineSummary{
			AvgRegretLower: lo, AvgRegretUpper: hi}}}
	}
	for _, tc := range []struct {
		lazy, base [2]float64
		want       string
	}{
		{[2]float64{1, 2}, [2]float64{3, 4}, "lower, proven"},
		{[2]float64{5, 6}, [2]float64{3, 4}, "higher, proven"},
		{[2]float64{1, 3.5}, [2]float64{3, 4}, "overlap"},
		{[2]float64{3, 4}, [2]float64{4, 5}, "overlap"}, // touching ends prove nothing
	} {
		got := regretVerdict(run("L", floatPtr(tc.lazy[0]), floatPtr(tc.lazy[1])), run("B", floatPtr(tc.base[0]), floatPtr(tc.base[1])))
		if !strings.Contains(got, tc.want) || !strings.Contains(got, "B's") {
			t.Errorf("%v against %v: %q, want %q", tc.lazy, tc.base, got, tc.want)
		}
	}
	if got := regretVerdict(run("L", nil, floatPtr(1)), run("B", floatPtr(2), floatPtr(3))); got != "" {
		t.Errorf("unknown lower end: %q", got)
	}
	if got := regretVerdict(run("L", floatPtr(0), floatPtr(1)), nil); got != "" {
		t.Errorf("no baseline: %q", got)
	}
	offline := &RunResult{Label: "B", Summary: &spec.Summary{}}
	if got := regretVerdict(run("L", floatPtr(0), floatPtr(1)), offline); got != "" {
		t.Errorf("offline baseline: %q", got)
	}
}
