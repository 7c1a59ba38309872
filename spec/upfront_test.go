package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/objective"
)

// TestPhiFactorRange: phi_factor is 0 (the default 1/2) or in (0, 1), as
// lazycg.PhiSchedule requires; 1 is refused by Set (flags, suite fields,
// bench -set) and by Validate (configs built in Go, suite variants).
func TestPhiFactorRange(t *testing.T) {
	for _, name := range []string{"phi-factor", "phi_factor"} {
		for _, v := range []string{"0", "0.5", "0.999"} {
			var c Config
			if err := c.Set(name, v); err != nil {
				t.Errorf("Set(%s, %s): %v", name, v, err)
			}
		}
		for _, v := range []string{"1", "1.5", "-0.1", "NaN"} {
			var c Config
			if err := c.Set(name, v); err == nil || !strings.Contains(err.Error(), "[0, 1)") {
				t.Errorf("Set(%s, %s): %v, want an error with [0, 1)", name, v, err)
			}
		}
	}
	c := Config{Polytope: "simplex:5", Objective: "distance", Method: "lcg", MethodParams: MethodParams{PhiFactor: 1}}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "phi_factor must be a number in [0, 1)") {
		t.Errorf("Validate with phi_factor 1: %v", err)
	}
}

// TestValidateMethodParams: Validate builds the method, so that unknown
// -params keys and the constructor's other complaints are reported
// before an instance is built (and before a suite runs); a curvature left
// to the instance's estimate is no error there.
func TestValidateMethodParams(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{Method: "lcg", MethodParams: MethodParams{Params: "bogus=1"}}, `lcg: unknown setting "bogus"`},
		{Config{Method: "lpcg", MethodParams: MethodParams{Params: "dyadc=1"}}, `lpcg: unknown setting "dyadc"`},
		{Config{Method: "cg-ls", MethodParams: MethodParams{Params: "x=1"}}, `cg-ls: unknown setting "x"`},
		{Config{Method: "ocg", MethodParams: MethodParams{Params: "x=1"}}, `ocg: unknown setting "x"`},
		{Config{Method: "lcg", MethodParams: MethodParams{Params: "short=1"}}, "-no-ls"},
		{Config{Method: "lcg", MethodParams: MethodParams{Params: "short=1", NoLineSearch: true}}, ""},
		{Config{Method: "lcg-textbook"}, ""},
		{Config{Method: "lcg", MethodParams: MethodParams{NoLineSearch: true}}, ""},
		{Config{MethodParams: MethodParams{Params: "x=1"}}, ""},
		{Config{Method: "nope", MethodParams: MethodParams{Params: "x=1"}}, ""},
	} {
		err := tc.c.Validate()
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s %q: %v", tc.c.Method, tc.c.Params, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.HasPrefix(err.Error(), "spec: ") {
			t.Errorf("%s %q: %v, want an error with %q (without the prefix Prepare adds)", tc.c.Method, tc.c.Params, err, tc.want)
		}
	}
	c := Config{Polytope: "simplex:5", Objective: "distance", Method: "lcg", MethodParams: MethodParams{K: 2, Params: "bogus=1"}}
	if _, err := c.Prepare(); err == nil || !strings.HasPrefix(err.Error(), `spec: lcg: unknown setting "bogus"`) {
		t.Errorf("Prepare: %v", err)
	}
}

