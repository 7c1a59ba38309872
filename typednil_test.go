package lazycg

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// funcObjective is an Objective of a func type: a nil one is a typed nil
// of kind func.
type funcObjective func(x []float64) float64

func (f funcObjective) Dim() int                 { return 3 }
func (f funcObjective) Func(x []float64) float64 { return f(x) }
func (f funcObjective) Grad(dst, x []float64)    { f(x); clear(dst) }

// TestTypedNil: an Objective, LMO, separator, method, DC part or
// augmentation oracle that is a typed nil (a nil pointer or func in a
// non-nil interface) is refused by every entry point with an error naming
// it and its type; each used to panic with a nil dereference deep inside
// (in Dim, Monotone, the separator's first call, …). A product whose
// blocks do not cover it, or whose block LMO is a typed nil, is refused
// too (the block methods sliced out of range).
func TestTypedNil(t *testing.T) {
	ctx := context.Background()
	b := []float64{0.2, 0.3, 0.5}
	obj := testDistance{b}
	simplex := testSimplex{3}
	var (
		nilObj    *testDistance
		nilFunc   funcObjective
		nilLMO    *testSimplex
		nilSep    *CachedSeparator
		nilFW     *FrankWolfe
		nilLazy   *LazyCG
		nilAug    *augHypercube
		nilBlocks *pwBlocks
	)
	good := Problem{Objective: obj, LMO: simplex}
	with := func(edit func(*Problem)) Problem {
		p := good
		edit(&p)
		return p
	}
	badLayout := pwBlocksOf(pwProduct{2, 3})
	badLayout.bs = []Block{{Offset: 0, Dim: 3, LMO: testSimplex{3}}, {Offset: 2, Dim: 3, LMO: testSimplex{3}}}
	nilBlockLMO := pwBlocksOf(pwProduct{2, 3})
	nilBlockLMO.bs = []Block{{Offset: 0, Dim: 3, LMO: testSimplex{3}}, {Offset: 3, Dim: 3, LMO: nilLMO}}
	noBlockLMO := pwBlocksOf(pwProduct{2, 3})
	noBlockLMO.bs = []Block{{Offset: 0, Dim: 3, LMO: testSimplex{3}}, {Offset: 3, Dim: 3}}
	dc := DCProblem{F: obj, G: testDistance{[]float64{0, 0, 0}}, LMO: simplex}
	withDC := func(edit func(*DCProblem)) DCProblem {
		p := dc
		edit(&p)
		return p
	}
	minimize := func(p Problem, m Method) func() error {
		return func() error { _, err := Minimize(ctx, p, &Settings{MaxIterations: 5}, m); return err }
	}
	check := func(p Problem, m Method) func() error { return func() error { return Check(p, nil, m) } }
	minimizeDC := func(p DCProblem, m Method) func() error {
		return func() error { _, err := MinimizeDC(ctx, p, &DCSettings{MaxIterations: 2}, m); return err }
	}
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"Minimize, objective", minimize(with(func(p *Problem) { p.Objective = nilObj }), &FrankWolfe{}), "the objective is a nil *lazycg.testDistance"},
		{"Minimize, func objective", minimize(with(func(p *Problem) { p.Objective = nilFunc }), &FrankWolfe{}), "the objective is a nil lazycg.funcObjective"},
		{"Minimize, LMO", minimize(with(func(p *Problem) { p.LMO = nilLMO }), &FrankWolfe{}), "the LMO is a nil *lazycg.testSimplex"},
		{"Minimize, separator", minimize(with(func(p *Problem) { p.Separator = nilSep }), &LazyCG{}), "the separator is a nil *lazycg.CachedSeparator"},
		{"Minimize, separator's LMO", minimize(with(func(p *Problem) { p.Separator = &CachedSeparator{LMO: nilLMO} }), &LazyCG{}),
			"the separator's LMO is a nil *lazycg.testSimplex"},
		{"NewSeparator over a typed nil", minimize(with(func(p *Problem) { p.Separator = NewSeparator(nilLMO, SeparatorConfig{}) }), &LazyCG{}),
			"the separator's LMO is a nil *lazycg.testSimplex"},
		{"NewCachedSeparator over a typed nil", minimize(with(func(p *Problem) { p.Separator = NewCachedSeparator(nilLMO, CachePolicy{}) }), &LazyCG{}),
			"the separator's LMO is a nil *lazycg.testSimplex"},
		{"NewSeparator over nil", minimize(with(func(p *Problem) { p.Separator = NewSeparator(nil, SeparatorConfig{}) }), &LazyCG{}),
			"has no LMO"},
		{"Minimize, separator without LMO", minimize(with(func(p *Problem) { p.Separator = &CachedSeparator{} }), &LazyCG{}), "has no LMO"},
		{"Minimize, method", minimize(good, nilFW), "the method is a nil *lazycg.FrankWolfe"},
		{"Minimize, lazy method", minimize(good, nilLazy), "the method is a nil *lazycg.LazyCG"},
		{"Minimize, block LMO", minimize(with(func(p *Problem) { p.LMO = nilBlocks }), &BlockFW{}), "the LMO is a nil *lazycg.pwBlocks"},
		{"Minimize, blocks overlap", minimize(Problem{Objective: testDistance{make([]float64, 6)}, LMO: badLayout}, &BlockFW{}),
			"block 1 covers [2, 5)"},
		{"Minimize, block's LMO", minimize(Problem{Objective: testDistance{make([]float64, 6)}, LMO: nilBlockLMO}, &LazyBlockFW{}),
			"block 1's LMO is a nil *lazycg.testSimplex"},
		{"Minimize, block without LMO", minimize(Problem{Objective: testDistance{make([]float64, 6)}, LMO: noBlockLMO}, &LazyBlockFW{}),
			"block 1 has no LMO"},
		{"Check, objective", check(with(func(p *Problem) { p.Objective = nilObj }), &LazyCG{}), "the objective is a nil"},
		{"Check, LMO", check(with(func(p *Problem) { p.LMO = nilLMO }), &LazyCG{}), "the LMO is a nil"},
		{"Check, separator", check(with(func(p *Problem) { p.Separator = nilSep }), &LazyCG{}), "the separator is a nil"},
		{"Check, method", check(good, nilLazy), "the method is a nil"},
		{"CheckProblem, LMO", func() error { return CheckProblem(3, nilLMO, nil, nil) }, "the LMO is a nil"},
		{"CheckProblem, separator", func() error { return CheckProblem(3, simplex, nilSep, nil) }, "the separator is a nil"},
		{"MinimizeDC, F", minimizeDC(withDC(func(p *DCProblem) { p.F = nilObj }), &FrankWolfe{}), "dca: F is a nil *lazycg.testDistance"},
		{"MinimizeDC, G", minimizeDC(withDC(func(p *DCProblem) { p.G = nilObj }), &FrankWolfe{}), "dca: G is a nil *lazycg.testDistance"},
		{"MinimizeDC, LMO", minimizeDC(withDC(func(p *DCProblem) { p.LMO = nilLMO }), &FrankWolfe{}), "the LMO is a nil"},
		{"MinimizeDC, separator", minimizeDC(withDC(func(p *DCProblem) { p.Separator = nilSep }), &LazyCG{}), "the separator is a nil"},
		{"MinimizeDC, method", minimizeDC(dc, nilFW), "the method is a nil *lazycg.FrankWolfe"},
		{"NewAugmentingSeparator", func() error { _, err := NewAugmentingSeparator(nilAug); return err },
			"the augmentation oracle is a nil *lazycg.augHypercube"},
		{"AugmentingSeparator, decomposition", func() error {
			var nilDec *augVertexList
			sep := &AugmentingSeparator{Aug: augHypercube{n: 3}, Decomposition: nilDec}
			_, err := sep.Separate(ctx, make([]float64, 3), []float64{1, -1, 1}, []float64{0.5, 0.5, 0}, 1, 2)
			return err
		}, "the decomposition is a nil *lazycg.augVertexList"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				return tc.run()
			}()
			if err == nil || !strings.HasPrefix(err.Error(), "lazycg: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a lazycg error saying %q", err, tc.want)
			}
		})
	}
	// A nil slice is a usable empty value, not a typed nil to refuse: a
	// nil list of vertices is an empty Decomposer.
	if err := CheckNotNil("the decomposition", augVertexList(nil)); err != nil {
		t.Errorf("nil vertex list: %v", err)
	}
	if err := CheckNotNil("nothing", nil); err != nil {
		t.Errorf("untyped nil: %v", err)
	}
}

