package online_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// weightedStream is a stream of weighted distance losses.
type weightedStream struct {
	n int
	l []lazycg.Objective
}

func (s weightedStream) Rounds() int                 { return len(s.l) }
func (s weightedStream) Dim() int                    { return s.n }
func (s weightedStream) Loss(t int) lazycg.Objective { return s.l[t] }

// TestLOCGTinyLosses: the parameter-free LOCG plays losses scaled by
// 2^−66 (about 1e−20) as it plays the unscaled ones. With Φ's absolute
// floor (1e−13·max(1, |F|)) every gap of such losses was negligible: the
// cache never answered, 172 of 200 rounds were deferred and LOCG stayed
// at x_1 (total loss 1.7× the unscaled run's, rescaled).
func TestLOCGTinyLosses(t *testing.T) {
	poly, err := lmo.NewBirkhoff(6)
	if err != nil {
		t.Fatal(err)
	}
	run := func(scale float64) *online.Result {
		rng := rand.New(rand.NewPCG(1, 2))
		st := weightedStream{n: poly.Dim()}
		for range 200 {
			w, b := make([]float64, st.n), make([]float64, st.n)
			for i := range w {
				w[i], b[i] = scale, rng.Float64()
			}
			d, err := objective.NewWeightedDistance(w, b)
			if err != nil {
				t.Fatal(err)
			}
			st.l = append(st.l, d)
		}
		res, err := online.Minimize(context.Background(), online.Problem{Losses: st, LMO: poly}, nil,
			&online.LOCG{Params: online.Params{K: 1.1, ParameterFree: true}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	one, tiny := run(1), run(math.Ldexp(1, -66))
	if tiny.Stats.DeferredRounds != 0 || tiny.Stats.PositiveCalls != one.Stats.PositiveCalls || tiny.Stats.LMOCalls != one.Stats.LMOCalls {
		t.Errorf("losses ×2^−66: %d positive answers, %d LMO calls, %d deferred rounds; unscaled: %d, %d, %d",
			tiny.Stats.PositiveCalls, tiny.Stats.LMOCalls, tiny.Stats.DeferredRounds,
			one.Stats.PositiveCalls, one.Stats.LMOCalls, one.Stats.DeferredRounds)
	}
	if r := math.Ldexp(tiny.TotalLoss, 66) / one.TotalLoss; math.Abs(r-1) > 1e-9 {
		t.Errorf("total loss ×2^66 is %g of the unscaled run's", r)
	}
}
