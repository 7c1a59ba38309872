package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

func onlineJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, errOut, code := runCLI(append([]string{"online"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatalf("last line is not JSON: %v\n%s", err, out)
	}
	return m
}

func TestOnlineJSONContract(t *testing.T) {
	keys := []string{"method", "rounds", "lmo_calls", "cache_hits", "positive_calls", "negative_calls",
		"total_loss", "regret_lower", "regret_upper", "avg_regret_lower", "avg_regret_upper", "time_s", "status"}
	for _, method := range []string{"ocg", "locg", "locg-pf"} {
		m := onlineJSON(t, "-polytope", "simplex:20", "-losses", "linear:rounds=40,seed=2", "-method", method, "-json")
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: JSON lacks %q", method, k)
			}
		}
		if m["rounds"].(float64) != 40 || m["method"] != method {
			t.Errorf("%s: %v", method, m)
		}
		lo, hi := m["avg_regret_lower"].(float64), m["avg_regret_upper"].(float64)
		if !(lo <= hi+1e-12) || hi-lo > 1e-9 { // linear sums are minimized exactly
			t.Errorf("%s: regret bracket [%g, %g]", method, lo, hi)
		}
		if method == "ocg" && m["lmo_calls"].(float64) != 39 {
			t.Errorf("ocg made %v LMO calls in 40 rounds", m["lmo_calls"])
		}
	}
}

func TestOnlineStudyAndTrace(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.csv")
	m := onlineJSON(t, "-polytope", "spanningtree:6", "-losses", "quadratic:rounds=25,seed=1", "-method", "study",
		"-tighten", "-C", "1e-9", "-trace", trace, "-json")
	runs, ok := m["runs"].([]any)
	if !ok || len(runs) != 3 {
		t.Fatalf("study JSON: %v", m)
	}
	names := []string{"ocg", "locg-early", "locg-cache-early"}
	for i, r := range runs {
		if r.(map[string]any)["method"] != names[i] {
			t.Errorf("run %d is %v", i, r.(map[string]any)["method"])
		}
	}
	if hits := runs[1].(map[string]any)["cache_hits"].(float64); hits != 0 {
		t.Errorf("locg without cache has %v cache hits", hits)
	}
	rows := testutil.ReadCSV(t, trace)
	if len(rows) != 1+3*25 || rows[0][0] != "method" || rows[0][1] != "round" || rows[1][0] != "ocg" || rows[75][0] != "locg-cache-early" {
		t.Errorf("trace has %d rows, header %v", len(rows), rows[0])
	}
}

func TestOnlineReadableAndAugmentation(t *testing.T) {
	out, errOut, code := runCLI("online", "-polytope", "spanningtree:7", "-losses", "linear:rounds=50", "-method", "locg",
		"-oracle", "aug", "-K", "1.5", "-D", "0.5", "-tighten")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"avg regret", "augmentation", "separation", "method      locg"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	m := onlineJSON(t, "-polytope", "simplex:10", "-losses", "linear:rounds=30", "-method", "locg", "-smooth", "-json")
	if m["rounds"].(float64) != 30 {
		t.Errorf("smoothing run: %v", m)
	}
}

func TestOnlineErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		msg  string
	}{
		{"missing polytope", []string{"-losses", "linear"}, "-polytope is required"},
		{"unknown method", []string{"-polytope", "simplex:5", "-method", "sgd"}, "unknown online method"},
		{"unknown oracle", []string{"-polytope", "simplex:5", "-oracle", "magic"}, "unknown oracle"},
		{"bad K", []string{"-polytope", "simplex:5", "-K", "0.9"}, "-K must be"},
		{"aug needs K > 1", []string{"-polytope", "spanningtree:5", "-oracle", "aug", "-K", "1"}, "-K > 1"},
		{"aug needs an augmenter", []string{"-polytope", "simplex:5", "-oracle", "aug"}, "no augmentation oracle"},
		{"study with aug", []string{"-polytope", "spanningtree:5", "-oracle", "aug", "-method", "study"}, "use -oracle lmo"},
		{"bad losses", []string{"-polytope", "simplex:5", "-losses", "cubic"}, "unknown kind"},
		{"bad rounds", []string{"-polytope", "simplex:5", "-losses", "linear:rounds=0"}, "rounds"},
		{"smooth without L", []string{"-polytope", "simplex:5", "-losses", "quadratic", "-smooth"}, "-L"},
		{"negative S", []string{"-polytope", "simplex:5", "-S", "-1"}, "-S must be"},
		{"l1 ball diameter from the spec", []string{"-polytope", "l1:5", "-losses", "linear", "-method", "locg"}, ""},
		{"aug with ocg", []string{"-polytope", "spanningtree:5", "-oracle", "aug", "-method", "ocg"}, "applies to locg"},
		{"extra argument", []string{"-polytope", "simplex:5", "foo"}, "unexpected argument"},
		{"pf outside the study", []string{"-polytope", "simplex:5", "-method", "locg", "-pf"}, "-pf applies to -method study"},
		{"locg-pf with aug", []string{"-polytope", "spanningtree:5", "-oracle", "aug", "-K", "1.5", "-method", "locg-pf", "-losses", "linear:rounds=5"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runCLI(append([]string{"online"}, tc.args...)...)
			if tc.msg == "" {
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				return
			}
			if code != 2 || !strings.Contains(errOut, tc.msg) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.msg)
			}
			if strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("error is not one line: %q", errOut)
			}
		})
	}
}