// TestDCNegativeLimits: MinimizeDC refuses a negative limit (it lifted
// the DefaultDCMaxIterations cap without bounding the run), as Minimize
// does.
func TestDCNegativeLimits(t *testing.T) {
	p := DCProblem{F: testDistance{[]float64{0.2, 0.3, 0.5}}, G: testDistance{[]float64{0, 0, 0}}, LMO: testSimplex{3}}
	for _, st := range []DCSettings{{MaxIterations: -1}, {MaxLMOCalls: -1}, {TimeLimit: -1}} {
		if _, err := MinimizeDC(context.Background(), p, &st, &FrankWolfe{}); !errors.Is(err, ErrSettings) {
			t.Errorf("limits %d, %d, %v: error %v, want one matching ErrSettings", st.MaxIterations, st.MaxLMOCalls, st.TimeLimit, err)
		}
	}
}

// TestSFWEpochHonorsTimeLimit: an epoch of the stochastic methods stops
// at the run's time limit (an epoch of 2^40 inner steps over an LMO that
// answers at once ran past it for hours).
func TestSFWEpochHonorsTimeLimit(t *testing.T) {
	b := []float64{0.2, 0.3, 0.5}
	for _, m := range []Method{&StochasticFW{EpochLength: 1 << 40}, &LazyStochasticFW{EpochLength: 1 << 40}} {
		done := make(chan *Result, 1)
		go func() {
			res, _ := Minimize(context.Background(), Problem{Objective: testSum{testDistance{b}}, LMO: testSimplex{3}},
				&Settings{TimeLimit: 100 * time.Millisecond}, m)
			done <- res
		}()
		select {
		case res := <-done:
			if res == nil || res.Status != TimeLimit {
				t.Errorf("%T: result %v, want status time-limit", m, res)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%T: still running 20 s after a time limit of 100 ms", m)
		}
	}
}
