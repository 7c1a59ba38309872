package online

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/objective"
)

// extremeLinear is f(x) = c·x.
type extremeLinear struct{ c []float64 }

func (f extremeLinear) Dim() int                 { return len(f.c) }
func (f extremeLinear) Func(x []float64) float64 { return dot(f.c, x) }
func (f extremeLinear) Grad(dst, x []float64)    { copy(dst, f.c) }

// extremeStream is a fixed list of losses.
type extremeStream []lazycg.Objective

func (s extremeStream) Rounds() int                 { return len(s) }
func (s extremeStream) Dim() int                    { return s[0].Dim() }
func (s extremeStream) Loss(t int) lazycg.Objective { return s[t] }

// alternatingLinear returns rounds linear losses over R³ of magnitude
// scale whose hindsight optimum over the simplex is exact.
func alternatingLinear(scale float64, rounds int) extremeStream {
	var s extremeStream
	for t := range rounds {
		c := []float64{scale, -scale, 0.5 * scale}
		if t%2 == 1 {
			c = []float64{-scale, scale, 0.3 * scale}
		}
		s = append(s, extremeLinear{c})
	}
	return s
}

// TestLOCGGradientNormScale runs Algorithm 8 and its certified
// parameter-free form on linear losses whose gradients have entries of
// 1e200 and 1e-300: the ℓ2 norm of the gradient is representable in both
// cases, so every round must be played and every reported h_t must bound
// F_t(x_t) − min F_t (computed exactly over the simplex). The unscaled
// √(g·g) overflowed to +Inf for the first (the run failed in round 1 with
// a non-finite Φ) and underflowed to 0 for the second (h_1 = 0 although
// x_1 is not optimal).
func TestLOCGGradientNormScale(t *testing.T) {
	const T = 8
	for _, scale := range []float64{1e200, 1e-300} {
		stream := alternatingLinear(scale, T)
		lip := math.Sqrt(2.25) * scale
		for _, m := range []*LOCG{
			{Params: Params{D: math.Sqrt2, L: lip}},
			{Params: Params{D: math.Sqrt2, L: lip, ParameterFree: true, Certified: true}},
		} {
			var xs [][]float64
			settings := &Settings{Callback: func(r *Round, x []float64) bool {
				xs = append(xs, slices.Clone(x))
				return true
			}}
			res, err := Minimize(context.Background(), Problem{Losses: stream, LMO: testSimplex{3}}, settings, m)
			if err != nil {
				t.Fatalf("scale %g certified=%v: %v", scale, m.Params.Certified, err)
			}
			if res.Rounds != T {
				t.Fatalf("scale %g certified=%v: %d rounds played, want %d", scale, m.Params.Certified, res.Rounds, T)
			}
			c := make([]float64, 3)
			for i, rec := range res.Trace[:T-1] {
				axpy(c, 1, stream[i].(extremeLinear).c)
				gap := dot(c, xs[i]) - slices.Min(c)
				if !(gap <= rec.Bound*(1+1e-9)) {
					t.Errorf("scale %g certified=%v round %d: F_t(x_t) − min F_t = %g above the reported h_t = %g",
						scale, m.Params.Certified, i+1, gap, rec.Bound)
				}
			}
		}
	}
}

// lazySegment is the segment [1, 2] ⊂ R¹ with an early-stopping LMO
// that stops at rule.Certify whenever that bound is valid, as a MIP
// solver under a relative gap may (SeparatorConfig.RelGap).
type lazySegment struct{}

func (lazySegment) Dim() int { return 1 }

func (lazySegment) Minimize(_ context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	dst[0] = 1
	if c[0] < 0 {
		dst[0] = 2
	}
	return lazycg.Exact(c[0] * dst[0]), nil
}

func (s lazySegment) MinimizeUntil(ctx context.Context, dst, c []float64, rule lazycg.StopRule) (lazycg.LinearResult, error) {
	if rule.Certify <= math.Min(c[0], 2*c[0]) {
		return lazycg.LinearResult{Value: math.Inf(1), Bound: rule.Certify, Reason: lazycg.StopCertified}, nil
	}
	return s.Minimize(ctx, dst, c)
}

