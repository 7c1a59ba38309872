package experiment

import (
	"strings"
	"testing"

	"github.com/lazycg/lazycg/spec"
)

// TestConcurrencyTable checks the summary's concurrent section on a
// hand-made result: a row per concurrent run with its counts and shares,
// none for sequential runs, and no section without concurrent runs.
func TestConcurrencyTable(t *testing.T) {
	seq := RunResult{Label: "LPCG", Summary: &spec.Summary{Iterations: 9, OracleTimeS: 120}}
	con := RunResult{Label: "LPCG race", Summary: &spec.Summary{Iterations: 30, ConcurrentSteps: 12, HullSteps: 5,
		Races: 4, RacesWon: 1, StaleRestarts: 7, OracleTimeS: 240, StaleOracleTimeS: 180, LostOracleTimeS: 24,
		StaleAnswers: 9, StalePositives: 8, StaleImproving: 3}}
	ahead := RunResult{Label: "LCG ahead", Summary: &spec.Summary{Iterations: 20, Aheads: 6, AheadsSettled: 2,
		StaleRestarts: 3, OracleTimeS: 200}}
	res := SuiteResult{Experiments: []ExperimentResult{
		{Spec: Experiment{Name: "nw04"}, Runs: []RunResult{seq, con, ahead}},
		{Spec: Experiment{Name: "sequential only"}, Runs: []RunResult{seq}},
	}}
	got := ConcurrencyTable(&res)
	for _, want := range []string{"## Concurrent weak separation", "| nw04 | LPCG race | 17 (5) | 4 (1) | 0 (0) | 7 | 240 s | 75% | 10% | 9 (8; 3) |",
		"| nw04 | LCG ahead | 0 (0) | 0 (0) | 6 (2) | 3 | 200 s | 0% | 0% | 0 (0; 0) |"} {
		if !strings.Contains(got, want) {
			t.Errorf("ConcurrencyTable lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "sequential only") || strings.Contains(got, "| nw04 | LPCG |") {
		t.Errorf("a sequential run is in the table:\n%s", got)
	}
	if !strings.Contains(SummaryTable(&res), "## Concurrent weak separation") {
		t.Error("the summary table lacks the concurrent section")
	}
	if ConcurrencyTable(&SuiteResult{Experiments: res.Experiments[1:]}) != "" {
		t.Error("a result without concurrent runs has a concurrent section")
	}
}