// TestOnlineParameterFree runs locg-pf and the caching study with -pf: the
// parameter-free variant moves (positive answers, cache hits) where
// Algorithm 8 with the theorem's constants gets only negative answers.
func TestOnlineParameterFree(t *testing.T) {
	args := []string{"-polytope", "birkhoff:6", "-losses", "linear:rounds=60,seed=3", "-json"}
	theory := onlineJSON(t, append(args, "-method", "locg")...)
	pf := onlineJSON(t, append(args, "-method", "locg-pf")...)
	if theory["positive_calls"].(float64) > 2 || pf["positive_calls"].(float64) < 45 || pf["cache_hits"].(float64) == 0 ||
		pf["lmo_calls"].(float64) >= theory["lmo_calls"].(float64)/2 {
		t.Errorf("locg %v\nlocg-pf %v", theory, pf)
	}
	out, errOut, code := runCLI("online", "-polytope", "birkhoff:6", "-losses", "linear:rounds=60,seed=3", "-method", "study", "-pf")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "parameter-free=true") || !strings.Contains(out, "method      locg-cache-early") {
		t.Errorf("study output:\n%s", out)
	}
	m := onlineJSON(t, "-polytope", "birkhoff:6", "-losses", "linear:rounds=60,seed=3", "-method", "study", "-pf", "-json")
	runs := m["runs"].([]any)
	if cached := runs[2].(map[string]any); cached["positive_calls"].(float64) < 45 || cached["cache_hits"].(float64) == 0 {
		t.Errorf("parameter-free study, cached run: %v", cached)
	}
}

// TestOnlineBackoffFlag: with a loss that keeps one minimizing vertex
// (functions=1) locg-pf defers most rounds to the cache; -no-backoff asks
// in every round.
func TestOnlineBackoffFlag(t *testing.T) {
	args := []string{"-polytope", "simplex:12", "-losses", "linear:functions=1,rounds=400,seed=3", "-method", "locg-pf", "-json"}
	lazy := onlineJSON(t, args...)
	eager := onlineJSON(t, append(args, "-no-backoff")...)
	d, _ := lazy["deferred_rounds"].(float64)
	if d < 300 || lazy["lmo_calls"].(float64) > 80 {
		t.Errorf("backoff: %v deferred rounds, %v LMO calls", lazy["deferred_rounds"], lazy["lmo_calls"])
	}
	if _, ok := eager["deferred_rounds"]; ok || eager["lmo_calls"].(float64) < 390 {
		t.Errorf("-no-backoff: %v deferred rounds, %v LMO calls", eager["deferred_rounds"], eager["lmo_calls"])
	}
}

// TestOnlineCertified: locg-cert prints its envelope line and Theorem
// 5.1's bound, and its JSON carries the certified counters and the bound,
// which the last point's error respects on this exact linear stream.
func TestOnlineCertified(t *testing.T) {
	args := []string{"online", "-polytope", "spanningtree:8", "-losses", "linear:rounds=3000,seed=2", "-method", "locg-cert"}
	out, errOut, code := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"method      locg-cert", "Theorem 5.1 bound", "envelope    "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	m := onlineJSON(t, append(args[1:], "-json")...)
	cert, ok := m["certified"].(map[string]any)
	if !ok || cert["violations"].(float64) != 0 {
		t.Fatalf("certified counters: %v", m["certified"])
	}
	bound, ok := m["theorem_bound"].(float64)
	if !ok || !(m["avg_error_upper"].(float64) <= bound) {
		t.Errorf("theorem bound %v, last point's error ≤ %v", m["theorem_bound"], m["avg_error_upper"])
	}
	pf := onlineJSON(t, "-polytope", "spanningtree:8", "-losses", "linear:rounds=3000,seed=2", "-method", "locg-pf", "-json")
	if _, ok := pf["certified"]; ok {
		t.Errorf("locg-pf reports certified counters: %v", pf["certified"])
	}
	if _, ok := pf["theorem_bound"]; ok {
		t.Errorf("locg-pf reports a theorem bound: %v", pf["theorem_bound"])
	}
}
