package experiment

import (
	"context"
	"strings"
	"testing"
)

// TestRunnerOnlineMethods runs OCG, LOCG with Theorem 5.1's constants and
// the parameter-free LOCG through the runner: every online method of the
// spec registry runs, the lazy ones are compared with OCG, and only the
// parameter-free LOCG moves with mostly cached positive answers.
func TestRunnerOnlineMethods(t *testing.T) {
	s, err := ParseSuite("online.json", []byte(`{"name": "online", "experiments": [
	  {"name": "online-pf", "polytope": "birkhoff:6", "losses": "quadratic:rounds=80", "time_limit": "1m",
	   "methods": ["ocg", "locg", "locg-pf"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Out: t.TempDir(), DataDir: t.TempDir()}
	res, err := r.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	er := &res.Experiments[0]
	ocg, theory, pf := er.run("ocg"), er.run("locg"), er.run("locg-pf")
	for _, rr := range []*RunResult{ocg, theory, pf} {
		if rr == nil || rr.Summary == nil || rr.Summary.Iterations != 80 || !rr.Online || rr.RegretUpper == nil {
			t.Fatalf("run %+v", rr)
		}
		if rr.Lazy != (rr.Method != "ocg") || (rr.Lazy && (rr.Versus == nil || rr.Versus.Baseline != "ocg")) {
			t.Errorf("%s: lazy %v, comparison %+v", rr.Label, rr.Lazy, rr.Versus)
		}
		if rr.Curvature <= 0 {
			t.Errorf("%s: no curvature estimate for quadratic losses", rr.Label)
		}
	}
	so, st, sp := ocg.Summary, theory.Summary, pf.Summary
	if st.PositiveCalls > 3 || sp.PositiveCalls < 60 || sp.CacheHits == 0 || 2*sp.LMOCalls > so.LMOCalls {
		t.Errorf("ocg %+v\nlocg %+v\nlocg-pf %+v", so, st, sp)
	}
	if !(*pf.RegretUpper < *theory.RegretLower) {
		t.Errorf("regret: locg-pf ≤ %g, locg ≥ %g", *pf.RegretUpper, *theory.RegretLower)
	}
}

// TestBuiltinOnlineVariants checks the online methods of the built-in
// suites: parameter-free LOCG against OCG in every online pair, and one
// theory-constants LOCG row, in the caching study only.
func TestBuiltinOnlineVariants(t *testing.T) {
	for _, name := range BuiltinNames() {
		s, _ := Builtin(name)
		for _, e := range s.Experiments {
			if !e.Online() {
				continue
			}
			methods := map[string]int{}
			for _, v := range e.Variants {
				methods[v.Method]++
			}
			caching := strings.HasPrefix(e.Name, "caching")
			if methods["ocg"] != 1 || methods["locg-pf"] == 0 || (methods["locg"] == 1) != caching || methods["locg"] > 1 {
				t.Errorf("%s/%s: methods %v", name, e.Name, methods)
			}
			if !strings.Contains(e.Paper.Note, "locg-pf") && e.Paper.Figure != "" {
				t.Errorf("%s/%s: the note does not say LOCG runs parameter-free: %q", name, e.Name, e.Paper.Note)
			}
		}
	}
}