// TestLOCGInexactNegativeBound plays Algorithm 8 with a weak separation
// oracle under a relative gap: its negative answers may be Inexact,
// proving only a Wolfe gap bound above the Φ̄_t asked. In round 1
// (f_1(x) = x on [1, 2], x_1 = 2, D = 1) h_1 = 1 and Φ̄_1 ≈ 0.524; the
// oracle stops with a proof of gap ≤ 1.238 only, x stays, and F_1(x_2) −
// min F_1 = 1. Taking Φ_1 = Φ̄_1 as if proven made h_2 = Φ_1 + ‖∇_2‖D ≈
// 0.53 while F_2(x_2) − min F_2 = 1.01: the reported bound was false.
//
// The certified variant asks the same question in its fallback rounds; on
// the second stream (L = 0.3 is below the gradients, which voids only the
// rate: h_t needs D alone) its h_4 was below the gap F_4(x_4) − min F_4.
func TestLOCGInexactNegativeBound(t *testing.T) {
	lin := func(cs ...float64) extremeStream {
		var s extremeStream
		for _, c := range cs {
			s = append(s, extremeLinear{[]float64{c}})
		}
		return s
	}
	for _, tc := range []struct {
		stream extremeStream
		m      *LOCG
	}{
		{lin(1, 0.01, 0.01), &LOCG{Params: Params{D: 1, L: 1}}},
		{lin(1, 0.01, 0.01), &LOCG{Params: Params{D: 1, L: 1, TightenPhi: true}}},
		{lin(1, -1, -1, -1, 0, 2), &LOCG{Params: Params{D: 1, L: 0.3, ParameterFree: true, Certified: true}}},
		{lin(1, -1, -1, -1, 0, 2), &LOCG{Params: Params{D: 1, L: 0.3, ParameterFree: true, Certified: true, NoBackoff: true}}},
	} {
		stream, m := tc.stream, tc.m
		var xs []float64
		settings := &Settings{SeparatorConfig: lazycg.SeparatorConfig{RelGap: 0.5}, Callback: func(r *Round, x []float64) bool {
			xs = append(xs, x[0])
			return true
		}}
		res, err := Minimize(context.Background(), Problem{Losses: stream, LMO: lazySegment{}, X0: []float64{2}}, settings, m)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.InexactAnswers == 0 {
			t.Fatalf("%+v: no inexact answer; the test does not exercise them", m.Params)
		}
		var c float64
		for i, rec := range res.Trace[:len(stream)-1] {
			c += stream[i].(extremeLinear).c[0]
			gap := c*xs[i] - math.Min(c, 2*c)
			if !(gap <= rec.Bound*(1+1e-12)) {
				t.Errorf("%+v round %d: F_t(x_t) − min F_t = %g above the reported bound %g", m.Params, i+1, gap, rec.Bound)
			}
		}
	}
}

// nanMethod steps like OCG with γ = 1/2 toward the vertex e_1, and in round
// bad writes NaN into the point.
type nanMethod struct{ bad int }

func (m *nanMethod) Init(context.Context, *State) error { return nil }

func (m *nanMethod) Update(_ context.Context, s *State) error {
	if s.Round == m.bad {
		s.X[0] = math.NaN()
		return nil
	}
	for i := range s.X {
		s.X[i] /= 2
	}
	s.X[1] += 0.5
	return nil
}

// TestOnlineNonFinitePointKeepsLastPoint: a method that produces a NaN
// point ends the run with Status Failure; Result.X must still be a point
// of P (x_t, the point played in the failed round), not the NaN point.
func TestOnlineNonFinitePointKeepsLastPoint(t *testing.T) {
	stream := alternatingLinear(1, 6)
	var played [][]float64
	settings := &Settings{NoHindsight: true, Callback: func(r *Round, x []float64) bool {
		played = append(played, slices.Clone(x))
		return true
	}}
	res, err := Minimize(context.Background(), Problem{Losses: stream, LMO: testSimplex{3}, X0: []float64{1, 0, 0}}, settings, &nanMethod{bad: 3})
	if err == nil || res == nil || res.Status != lazycg.Failure {
		t.Fatalf("want a failure, got %v (%v)", res, err)
	}
	if res.Rounds != 3 || len(played) != 2 {
		t.Fatalf("%d rounds, %d callbacks; want 3 and 2", res.Rounds, len(played))
	}
	if !lazycg.CheckFinite(res.X) || !slices.Equal(res.X, res.LastPoint) {
		t.Errorf("Result.X = %v, want x_3 = %v", res.X, res.LastPoint)
	}
}

// countingStream has objective.MaxRounds rounds (a stream that runs
// until a limit) and counts its Loss calls.
type countingStream struct{ calls *int }

func (s countingStream) Rounds() int { return objective.MaxRounds }
func (s countingStream) Dim() int    { return 3 }
func (s countingStream) Loss(t int) lazycg.Objective {
	*s.calls++
	if *s.calls > 10 {
		return nil // ends the sum; the hindsight of all rounds would not end
	}
	return extremeLinear{[]float64{1, 2, 3}}
}

// TestSolveHindsightUnboundedStream: SolveHindsight with rounds 0 (all
// rounds) on a stream of objective.MaxRounds rounds summed 2⁵² losses (an
// objective.Repeat stream of MaxRounds rounds, the protocol's default,
// hashed 2⁵² draws): it must refuse at once.
func TestSolveHindsightUnboundedStream(t *testing.T) {
	var calls int
	_, err := SolveHindsight(context.Background(), Problem{Losses: countingStream{&calls}, LMO: testSimplex{3}}, 0, nil)
	if err == nil || calls != 0 {
		t.Errorf("SolveHindsight of all rounds of an unbounded stream: %d losses read, error %v; want an error before any", calls, err)
	}
	calls = 0
	hr, err := SolveHindsight(context.Background(), Problem{Losses: countingStream{&calls}, LMO: testSimplex{3}}, 5, nil)
	if err != nil || math.Abs(hr.F-5) > 1e-9 {
		t.Errorf("SolveHindsight of 5 rounds: %v, %v; want min 5", hr, err)
	}
}
