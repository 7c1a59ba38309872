package mip

import (
	"context"
	"math"
	"testing"
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

// TestPreprocessPolicy: PreprocessAuto preprocesses the first solve of a
// Solver (not a relaxation-only one), Off never, On always.
func TestPreprocessPolicy(t *testing.T) {
	m := stdModel([][]float64{{1, 1}}, []float64{1}, []float64{1}, 1)
	for _, tc := range []struct {
		pre      Preprocess
		relaxFst bool // the first solve is RelaxationBound's
		want     []bool
	}{
		{PreprocessAuto, false, []bool{true, false, false}},
		{PreprocessAuto, true, []bool{false, false, false}},
		{PreprocessOff, false, []bool{false, false, false}},
		{PreprocessOn, false, []bool{true, true, true}},
		{PreprocessOn, true, []bool{true, true, true}},
	} {
		b := &recordingBackend{}
		s, err := NewSolver(m, Options{Backend: b, Preprocess: tc.pre})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		dst := make([]float64, 2)
		if tc.relaxFst {
			if _, err := s.RelaxationBound(ctx, []float64{1, 2}); err != nil {
				t.Fatal(err)
			}
		} else if _, err := s.Minimize(ctx, dst, []float64{1, 2}); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 2; k++ {
			if _, err := s.Minimize(ctx, dst, []float64{1, 2}); err != nil {
				t.Fatal(err)
			}
		}
		s.Close()
		if len(b.calls) != len(tc.want) {
			t.Fatalf("%v: %d solves, want %d", tc.pre, len(b.calls), len(tc.want))
		}
		for i, p := range b.calls {
			if p.Preprocess != tc.want[i] {
				t.Errorf("%v (relaxation first: %v): solve %d preprocess = %v, want %v", tc.pre, tc.relaxFst, i, p.Preprocess, tc.want[i])
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
