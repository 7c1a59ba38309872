package spec

import (
	"strings"
	"testing"
)

// TestKNormK checks the K of knorm:N,K: an integer in [1, N], the error
// naming the spec and the range.
func TestKNormK(t *testing.T) {
	cases := []struct {
		spec, err string
	}{
		{"knorm:5,1", ""},
		{"knorm:5,5", ""},
		{"knorm:5,6", `"knorm:5,6": K must be an integer in [1, 5], got "6"`},
		{"knorm:3,1000", `"knorm:3,1000": K must be an integer in [1, 3]`},
		{"knorm:5,0", `K must be an integer in [1, 5], got "0"`},
		{"knorm:5,-2", `K must be an integer in [1, 5], got "-2"`},
		{"knorm:5,1.5", `K must be an integer in [1, 5], got "1.5"`},
		{"knorm:5,x", `K must be an integer in [1, 5], got "x"`},
		{"knorm:5", "want knorm:N,K[,r=RADIUS] with 1 ≤ K ≤ N"},
	}
	checkPolytopeSpecs(t, cases)
}

// TestContradictorySettings checks that Validate refuses settings that
// cancel each other: a line search rule or smoothness with no line
// search, a given Φ0 with a rule that finds Φ0.
func TestContradictorySettings(t *testing.T) {
	cases := []struct {
		name string
		p    MethodParams
		err  string
	}{
		{"line search rule", MethodParams{LineSearch: "golden"}, ""},
		{"no line search", MethodParams{NoLineSearch: true, C: 1}, ""},
		{"smoothness", MethodParams{LineSearch: "short", Smoothness: 2}, ""},
		{"phi0", MethodParams{Phi0: 1}, ""},
		{"rule without line search", MethodParams{NoLineSearch: true, C: 1, LineSearch: "golden"},
			"line_search_rule sets the line search that line_search false turns off: choose one (-line-search, -no-ls)"},
		{"short rule without line search", MethodParams{NoLineSearch: true, C: 1, LineSearch: "short", Smoothness: 1}, "line_search_rule"},
		{"smoothness without line search", MethodParams{NoLineSearch: true, C: 1, Smoothness: 2},
			"smoothness sets the line search that line_search false turns off: choose one (-smoothness, -no-ls)"},
		{"phi0 and its search", MethodParams{Phi0: 1, Phi0Search: true}, "phi0 gives Φ0, which phi0_search and phi0_lmo would find"},
		{"phi0 and its LMO call", MethodParams{Phi0: 1, Phi0LMO: true}, "choose one (-phi0, -phi0-search, -phi0-lmo)"},
	}
	for _, tc := range cases {
		c := Config{Polytope: "simplex:5", Objective: "distance", Method: "lcg", MethodParams: tc.p}
		err := c.Validate()
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.err)
		}
		if tc.err == "" {
			continue
		}
		// Prepare refuses them before building anything.
		if p, err := c.Prepare(); err == nil {
			p.Close()
			t.Errorf("%s: Prepare accepted the settings", tc.name)
		}
	}
}

// TestScaleSettingRanges checks the ranges of the settings that are
// scales of the problem (C, S, L, D, smoothness, Φ0: 0 or within
// [1e-100, 1e100]) and that no float setting takes a subnormal value.
func TestScaleSettingRanges(t *testing.T) {
	const scaleErr = "must be a number ≥ 0: 0 or in [1e-100, 1e+100]"
	cases := []struct {
		name, value, err string
	}{
		{"D", "0", ""},
		{"D", "0.5", ""},
		{"D", "1e-100", ""},
		{"D", "1e100", ""},
		{"D", "1e-300", scaleErr},
		{"D", "4.9e-324", scaleErr},
		{"D", "1e300", scaleErr},
		{"D", "-1", scaleErr},
		{"D", "NaN", scaleErr},
		{"D", "Inf", scaleErr},
		{"d", "1e-101", scaleErr},
		{"C", "1e-9", ""},
		{"C", "1e308", scaleErr},
		{"C", "1e-320", scaleErr},
		{"S", "1e-300", scaleErr},
		{"L", "1e200", scaleErr},
		{"smoothness", "1e308", scaleErr},
		{"phi0", "1e-320", scaleErr},
		{"phi0", "2.5", ""},
		{"gap", "1e-320", "got the subnormal \"1e-320\""},
		{"gap", "1e-300", ""},
		{"target", "-1e-320", "got the subnormal"},
		{"target", "-1e300", ""},
		{"phi-factor", "5e-324", "got the subnormal"},
		{"lazy-gap", "1e-310", "got the subnormal"},
		{"phi-growth", "1e-310", "got the subnormal"},
		{"oracle-gap", "1e-310", "got the subnormal"},
		{"oracle-gap", "0", ""},
	}
	for _, tc := range cases {
		var c Config
		err := c.Set(tc.name, tc.value)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("Set(%s, %s): %v", tc.name, tc.value, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Set(%s, %s): error %v, want one with %q", tc.name, tc.value, err, tc.err)
		}
	}
	// Configs built in Go: Validate applies the same ranges.
	c := Config{Polytope: "simplex:5", Losses: "linear:rounds=5", Method: "locg", MethodParams: MethodParams{D: 1e-300}}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "d "+scaleErr) {
		t.Errorf("Validate with D = 1e-300: %v", err)
	}
}

