package experiment_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lazycg/lazycg/experiment"
	"github.com/lazycg/lazycg/lmo"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// ExampleParseSuite reads a suite spec file's contents.
func ExampleParseSuite() {
	s, err := experiment.ParseSuite("mine.json", []byte(`{
  "name": "mine",
  "defaults": {"time_limit": "30s"},
  "experiments": [
    {"name": "birkhoff-30", "polytope": "birkhoff:30", "objective": "quadratic", "methods": ["cg-ls", "lcg"],
     "paper": {"figure": "fig:mine", "cache_hit_rate": 95}}
  ]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	e := s.Experiments[0]
	fmt.Println(s.Name, e.Name, e.TimeLimit, e.K, e.OracleGap, len(e.Variants))
	_, err = experiment.ParseSuite("bad.json", []byte(`{"experiments": [{"name": "x", "k": "one"}]}`))
	fmt.Println(err)
	// Output:
	// mine birkhoff-30 30s 1.1 0.1 2
	// experiment: bad.json:1:37: experiments[0].k: want a number, got a string
}

// ExampleRunner runs a small suite: traces, summaries, figures and the
// report go to the output directory.
func ExampleRunner() {
	out, err := os.MkdirTemp("", "example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(out)
	e := experiment.NewExperiment("simplex", "simplex:50", "distance:seed=2", 0,
		experiment.Variant{Method: "cg-ls", Label: "CG"}, experiment.Variant{Method: "lcg", Label: "LCG"})
	e.MaxIterations = 40
	suite := &experiment.Suite{Name: "example", Experiments: []experiment.Experiment{e}}
	r := &experiment.Runner{Out: out}
	res, err := r.Run(context.Background(), suite)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, run := range res.Experiments[0].Runs {
		fmt.Println(run.Label, run.Summary.Status, run.Summary.Iterations, run.Trace)
	}
	for _, f := range []string{"summary.json", "summary.md", "report.md", "simplex/figure.png", "simplex/lcg.csv"} {
		_, err := os.Stat(filepath.Join(out, f))
		fmt.Println(f, err == nil)
	}
	// Output:
	// CG iteration-limit 40 cg.csv
	// LCG iteration-limit 40 lcg.csv
	// summary.json true
	// summary.md true
	// report.md true
	// simplex/figure.png true
	// simplex/lcg.csv true
}

// ExampleCachingStudy reruns the paper's caching study ("Effect of
// caching") on random linear losses over the probability simplex: OCG
// calls the LMO in every round, LOCG with early termination only in every
// round too, and LOCG with cache and early termination saves the calls
// answered from the cache.
func ExampleCachingStudy() {
	simplex, err := lmo.NewProbabilitySimplex(50, 1)
	if err != nil {
		panic(err)
	}
	losses, err := objective.LinearLosses(50, 300, 7)
	if err != nil {
		panic(err)
	}
	p := online.Problem{Losses: losses, LMO: simplex}
	// A small D (below the simplex's √2) and TightenPhi make LOCG less lazy.
	params := online.Params{K: 1.1, D: 0.2, TightenPhi: true}
	runs, err := experiment.CachingStudy(context.Background(), p, &online.Settings{NoHindsight: true}, params)
	if err != nil {
		panic(err)
	}
	for _, r := range runs {
		fmt.Printf("%-16s LMO calls %d, cache hits %d\n", r.Name, r.Result.Stats.LMOCalls, r.Result.Stats.CacheHits)
	}
	// Output:
	// ocg              LMO calls 299, cache hits 0
	// locg-early       LMO calls 299, cache hits 0
	// locg-cache-early LMO calls 252, cache hits 47
}
