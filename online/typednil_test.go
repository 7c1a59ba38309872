package online_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// TestTypedNil checks that a loss stream or method that is a nil pointer
// inside a non-nil interface is refused with an error instead of a panic.
func TestTypedNil(t *testing.T) {
	losses, err := objective.LinearLosses(5, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	simplex, err := lmo.NewProbabilitySimplex(5, 1)
	if err != nil {
		t.Fatal(err)
	}
	var nilStream *objective.LinearStream
	var nilLOCG *online.LOCG
	var nilOCG *online.OCG
	for _, c := range []struct {
		name string
		p    online.Problem
		m    online.Method
		want string
	}{
		{"stream", online.Problem{Losses: nilStream, LMO: simplex}, &online.OCG{}, "the loss stream is a nil *objective.LinearStream"},
		{"locg", online.Problem{Losses: losses, LMO: simplex}, nilLOCG, "the method is a nil *online.LOCG"},
		{"ocg", online.Problem{Losses: losses, LMO: simplex}, nilOCG, "the method is a nil *online.OCG"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := online.Minimize(context.Background(), c.p, &online.Settings{NoHindsight: true}, c.m)
			if err == nil || res != nil {
				t.Fatalf("got result %v, error %v; want an error", res, err)
			}
			if !strings.HasPrefix(err.Error(), "online: ") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q; want it to name %q", err, c.want)
			}
		})
	}
}

// nilRoundStream is a stream of linear losses whose round nilAt is a nil
// *objective.Linear inside a non-nil lazycg.Objective.
type nilRoundStream struct {
	*objective.LinearStream
	nilAt int
}

func (s nilRoundStream) Loss(t int) lazycg.Objective {
	if t == s.nilAt {
		var f *objective.Linear
		return f
	}
	return s.LinearStream.Loss(t)
}

// TestTypedNilLoss checks that a round's loss (or a pool's loss) that is a
// nil pointer is reported as an error naming the round, by Minimize (with
// the result of the rounds before), SolveHindsight and LossAt, instead of
// a panic in its Dim.
func TestTypedNilLoss(t *testing.T) {
	losses, err := objective.LinearLosses(5, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	simplex, err := lmo.NewProbabilitySimplex(5, 1)
	if err != nil {
		t.Fatal(err)
	}
	stream := nilRoundStream{losses, 3}
	p := online.Problem{Losses: stream, LMO: simplex}
	for _, m := range []online.Method{&online.OCG{}, &online.LOCG{}, &online.LOCG{Params: online.Params{ParameterFree: true}}} {
		res, err := online.Minimize(context.Background(), p, nil, m)
		if err == nil || !strings.Contains(err.Error(), "loss of round 4 is a nil *objective.Linear") {
			t.Fatalf("%T: error %v; want one naming round 4", m, err)
		}
		if res == nil || res.Status != lazycg.Failure || res.Rounds != 3 || !(res.RegretLower <= res.RegretUpper) {
			t.Fatalf("%T: result %+v; want the 3 rounds before with a regret bracket", m, res)
		}
	}
	if _, err := online.SolveHindsight(context.Background(), p, 0, nil); err == nil || !strings.Contains(err.Error(), "round 4") {
		t.Errorf("SolveHindsight: error %v; want one naming round 4", err)
	}
	if _, err := online.LossAt(p, 5, []float64{1, 0, 0, 0, 0}); err == nil || !strings.HasPrefix(err.Error(), "online: ") {
		t.Errorf("LossAt: error %v; want an online error", err)
	}
	rep, err := objective.Repeat(stream, 50, objective.OrderCycle, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = online.SolveHindsight(context.Background(), online.Problem{Losses: rep, LMO: simplex}, 0, nil)
	if err == nil || !strings.Contains(err.Error(), "pool loss 3 is a nil") {
		t.Errorf("SolveHindsight over a pool: error %v; want one naming pool loss 3", err)
	}
}

// TestNegativeTimeLimit checks that a negative TimeLimit is refused rather
// than read as no limit (over a stream of objective.MaxRounds rounds the
// run would then never end).
func TestNegativeTimeLimit(t *testing.T) {
	pool, err := objective.LinearLosses(4, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := objective.Repeat(pool, objective.MaxRounds, objective.OrderRandom, 1)
	if err != nil {
		t.Fatal(err)
	}
	simplex, err := lmo.NewProbabilitySimplex(4, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := online.Minimize(context.Background(), online.Problem{Losses: rep, LMO: simplex},
		&online.Settings{TimeLimit: -time.Second, NoTrace: true}, &online.OCG{})
	if err == nil || res != nil || !strings.HasPrefix(err.Error(), "online: TimeLimit") {
		t.Fatalf("got result %v, error %v; want an error about TimeLimit", res, err)
	}
}

// TestParamsTypedNilLMO checks that Params.Check and Params.TheoremBound
// refuse an LMO that is a nil pointer inside a non-nil interface with an
// error: resolving D reads its Diameter1 bound, which would dereference it.
func TestParamsTypedNilLMO(t *testing.T) {
	var cube *lmo.Hypercube
	check := func(name string, f func() error) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s panics: %v", name, r)
			}
		}()
		if err := f(); err == nil || !strings.Contains(err.Error(), "nil *lmo.Hypercube") {
			t.Errorf("%s: error %v, want one naming the nil LMO", name, err)
		}
	}
	check("Check", func() error { return online.Params{}.Check(cube) })
	check("TheoremBound", func() error { _, err := online.Params{L: 1}.TheoremBound(cube, 10); return err })
	// A nil interface has no bound to read: only the missing D is reported.
	if err := (online.Params{}).Check(nil); err == nil || strings.Contains(err.Error(), "nil *") {
		t.Errorf("Check(nil): %v", err)
	}
}
