package mip

import (
	"context"
	"math"
	"testing"

	"github.com/lazycg/lazycg"
)

// recordingBackend is a backend whose engine answers every solve with the
// vertex (1, 0) of {x ∈ {0,1}² : x₁ + x₂ = 1} and records the parameters
// and the model it loaded.
type recordingBackend struct {
	calls []SolveParams
	model *Model
}

func (b *recordingBackend) Load(_ context.Context, m *Model) (Engine, error) {
	b.model = m
	return &recordingEngine{b}, nil
}

type recordingEngine struct{ b *recordingBackend }

func (e *recordingEngine) Solve(_ context.Context, p *SolveParams, r *SolveResult) error {
	q := *p
	q.Obj = append([]float64(nil), p.Obj...)
	e.b.calls = append(e.b.calls, q)
	r.X[0], r.X[1] = 1, 0
	r.Found, r.Value, r.Bound, r.Outcome = true, p.Obj[0], math.Min(p.Obj[0], p.Obj[1]), OutcomeOptimal
	return nil
}

func (e *recordingEngine) SetColBounds(int, float64, float64) {}
func (e *recordingEngine) Close()                             {}

// TestPreprocessPolicy: only calls that ask for any feasible point
// (Improve = +Inf) are preprocessed (CBC 2.10.8's preprocessing is not
// sound): PreprocessAuto the first of a Solver's solves when it is one, On
// every one, Off none; exact solves and relaxation bounds never; a
// preprocessed answer carries no bound.
func TestPreprocessPolicy(t *testing.T) {
	m := stdModel([][]float64{{1, 1}}, []float64{1}, []float64{1}, 1)
	anyPoint := lazycg.StopRule{Improve: math.Inf(1), Certify: math.Inf(1)}
	for _, tc := range []struct {
		pre   Preprocess
		first string // "feasible", "exact" or "relax"
		want  []bool // the first solve, then feasible, exact, feasible
	}{
		{PreprocessAuto, "feasible", []bool{true, false, false, false}},
		{PreprocessAuto, "exact", []bool{false, false, false, false}},
		{PreprocessAuto, "relax", []bool{false, false, false, false}},
		{PreprocessOff, "feasible", []bool{false, false, false, false}},
		{PreprocessOn, "feasible", []bool{true, true, false, true}},
		{PreprocessOn, "exact", []bool{false, true, false, true}},
		{PreprocessOn, "relax", []bool{false, true, false, true}},
	} {
		b := &recordingBackend{}
		s, err := NewSolver(m, Options{Backend: b, Preprocess: tc.pre})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		dst := make([]float64, 2)
		c := []float64{1, 2}
		feasible := func() {
			// A known vertex answers without a solve: forget it.
			s.lastOK = false
			res, err := s.MinimizeUntil(ctx, dst, c, anyPoint)
			if err != nil {
				t.Fatal(err)
			}
			if p := b.calls[len(b.calls)-1]; p.Preprocess && !math.IsInf(res.Bound, -1) {
				t.Errorf("%v: a preprocessed call reported the bound %g", tc.pre, res.Bound)
			}
		}
		switch tc.first {
		case "feasible":
			feasible()
		case "exact":
			if _, err := s.Minimize(ctx, dst, c); err != nil {
				t.Fatal(err)
			}
		case "relax":
			if _, err := s.RelaxationBound(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		feasible()
		if _, err := s.Minimize(ctx, dst, c); err != nil {
			t.Fatal(err)
		}
		feasible()
		s.Close()
		if len(b.calls) != len(tc.want) {
			t.Fatalf("%v: %d solves, want %d", tc.pre, len(b.calls), len(tc.want))
		}
		for i, p := range b.calls {
			if p.Preprocess != tc.want[i] {
				t.Errorf("%v (first %s): solve %d preprocess = %v, want %v", tc.pre, tc.first, i, p.Preprocess, tc.want[i])
			}
		}
	}
	if _, err := NewSolver(m, Options{Backend: &recordingBackend{}, Preprocess: PreprocessOn + 1}); err == nil {
		t.Error("NewSolver accepted an unknown Preprocess")
	}
	for _, name := range []string{"auto", "off", "on"} {
		p, err := ParsePreprocess(name)
		if err != nil || p.String() != name {
			t.Errorf("ParsePreprocess(%q) = %v, %v", name, p, err)
		}
	}
	if _, err := ParsePreprocess("yes"); err == nil {
		t.Error("ParsePreprocess accepted \"yes\"")
	}
	for _, name := range []string{"auto", "standard", "light"} {
		s, err := ParseSearch(name)
		if err != nil || s.String() != name {
			t.Errorf("ParseSearch(%q) = %v, %v", name, s, err)
		}
	}
	if _, err := ParseSearch("heavy"); err == nil {
		t.Error("ParseSearch accepted \"heavy\"")
	}
}
