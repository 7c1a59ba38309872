package experiment_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lazycg/lazycg/experiment"
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
