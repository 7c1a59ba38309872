package main

import (
	"strings"
	"testing"
)

// TestOddFlagValues checks that values the commands used to accept
// silently — a k-norm ball's K above its dimension, contradictory step
// flags, scales of the problem that over- or underflow the methods' steps
// and thresholds, subnormal numbers, switches other than 0 and 1, flags
// that -method study overrides — are refused up front: exit code 2 and
// one line that says what is wrong (no panic). The values in range next
// to them still run.
func TestOddFlagValues(t *testing.T) {
	solve := func(args ...string) []string {
		return append([]string{"solve", "-polytope", "simplex:5", "-objective", "distance", "-iters", "5"}, args...)
	}
	online := func(args ...string) []string {
		return append([]string{"online", "-polytope", "simplex:5", "-losses", "linear:rounds=5", "-method", "locg"}, args...)
	}
	const scale = "must be a number ≥ 0: 0 or in [1e-100, 1e+100]"
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"knorm K above N", []string{"solve", "-polytope", "knorm:5,6", "-iters", "5"}, 2, `spec: "knorm:5,6": K must be an integer in [1, 5], got "6"`},
		{"knorm K 0", []string{"solve", "-polytope", "knorm:5,0", "-iters", "5"}, 2, `K must be an integer in [1, 5], got "0"`},
		{"knorm K fraction", []string{"lmo", "-polytope", "knorm:5,2.5"}, 2, `K must be an integer in [1, 5], got "2.5"`},
		{"knorm K = N", []string{"solve", "-polytope", "knorm:5,5", "-iters", "5"}, 0, ""},
		{"line search rule and -no-ls", solve("-line-search", "golden", "-no-ls"), 2, "line_search_rule sets the line search that line_search false turns off: choose one (-line-search, -no-ls)"},
		{"-no-ls and line search rule", solve("-no-ls", "-C", "1", "-line-search", "short", "-smoothness", "1"), 2, "choose one (-line-search, -no-ls)"},
		{"smoothness and -no-ls", solve("-smoothness", "2", "-no-ls"), 2, "choose one (-smoothness, -no-ls)"},
		{"-phi0 and -phi0-search", solve("-phi0", "1", "-phi0-search"), 2, "choose one (-phi0, -phi0-search, -phi0-lmo)"},
		{"-phi0 and -phi0-lmo", solve("-phi0", "1", "-phi0-lmo"), 2, "choose one (-phi0, -phi0-search, -phi0-lmo)"},
		{"line search rule alone", solve("-line-search", "golden"), 0, ""},
		{"online D tiny", online("-D", "1e-300"), 2, "-D " + scale + `, got "1e-300"`},
		{"online D subnormal", online("-D", "4.9e-324"), 2, "-D " + scale},
		{"online D huge", online("-D", "1e300"), 2, "-D " + scale},
		{"online D largest float", online("-D", "1.7e308"), 2, "-D " + scale},
		{"online D negative", online("-D", "-1"), 2, "-D " + scale},
		{"online D NaN", online("-D", "NaN"), 2, "-D " + scale},
		{"online D Inf", online("-D", "Inf"), 2, "-D " + scale},
		{"online D 0.5", online("-D", "0.5"), 0, ""},
		{"online D 0 (derived)", online("-D", "0"), 0, ""},
		{"online D 1e-100", online("-D", "1e-100"), 0, ""},
		{"online C huge", online("-C", "1e308"), 2, "-C " + scale},
		{"online S tiny", online("-S", "1e-320"), 2, "-S " + scale},
		{"online L huge", online("-L", "1e200"), 2, "-L " + scale},
		{"solve C huge", solve("-no-ls", "-C", "1e308"), 2, "-C " + scale},
		{"solve smoothness huge", solve("-line-search", "short", "-smoothness", "1e308"), 2, "-smoothness " + scale},
		{"solve phi0 huge", solve("-phi0", "1e308"), 2, "-phi0 " + scale},
		{"solve phi0 subnormal", solve("-phi0", "1e-320"), 2, "-phi0 " + scale},
		{"solve gap subnormal", solve("-gap", "1e-320"), 2, `-gap must be 0 or a normal number (magnitude ≥ 2.2250738585072014e-308), got the subnormal "1e-320"`},
		{"solve target subnormal", solve("-target", "-1e-320"), 2, "-target must be 0 or a normal number"},
		{"solve phi-factor subnormal", solve("-phi-factor", "5e-324"), 2, "-phi-factor must be 0 or a normal number"},
		{"switch 0.5", solve("-no-ls", "-params", "open=0.5"), 2, `lcg: open must be 0 or 1 (a switch), got "0.5"`},
		{"locg-cert envelope overflow", []string{"online", "-polytope", "simplex:20", "-losses", "linear:rounds=5", "-method", "locg-cert",
			"-L", "1e100", "-S", "1e-100", "-K", "1e6"}, 2, "locg-cert: Theorem 5.1's constant A of K=1e+06"},
		{"study concurrent (panicked)", []string{"online", "-polytope", "simplex:5", "-losses", "linear:rounds=5", "-method", "study", "-concurrent"},
			2, "-method study runs ocg, which calls the LMO directly, beside locg; -concurrent applies to single runs of locg-pf"},
		{"study -early=false", []string{"online", "-polytope", "simplex:5", "-losses", "linear:rounds=5", "-method", "study", "-early=false"},
			2, "-method study switches the cache and early termination per run (ocg, locg-early, locg-cache-early); drop -early"},
		{"study -cache=false", []string{"online", "-polytope", "simplex:5", "-losses", "linear:rounds=5", "-method", "study", "-cache=false"},
			2, "drop -cache"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(tc.args...)
			if code != tc.code {
				t.Fatalf("lazycg %s: exit %d, want %d (stderr %q)", strings.Join(tc.args, " "), code, tc.code, errOut)
			}
			if tc.code == 0 {
				return
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "lazycg: ") || !strings.Contains(errOut, tc.msg) || out != "" {
				t.Errorf("lazycg %s: stderr %q, stdout %q; want one line with %q and nothing on stdout",
					strings.Join(tc.args, " "), errOut, out, tc.msg)
			}
		})
	}
}
