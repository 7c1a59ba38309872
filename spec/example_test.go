package spec_test

import (
	"context"
	"fmt"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/spec"
)

// ExampleConfig configures a run as the CLI's flags or a suite file
// would, by setting names, prepares it and summarizes the result.
func ExampleConfig() {
	cfg := spec.Config{Polytope: "birkhoff:8", Objective: "quadratic:seed=2", Method: "lcg"}
	for _, kv := range [][2]string{{"K", "1.1"}, {"iters", "200"}, {"tighten", "true"}} {
		if err := cfg.Set(kv[0], kv[1]); err != nil {
			panic(err)
		}
	}
	p, err := cfg.Prepare()
	if err != nil {
		panic(err)
	}
	defer p.Close()
	res, err := lazycg.Minimize(context.Background(), p.Problem, cfg.Settings(), p.Method)
	if err != nil {
		panic(err)
	}
	s := p.Summary(res)
	fmt.Println(s.Method, s.Dim, s.Status, s.Iterations <= 200, s.DualBound != nil && *s.DualBound <= s.Primal)
	fmt.Println(cfg.ImprovedPhi, p.Info.Lazy, p.Info.Baseline)
	// Output:
	// lcg 64 iteration-limit true true
	// true true cg-ls
}