// TestPrepareChecksLMO: what lazycg.Minimize would refuse at the run's
// start (lazycg.Check) —
// a block method over a polytope that is not a product, a stochastic
// method on an objective that is not a finite sum, a stale-call
// policy with a second LMO instance over an oracle that cannot make one,
// concurrent weak separation over the augmenting separator — Prepare
// reports.
func TestPrepareChecksLMO(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{Polytope: "simplex:5", Objective: "distance", Method: "bcfw"}, `bcfw on "simplex:5": lazycg: block fw: the LMO (*lmo.ProbabilitySimplex) is not a product of blocks`},
		{Config{Polytope: "simplex:5", Objective: "distance", Method: "lazy-bcfw"}, `is not a product of blocks`},
		{Config{Polytope: "product:[simplex:3]*2", Objective: "distance", Method: "bcfw"}, ""},
		{Config{Polytope: "product:[simplex:3]*2", Objective: "distance", Method: "lazy-bcfw", MethodParams: MethodParams{K: 2}}, ""},
		{Config{Polytope: "simplex:5", Objective: "distance", Method: "lcg", Concurrent: true, Stale: "race"}, "the stale-call policy race needs an LMO that makes a second instance of itself"},
		{Config{Polytope: "simplex:5", Objective: "distance", Method: "lcg", Concurrent: true, Stale: "ahead"}, "the stale-call policy ahead needs an LMO that makes a second instance of itself"},
		{Config{Polytope: "simplex:5", Objective: "distance", Method: "lcg", Concurrent: true, Stale: "restart"}, ""},
		{Config{Polytope: "simplex:5", Objective: "distance", Method: "lcg", Stale: "race"}, ""},
		{Config{Polytope: "spanningtree:5", Objective: "distance", Method: "lcg", Oracle: "aug", Concurrent: true, MethodParams: MethodParams{K: 2}},
			"the separator (*lazycg.AugmentingSeparator) cannot run its LMO call apart from its cache"},
		{Config{Polytope: "simplex:5", Objective: "distance", Method: "locg"}, "lazycg online"},
		{Config{Polytope: "simplex:5", Objective: "distance", Method: "sfw"}, `sfw: the objective (*objective.Distance) is not a finite sum`},
		{Config{Polytope: "simplex:5", Objective: "distance", Method: "lazy-sfw"}, `lazy sfw: the objective (*objective.Distance) is not a finite sum`},
		{Config{Polytope: "simplex:5", Objective: "quadratic", Method: "sfw"}, ""},
	} {
		p, err := tc.c.Prepare()
		if tc.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.c, err)
			} else {
				p.Close()
			}
			continue
		}
		if err == nil {
			p.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s over %s: %v, want an error with %q", tc.c.Method, tc.c.Polytope, err, tc.want)
		}
	}
}

// TestCompletionDefaultRank: the default rank 10 is capped by the
// smaller side of the matrix; an explicit rank must fit and the error
// names rank.
func TestCompletionDefaultRank(t *testing.T) {
	c := Config{Polytope: "nuclear:3,4", Objective: "completion", Method: "cg"}
	p, err := c.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Problem.Objective.Dim(); d != objective.CompletionSampleSize(3, 4, 3) {
		t.Errorf("dimension %d, want the sample of rank 3 (%d)", d, objective.CompletionSampleSize(3, 4, 3))
	}
	p.Close()
	c.Objective = "completion:rank=5"
	if _, err := c.Prepare(); err == nil || !strings.Contains(err.Error(), "rank must be an integer in [1, 3]") {
		t.Errorf("rank=5 over 3×4: %v", err)
	}
}

// TestEmptyKey: "=value" has no key, in any spec and in the options of
// WithOptions, and says so.
func TestEmptyKey(t *testing.T) {
	if _, err := Parse("distance:=1"); err == nil || !strings.Contains(err.Error(), `"=1" has no key`) {
		t.Errorf("distance:=1: %v", err)
	}
	for _, opts := range []string{"=", "=1", "threads=1,=2"} {
		_, err := WithOptions("cut:28", opts)
		if err == nil || !strings.Contains(err.Error(), "has no key") || strings.Contains(err.Error(), "may change") {
			t.Errorf("WithOptions(cut:28, %q): %v", opts, err)
		}
		if err := CheckPolytopeOptions(opts); err == nil || !strings.Contains(err.Error(), "has no key") {
			t.Errorf("CheckPolytopeOptions(%q): %v", opts, err)
		}
	}
	if err := CheckPolytopeOptions("threads=2,cycles=1"); err != nil {
		t.Errorf("CheckPolytopeOptions: %v", err)
	}
	if err := CheckPolytopeOptions(""); err != nil {
		t.Errorf("CheckPolytopeOptions(\"\"): %v", err)
	}
	if err := CheckPolytopeOptions("seed=2"); err == nil || !strings.Contains(err.Error(), "seed may change a polytope") {
		t.Errorf("CheckPolytopeOptions(seed=2): %v", err)
	}
}

// TestDataDirNotADirectory: a data directory that is a regular file is
// reported as such, not as missing.
func TestDataDirNotADirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ResolveFile("x.mps", Options{DataDir: file})
	if err == nil || !strings.Contains(err.Error(), "data directory "+file+" is not a directory") {
		t.Errorf("-data FILE: %v", err)
	}
	t.Setenv("LAZYCG_DATA", file)
	if _, err := ResolveFile("x.mps", Options{}); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("LAZYCG_DATA=FILE: %v", err)
	}
	if _, err := ResolveFile("x.mps", Options{DataDir: filepath.Join(file, "none")}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("-data MISSING: %v", err)
	}
}