// TestSwitchOptions checks that the switches of specs and -params take 0
// or 1 only.
func TestSwitchOptions(t *testing.T) {
	for _, v := range []string{"0.5", "2", "1e-300", "-1", "yes"} {
		_, err := methods["lcg"].New(MethodParams{NoLineSearch: true, Params: "open=" + v})
		if err == nil || !strings.Contains(err.Error(), `open must be 0 or 1 (a switch), got "`+v+`"`) {
			t.Errorf("lcg open=%s: %v", v, err)
		}
	}
	for _, v := range []string{"0", "1"} {
		if _, err := methods["lcg"].New(MethodParams{NoLineSearch: true, Params: "open=" + v, C: 1}); err != nil {
			t.Errorf("lcg open=%s: %v", v, err)
		}
	}
}

// TestCertifiedConstantsOverflow checks that locg-cert refuses constants
// whose Theorem 5.1 envelope overflows (the run would stop in its first
// round) before the run.
func TestCertifiedConstantsOverflow(t *testing.T) {
	c := Config{Polytope: "simplex:20", Losses: "linear:rounds=5", Method: "locg-cert", Oracle: "lmo",
		MethodParams: MethodParams{K: 1e6, S: 1e-100, L: 1e100}}
	if p, err := c.Prepare(); err == nil {
		p.Close()
		t.Fatal("locg-cert with an envelope of +Inf prepared")
	} else if !strings.Contains(err.Error(), "locg-cert: Theorem 5.1's constant A") || !strings.Contains(err.Error(), "not finite (overflow)") {
		t.Errorf("error %v", err)
	}
	c.MethodParams = MethodParams{K: 2, S: 1, L: 1}
	p, err := c.Prepare()
	if err != nil {
		t.Fatalf("locg-cert with finite constants: %v", err)
	}
	p.Close()
}

// TestNuclearRadiusTwice checks that nuclear:M,N,R refuses a second
// radius r=, which used to replace R silently, and radii outside the
// scales the methods take.
func TestNuclearRadiusTwice(t *testing.T) {
	cases := []struct{ spec, err string }{
		{"nuclear:5,5,2", ""},
		{"nuclear:5,5,r=3", ""},
		{"nuclear:5,5,2,r=3", `"nuclear:5,5,2,r=3": the radius R given twice`},
		{"nuclear:5,5,2,r=2", "the radius R given twice"},
		{"nuclear:5,5,1e200", "R must be a number in [1e-100, 1e+100]"},
		{"nuclear:5,5,r=1e200", "r must be a number in [1e-100, 1e+100]"},
	}
	checkPolytopeSpecs(t, cases)
}

// checkPolytopeSpecs builds each spec and checks that it succeeds (err "")
// or fails with an error containing err.
func checkPolytopeSpecs(t *testing.T, cases []struct{ spec, err string }) {
	t.Helper()
	for _, tc := range cases {
		in, err := Polytope(tc.spec, Options{})
		if in != nil {
			in.Close()
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.spec, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one with %q", tc.spec, err, tc.err)
		}
	}
}
