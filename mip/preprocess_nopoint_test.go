package mip

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
)

// liarBackend's engine answers preprocessed solves as CBC's unsound
// preprocessing may: "certified" with a bound above the optimum, or, when
// cancel is set, canceled with such a bound. Solves without preprocessing
// get the true answer of {x ∈ {0,1}² : x₁ + x₂ = 1}.
type liarBackend struct {
	cancel context.CancelFunc
	calls  []bool // Preprocess of each solve
}

func (b *liarBackend) Load(context.Context, *Model) (Engine, error) { return &liarEngine{b}, nil }

type liarEngine struct{ b *liarBackend }

func (e *liarEngine) Solve(_ context.Context, p *SolveParams, r *SolveResult) error {
	e.b.calls = append(e.b.calls, p.Preprocess)
	r.Found, r.Value, r.Bound = false, math.Inf(1), 1e6 // above every vertex
	switch {
	case p.Preprocess && e.b.cancel != nil:
		e.b.cancel()
		r.Outcome = OutcomeCanceled
	case p.Preprocess:
		r.Outcome = OutcomeCertified
	default:
		k := 0
		if p.Obj[1] < p.Obj[0] {
			k = 1
		}
		r.X[0], r.X[1] = 0, 0
		r.X[k] = 1
		r.Found, r.Value, r.Bound, r.Outcome = true, p.Obj[k], p.Obj[k], OutcomeImproving
	}
	return nil
}

func (e *liarEngine) SetColBounds(int, float64, float64) {}
func (e *liarEngine) Close()                             {}

// TestPreprocessedAnswerWithoutPoint: a preprocessed call (Improve = +Inf)
// whose engine answers without a point must not pass the preprocessed
// model's word on. A finite Certify met after preprocessing was returned
// as StopCertified with bound −Inf (the bound dropped, the claim kept:
// with CBC, MinimizeUntil(+Inf, 0.5) over {x₁+x₂+x₃ ≥ 1} said "certified,
// bound −Inf"); and a canceled preprocessed call reported the engine's
// bound.
func TestPreprocessedAnswerWithoutPoint(t *testing.T) {
	m := stdModel([][]float64{{1, 1}}, []float64{1}, []float64{1}, 1)
	c := []float64{1, 2}
	dst := make([]float64, 2)
	rule := lazycg.StopRule{Improve: math.Inf(1), Certify: 5}

	b := &liarBackend{}
	s, err := NewSolver(m, Options{Backend: b})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.MinimizeUntil(context.Background(), dst, c, rule)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason == lazycg.StopCertified || res.Bound > 1 || !res.Found || res.Value != 1 {
		t.Errorf("certified after preprocessing: %+v (solves, preprocessed: %v), want the vertex of value 1", res, b.calls)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b = &liarBackend{cancel: cancel}
	s, err = NewSolver(m, Options{Backend: b})
	if err != nil {
		t.Fatal(err)
	}
	res, err = s.MinimizeUntil(ctx, dst, c, lazycg.StopRule{Improve: math.Inf(1), Certify: math.Inf(1)})
	s.Close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled call: %v", err)
	}
	if res.Bound > 1 {
		t.Errorf("canceled preprocessed call reported the bound %g above the optimum 1", res.Bound)
	}
}
