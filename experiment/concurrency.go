package experiment

import (
	"fmt"
	"strings"

	"github.com/lazycg/lazycg/spec"
)

// ConcurrencyTable returns the summary's section on the runs with
// concurrent weak separation (docs/CONCURRENT.md), one row per run that
// stepped while a call ran, raced, forked or restarted a call: its steps
// beside the calls (hull steps among them), races (won by the copy),
// questions asked ahead (settling the other call), stale calls asked again, the LMO's time (counting both instances) with
// the shares spent in calls that ended stale and in calls that gave no
// answer, and the answers that arrived stale (positive, still improving
// by Φ/K). It returns "" when no run of res has such numbers.
func ConcurrencyTable(res *SuiteResult) string {
	var b strings.Builder
	for _, er := range res.Experiments {
		for _, r := range er.Runs {
			s := r.Summary
			if s == nil || !concurrentRun(s) {
				continue
			}
			if b.Len() == 0 {
				b.WriteString("## Concurrent weak separation\n\n")
				b.WriteString("Per run with LMO calls in the background: steps taken while a call ran (hull steps among them), " +
					"questions raced on both instances (won by the copy), questions asked ahead at Φ/2 (whose answer settled the other call's question), " +
					"stale questions asked again (restarted or forked), " +
					"the LMO's time over both instances with the shares spent in calls that ended after their question went " +
					"stale and in calls that gave no answer, and the answers that arrived stale (positive; of these, still " +
					"improving the iterate by Φ/K).\n\n")
				b.WriteString("| experiment | method | steps beside calls (hull) | races (won by copy) | asked ahead (settled) | asked again | LMO time | stale | no answer | stale answers (positive; improving) |\n")
				b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
			}
			fmt.Fprintf(&b, "| %s | %s | %d (%d) | %d (%d) | %d (%d) | %d | %s | %s | %s | %d (%d; %d) |\n", er.Spec.Name, mdEscape(r.Label),
				s.ConcurrentSteps+s.HullSteps, s.HullSteps, s.Races, s.RacesWon, s.Aheads, s.AheadsSettled, s.StaleRestarts, fmtSeconds(s.OracleTimeS),
				share(s.StaleOracleTimeS, s.OracleTimeS), share(s.LostOracleTimeS, s.OracleTimeS),
				s.StaleAnswers, s.StalePositives, s.StaleImproving)
		}
	}
	return b.String()
}

// concurrentRun reports whether s has numbers of concurrent weak
// separation.
func concurrentRun(s *spec.Summary) bool {
	return s.ConcurrentSteps > 0 || s.HullSteps > 0 || s.Races > 0 || s.Aheads > 0 || s.StaleRestarts > 0 ||
		s.StaleOracleTimeS > 0 || s.LostOracleTimeS > 0 || s.StaleAnswers > 0
}

// share formats part/whole as a percentage ("—" without a whole).
func share(part, whole float64) string {
	if !(whole > 0) {
		return "—"
	}
	return pct(100 * part / whole)
}
