package lazycg_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/lmotest"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
)

// TestCheckMethodFields checks that Check refuses a method whose fields
// are out of range (or that the objective cannot serve), with an error
// matching ErrSettings, and that Minimize refuses it before any LMO call:
// before, Check passed them all and Minimize made the start vertex's LMO
// call (a full solve on a MIP oracle) and then failed in Init with an
// error that did not match ErrSettings.
func TestCheckMethodFields(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	simplex, _ := lmo.NewProbabilitySimplex(4, 1)
	obj, _ := objective.NewDistance([]float64{0.1, 0.2, 0.3, 0.4})
	for _, tc := range []struct {
		m    lazycg.Method
		want string
	}{
		{&lazycg.LazyCG{K: 0.5}, "K must be ≥ 1"},
		{&lazycg.LazyCG{K: nan}, "K must be ≥ 1"},
		{&lazycg.LazyCG{K: inf}, "K must be ≥ 1"},
		{&lazycg.LazyCG{Rule: lazycg.StepCurvature}, "needs a finite C > 0"},
		{&lazycg.LazyCG{ShortStep: true}, "ShortStep is a curvature step"},
		{&lazycg.LazyCG{OpenLoop: 0.5}, "open-loop step"},
		{&lazycg.LazyCG{Rule: 99}, "unknown step rule"},
		{&lazycg.LazyCG{PhiSchedule: lazycg.PhiSchedule{Factor: 2}}, "Φ factor θ"},
		{&lazycg.LazyCG{LineSearch: lazycg.LineSearch{Rule: 99}}, "unknown line search rule"},
		{&lazycg.LazyTextbook{}, "needs the curvature C > 0"},
		{&lazycg.LazyTextbook{C: 1, K: 0.9}, "K must be ≥ 1"},
		{&lazycg.FrankWolfe{Rule: lazycg.StepCurvature}, "short step needs a finite L > 0"},
		{&lazycg.FrankWolfe{OpenLoop: 0.5}, "open-loop step"},
		{&lazycg.AwayFW{Correction: 99}, "unknown correction"},
		{&lazycg.LazyAwayFW{K: -1}, "K must be ≥ 1"},
		{&lazycg.PairwiseFW{LineSearch: lazycg.LineSearch{Rule: 99}}, "unknown line search rule"},
		{&lazycg.LazyPairwiseFW{PhiSchedule: lazycg.PhiSchedule{Phi0: -1}}, "Φ0 must be"},
		{&lazycg.BlendedPairwise{Correction: 99}, "unknown correction"},
		{&lazycg.LazyBPCG{K: 0.5}, "K must be ≥ 1"},
		{&lazycg.BlendedCG{K: 0.5}, "K must be ≥ 1"},
		{&lazycg.LLCG{}, "strong convexity S > 0"},
		{&lazycg.LLCG{S: 1, K: 0.5}, "K must be ≥ 1"},
		{&lazycg.LocalCG{S: 1, AlphaScale: -1}, "α scale"},
		// PhiSchedule.Unit: a negative or NaN unit was silently the run's,
		// +Inf called every Φ negligible (converged at the first negative
		// answer, far from the optimum).
		{&lazycg.LazyCG{PhiSchedule: lazycg.PhiSchedule{Unit: -1}}, "unit of Φ's floor"},
		{&lazycg.LazyCG{PhiSchedule: lazycg.PhiSchedule{Unit: nan}}, "unit of Φ's floor"},
		{&lazycg.LazyAwayFW{PhiSchedule: lazycg.PhiSchedule{Unit: inf}}, "unit of Φ's floor"},
		{&lazycg.LazyPairwiseFW{PhiSchedule: lazycg.PhiSchedule{Unit: nan}}, "unit of Φ's floor"},
		{&lazycg.LazyBPCG{PhiSchedule: lazycg.PhiSchedule{Unit: -1}}, "unit of Φ's floor"},
		{&lazycg.BlendedCG{PhiSchedule: lazycg.PhiSchedule{Unit: inf}}, "unit of Φ's floor"},
		// Constants of other step rules, refused like OpenLoop when not
		// 0 or positive and finite (they were ignored).
		{&lazycg.FrankWolfe{L: -1}, "the smoothness L must be 0 or positive and finite"},
		{&lazycg.FrankWolfe{Rule: lazycg.StepAgnostic, L: nan}, "the smoothness L must be 0 or positive and finite"},
		{&lazycg.LazyCG{C: -1}, "the curvature C must be 0 or positive and finite"},
		{&lazycg.LazyCG{Rule: lazycg.StepCurvature, ShortStep: true, C: inf}, "the curvature C must be 0 or positive and finite"},
		{&lazycg.AwayFW{LineSearch: lazycg.LineSearch{L: -1}}, "line search's smoothness L"},
		{&lazycg.FrankWolfe{LineSearch: lazycg.LineSearch{Rule: lazycg.LineSearchGolden, L: nan}}, "line search's smoothness L"},
		{&lazycg.LazyCG{LineSearch: lazycg.LineSearch{Rule: lazycg.LineSearchSecant, L: inf}}, "line search's smoothness L"},
	} {
		lc := &lmotest.Counting{LMO: simplex}
		p := lazycg.Problem{Objective: obj, LMO: lc}
		err := lazycg.Check(p, nil, tc.m)
		if !errors.Is(err, lazycg.ErrSettings) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%T %+v: Check gave %v, want ErrSettings with %q", tc.m, tc.m, err, tc.want)
			continue
		}
		if _, err := lazycg.Minimize(context.Background(), p, nil, tc.m); !errors.Is(err, lazycg.ErrSettings) || lc.Calls != 0 {
			t.Errorf("%T (%s): Minimize gave %v after %d LMO calls, want ErrSettings before any", tc.m, tc.want, err, lc.Calls)
		}
	}
	// Methods that need more of the problem: a product, a finite sum, a
	// polytope in standard form.
	prod, _ := lmo.NewProduct(simplex, simplex)
	obj8, _ := objective.NewDistance(make([]float64, 8))
	a, _ := objective.NewDense(2, 4, []float64{1, 0, 1, 0, 0, 1, 0, 1})
	sum, _ := objective.NewLeastSquares(a, []float64{1, 2})
	for _, tc := range []struct {
		p    lazycg.Problem
		m    lazycg.Method
		want string
	}{
		{lazycg.Problem{Objective: obj8, LMO: prod}, &lazycg.BlockFW{Order: 99}, "unknown block order"},
		{lazycg.Problem{Objective: obj8, LMO: prod}, &lazycg.LazyBlockFW{K: 0.5}, "K must be ≥ 1"},
		{lazycg.Problem{Objective: sum, LMO: simplex}, &lazycg.StochasticFW{Batch: -1}, "must be ≥ 0"},
		{lazycg.Problem{Objective: sum, LMO: simplex}, &lazycg.LazyStochasticFW{Schedule: 99}, "unknown schedule"},
		{lazycg.Problem{Objective: obj, LMO: simplex}, &lazycg.PCG{Rule: lazycg.PairwiseDyadic}, "the dyadic rule needs S > 0"},
		{lazycg.Problem{Objective: obj, LMO: simplex}, &lazycg.PCG{Rule: lazycg.PairwiseDyadic, S: 1, C: 1, Alpha: 1, LineSearch: lazycg.LineSearch{Rule: lazycg.LineSearchGolden}}, "take no line search"},
		{lazycg.Problem{Objective: obj, LMO: simplex}, &lazycg.LPCG{K: 0.5}, "K must be ≥ 1"},
		{lazycg.Problem{Objective: obj, LMO: simplex}, &lazycg.LPCG{Rule: 7}, "unknown step rule"},
		// A negative FaceCache.MaxSize was an unbounded face cache.
		{lazycg.Problem{Objective: obj, LMO: simplex}, &lazycg.LPCG{FaceCache: lazycg.CachePolicy{MaxSize: -1}}, "MaxSize must be ≥ 0"},
		{lazycg.Problem{Objective: obj, LMO: simplex}, &lazycg.LPCG{PhiSchedule: lazycg.PhiSchedule{Unit: nan}}, "unit of Φ's floor"},
		// +Inf made the first block's Φ_k infinite: the run failed mid-way.
		{lazycg.Problem{Objective: obj8, LMO: prod}, &lazycg.LazyBlockFW{PhiSchedule: lazycg.PhiSchedule{Unit: inf}}, "unit of Φ's floor"},
		{lazycg.Problem{Objective: obj8, LMO: prod}, &lazycg.BlockFW{LineSearch: lazycg.LineSearch{L: -2}}, "line search's smoothness L"},
		{lazycg.Problem{Objective: sum, LMO: simplex}, &lazycg.LazyStochasticFW{PhiSchedule: lazycg.PhiSchedule{Unit: -1}}, "unit of Φ's floor"},
	} {
		if err := lazycg.Check(tc.p, nil, tc.m); !errors.Is(err, lazycg.ErrSettings) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%T %+v: Check gave %v, want ErrSettings with %q", tc.m, tc.m, err, tc.want)
		}
	}
	// The zero values and the usual settings pass.
	for _, m := range []lazycg.Method{&lazycg.LazyCG{}, &lazycg.LazyTextbook{C: 2}, &lazycg.FrankWolfe{}, &lazycg.AwayFW{},
		&lazycg.LazyAwayFW{}, &lazycg.PairwiseFW{}, &lazycg.LazyPairwiseFW{}, &lazycg.BlendedPairwise{}, &lazycg.LazyBPCG{},
		&lazycg.BlendedCG{}, &lazycg.LLCG{S: 1}, &lazycg.LocalCG{S: 1}, &lazycg.LazyCG{K: 1, Rule: lazycg.StepCurvature, C: 3},
		&lazycg.AwayFW{Correction: lazycg.CorrectionQuadratic},
		// Documented meanings: a negative RecomputeEvery recomputes only
		// on demand; constants a rule ignores may be given (0 or positive).
		&lazycg.AwayFW{RecomputeEvery: -1}, &lazycg.FrankWolfe{L: 2}, &lazycg.LazyCG{C: 3},
		&lazycg.LazyCG{PhiSchedule: lazycg.PhiSchedule{Unit: 1e-6}}, &lazycg.PairwiseFW{LineSearch: lazycg.LineSearch{L: 4}},
		&lazycg.LPCG{FaceCache: lazycg.CachePolicy{MaxSize: 10}}, &lazycg.PCG{}} {
		if err := lazycg.Check(lazycg.Problem{Objective: obj, LMO: simplex}, nil, m); err != nil {
			t.Errorf("%T: %v", m, err)
		}
	}
}

