package lazycg

import (
	"fmt"
	"io"
	"time"
)

// NewProgressTable returns a Settings.Callback that prints a table of the
// run's progress to w, one row at most every cadence of run time (every
// iteration when cadence ≤ 0), after a header row:
//
//	iteration    time_s           primal       dual_bound          gap hit_rate
//	     1000      2.00        12.345678        12.301234     0.044444   97.10%
//
// primal is the best value so far, dual_bound the proven lower bound (−Inf
// before the first proof), gap their difference and hit_rate the weak
// separation answers found without an LMO call (Stats.CacheHitRate). The
// callback never stops the run; write errors are ignored. The CLI's solve
// command prints this table on stderr.
func NewProgressTable(w io.Writer, cadence time.Duration) func(Progress) bool {
	var last time.Duration
	header := false
	return func(p Progress) bool {
		if cadence > 0 && p.Time-last < cadence {
			return true
		}
		last = p.Time
		if !header {
			fmt.Fprintf(w, "%10s %9s %16s %16s %12s %8s\n", "iteration", "time_s", "primal", "dual_bound", "gap", "hit_rate")
			header = true
		}
		fmt.Fprintf(w, "%10d %9.2f %16.8g %16.8g %12.4g %7.2f%%\n", p.Iteration, p.Time.Seconds(),
			p.Primal, p.DualBound, p.Primal-p.DualBound, 100*p.Stats.CacheHitRate())
		return true
	}
}
