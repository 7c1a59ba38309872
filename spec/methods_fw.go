package spec

import (
	"fmt"
	"strings"

	"github.com/lazycg/lazycg"
)

// blockParams reads the settings of the block-coordinate methods:
// order=cyclic|random|gap, seed=S, and (non-lazy) gap-every=N.
func blockParams(e *Spec, lazy bool) (order lazycg.BlockOrder, seed uint64, every int, err error) {
	switch o := strings.ToLower(e.OptString("order", "cyclic")); o {
	case "cyclic":
	case "random":
		order = lazycg.BlockRandom
	case "gap":
		order = lazycg.BlockGap
	default:
		return 0, 0, 0, fmt.Errorf("spec: %s: order must be cyclic, random or gap, got %q", e.Kind, o)
	}
	if seed, err = e.OptSeed(1); err != nil {
		return 0, 0, 0, err
	}
	if !lazy {
		every, err = e.OptInt("gap-every", 0, -1, 1<<30)
	}
	return order, seed, every, err
}

// sfwParams reads the settings of the stochastic methods:
// schedule=momentum|growing, batch=B, epoch=T, seed=S.
func sfwParams(e *Spec) (schedule lazycg.SFWSchedule, batch, epoch int, seed uint64, err error) {
	switch s := strings.ToLower(e.OptString("schedule", "momentum")); s {
	case "momentum":
	case "growing", "growing-batch":
		schedule = lazycg.SFWGrowingBatch
	default:
		return 0, 0, 0, 0, fmt.Errorf("spec: %s: schedule must be momentum or growing, got %q", e.Kind, s)
	}
	if batch, err = e.OptInt("batch", 0, 0, 1<<30); err != nil {
		return 0, 0, 0, 0, err
	}
	if epoch, err = e.OptInt("epoch", 0, 0, 1<<30); err != nil {
		return 0, 0, 0, 0, err
	}
	seed, err = e.OptSeed(1)
	return schedule, batch, epoch, seed, err
}

// withLineSearch reads p's line search, rejecting -no-ls: the methods of
// this file step by line search only.
func withLineSearch(name string, p MethodParams) (lazycg.LineSearch, error) {
	if p.NoLineSearch {
		return lazycg.LineSearch{}, fmt.Errorf("spec: %s steps by line search only", name)
	}
	return LineSearchOf(p)
}

func init() {
	RegisterMethod(MethodInfo{Name: "pfw", LineSearch: true,
		Doc: "classic pairwise Frank–Wolfe (Lacoste-Julien–Jaggi) with an active set, on any polytope; correction=quadratic: conjugate gradients over the active set after each new vertex",
		New: func(p MethodParams) (lazycg.Method, error) {
			ls, corr, err := activeSetParams("pfw", p)
			return ret(&lazycg.PairwiseFW{LineSearch: ls, Correction: corr}, err)
		}})
	RegisterMethod(MethodInfo{Name: "lazy-pfw", Lazy: true, Baseline: "pfw", LineSearch: true,
		Doc: "lazified pairwise Frank–Wolfe (active set as first cache, pairwise steps to weak separation answers)",
		New: func(p MethodParams) (lazycg.Method, error) {
			ls, corr, err := activeSetParams("lazy-pfw", p)
			return ret(&lazycg.LazyPairwiseFW{K: p.K, PhiSchedule: phiSchedule(p), LineSearch: ls, Correction: corr}, err)
		}})
	RegisterMethod(MethodInfo{Name: "bcg", Lazy: true, Baseline: "cg-ls", LineSearch: true,
		Doc: "blended conditional gradients (Braun–Pokutta–Tu–Wright): simplex descent on the active set, weak separation for new vertices; correction=quadratic: conjugate gradients over the active set after each new vertex",
		New: func(p MethodParams) (lazycg.Method, error) {
			ls, corr, err := activeSetParams("bcg", p)
			return ret(&lazycg.BlendedCG{K: p.K, PhiSchedule: phiSchedule(p), LineSearch: ls, Correction: corr}, err)
		}})
	RegisterMethod(MethodInfo{Name: "bcfw", LineSearch: true,
		Doc: "block-coordinate Frank–Wolfe over a product polytope (order=cyclic|random|gap: gap sampling, seed=S, gap-every=N passes per proven gap)",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwParams("bcfw", p, func(e *Spec) (lazycg.Method, error) {
				order, seed, every, err := blockParams(e, false)
				if err != nil {
					return nil, err
				}
				ls, err := withLineSearch("bcfw", p)
				return &lazycg.BlockFW{Order: order, Seed: seed, GapEvery: every, LineSearch: ls}, err
			})
		}})
	RegisterMethod(MethodInfo{Name: "lazy-bcfw", Lazy: true, Baseline: "bcfw", LineSearch: true,
		Doc: "lazified block-coordinate Frank–Wolfe: weak separation per block with a cache per block (order=cyclic|random|gap, seed=S)",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwParams("lazy-bcfw", p, func(e *Spec) (lazycg.Method, error) {
				order, seed, _, err := blockParams(e, true)
				if err != nil {
					return nil, err
				}
				ls, err := withLineSearch("lazy-bcfw", p)
				return &lazycg.LazyBlockFW{K: p.K, PhiSchedule: phiSchedule(p), Order: order, Seed: seed, LineSearch: ls}, err
			})
		}})
	RegisterMethod(MethodInfo{Name: "sfw",
		Doc: "stochastic Frank–Wolfe for finite sums (least squares rows; schedule=momentum|growing, batch=B, epoch=T, seed=S)",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwParams("sfw", p, func(e *Spec) (lazycg.Method, error) {
				schedule, batch, epoch, seed, err := sfwParams(e)
				return &lazycg.StochasticFW{Schedule: schedule, Batch: batch, EpochLength: epoch, Seed: seed}, err
			})
		}})
	RegisterMethod(MethodInfo{Name: "lazy-sfw", Lazy: true, Baseline: "sfw",
		Doc: "lazified stochastic Frank–Wolfe: weak separation on mini-batch directions, proven gaps at epoch ends",
		New: func(p MethodParams) (lazycg.Method, error) {
			return pwParams("lazy-sfw", p, func(e *Spec) (lazycg.Method, error) {
				schedule, batch, epoch, seed, err := sfwParams(e)
				return &lazycg.LazyStochasticFW{K: p.K, PhiSchedule: phiSchedule(p), Schedule: schedule, Batch: batch,
					EpochLength: epoch, Seed: seed}, err
			})
		}})
}