// TestCachePolicyChecked checks that a cache policy with a negative count
// or an unknown search mode is refused as a setting, and that NewCache
// takes negative counts as 0: PruneEvery > 0 with PruneKeep < 0 passed
// Check and then panicked mid-run in Cache.Tick (slice bounds out of
// range), a negative MaxSize was silently unbounded.
func TestCachePolicyChecked(t *testing.T) {
	simplex, _ := lmo.NewProbabilitySimplex(4, 1)
	obj, _ := objective.NewDistance([]float64{0.1, 0.2, 0.3, 0.4})
	for _, pol := range []lazycg.CachePolicy{
		{PruneEvery: 2, PruneKeep: -1},
		{PruneEvery: -1},
		{MaxSize: -3},
		{Search: 7},
	} {
		st := &lazycg.Settings{MaxIterations: 50, SeparatorConfig: lazycg.SeparatorConfig{Cache: pol}}
		p := lazycg.Problem{Objective: obj, LMO: simplex}
		if err := lazycg.Check(p, st, &lazycg.LazyCG{}); !errors.Is(err, lazycg.ErrSettings) || !strings.Contains(err.Error(), "cache") {
			t.Errorf("%+v: Check gave %v, want a settings error about the cache", pol, err)
		}
		if _, err := lazycg.Minimize(context.Background(), p, st, &lazycg.LazyCG{}); !errors.Is(err, lazycg.ErrSettings) {
			t.Errorf("%+v: Minimize gave %v, want a settings error", pol, err)
		}
	}
	c := lazycg.NewCache(2, lazycg.CachePolicy{PruneEvery: 1, PruneKeep: -1, MaxSize: -2})
	c.Add([]float64{1, 0})
	c.Add([]float64{0, 1})
	c.Tick() // panicked with PruneKeep −1
	if p := c.Policy(); p.PruneKeep != 0 || p.MaxSize != 0 {
		t.Errorf("NewCache kept the policy %+v, want negative counts as 0", p)
	}
}

// plainSeparator is a weak separator that cannot separate per block.
type plainSeparator struct{ lazycg.WeakSeparator }

// TestLazyBlockFWSeparatorChecked checks that lazy block FW with a
// separator that cannot separate per block is refused by Check, before
// any LMO call (Init refused it, after the start vertex's call).
func TestLazyBlockFWSeparatorChecked(t *testing.T) {
	s1, _ := lmo.NewProbabilitySimplex(3, 1)
	s2, _ := lmo.NewProbabilitySimplex(3, 1)
	prod, _ := lmo.NewProduct(s1, s2)
	obj, _ := objective.NewDistance(make([]float64, 6))
	sep := plainSeparator{lazycg.NewSeparator(prod, lazycg.SeparatorConfig{})}
	p := lazycg.Problem{Objective: obj, LMO: prod, Separator: sep}
	if err := lazycg.Check(p, nil, &lazycg.LazyBlockFW{}); !errors.Is(err, lazycg.ErrSettings) || !strings.Contains(err.Error(), "cannot separate per block") {
		t.Errorf("Check gave %v, want a settings error about the separator", err)
	}
	// The default separator and a block separator pass.
	for _, sep := range []lazycg.WeakSeparator{nil, lazycg.NewSeparator(prod, lazycg.SeparatorConfig{})} {
		if err := lazycg.Check(lazycg.Problem{Objective: obj, LMO: prod, Separator: sep}, nil, &lazycg.LazyBlockFW{}); err != nil {
			t.Errorf("separator %T: %v", sep, err)
		}
	}
}
