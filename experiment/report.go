package experiment

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/lazycg/lazycg/internal/fileio"
)

// ReportOptions control WriteReport.
type ReportOptions struct {
	// Figures redraws every experiment's figure from its trace files
	// before writing the report.
	Figures bool
}

// Report reads DIR/summary.json and writes DIR/summary.md and
// DIR/report.md (see WriteReport).
func Report(dir string, opt ReportOptions) (*SuiteResult, error) {
	res, err := ReadSuiteResult(dir)
	if err != nil {
		return nil, err
	}
	return res, WriteReport(dir, res, opt)
}

// ErrFigures is wrapped by WriteReport's error when figures could not be
// redrawn (a trace file is missing, empty or corrupt); the report is
// written nevertheless, naming the missing figures, and their old files
// are removed.
var ErrFigures = errors.New("experiment: figures could not be drawn")

// WriteReport writes DIR/summary.md (one row per run) and DIR/report.md:
// per figure of the paper, the figures of its experiments side by side and
// a table with the instance, its dimension, the paper's cache hit rate
// next to ours, the LMO calls and the lazy speedup in wall-clock time to
// the baseline's final primal value. Every number comes from res, which
// the runner filled from the runs and their traces. Files are written
// atomically.
//
// With opt.Figures every experiment's figure is redrawn first; when one
// cannot be drawn from the traces its old files are removed, the reports
// say why, and the error wraps ErrFigures (experiments without any trace,
// whose runs failed, are not an error).
func WriteReport(dir string, res *SuiteResult, opt ReportOptions) error {
	var failed []string
	if opt.Figures {
		for i := range res.Experiments {
			er := &res.Experiments[i]
			er.FigureError = ""
			if er.Error != "" && len(er.Runs) == 0 {
				RemoveFigure(filepath.Join(dir, er.Spec.Name))
				continue
			}
			if err := DrawFigure(filepath.Join(dir, er.Spec.Name), er); err != nil {
				er.FigureError = err.Error()
				if !errors.Is(err, errNoTrace) {
					failed = append(failed, err.Error())
				}
			}
		}
	}
	if err := writeText(filepath.Join(dir, SummaryTableFile), SummaryTable(res)); err != nil {
		return err
	}
	if err := writeText(filepath.Join(dir, ReportFile), ReportMarkdown(dir, res)); err != nil {
		return err
	}
	if len(failed) > 0 {
		return fmt.Errorf("%w: %s", ErrFigures, strings.Join(failed, "; "))
	}
	return nil
}

// writeText writes a text file atomically.
func writeText(path, text string) error {
	if err := fileio.WriteAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	return nil
}

// mdEscape makes s safe inside a Markdown table cell.
func mdEscape(s string) string {
	return strings.ReplaceAll(mdLine(s), "|", `\|`)
}

// mdLine puts s on one line: Markdown ends a line at "\r" as well as at
// "\n" (and "\r\n"), which would split a table row, a list item or a
// heading.
func mdLine(s string) string {
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

func fmtFloat(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%.6g", v)
}

func fmtSeconds(v float64) string { return fmt.Sprintf("%.3g s", v) }

func fmtSpeedup(c *Comparison) string {
	switch {
	case c == nil:
		return "—"
	case !c.Reached:
		return "not reached"
	case c.Speedup == nil:
		return "—"
	}
	return fmt.Sprintf("×%.3g", *c.Speedup)
}

// fmtNear formats the second target of c: the times to within 0.1% of
// the best primal value of either run, lazy / baseline ("> limit" for a
// run that never got there), and their ratio.
func fmtNear(c *Comparison) (times, speedup string) {
	if c == nil || c.Measure != MeasurePrimal || c.Near == 0 && c.NearLazyTimeS == nil && c.NearBaselineTimeS == nil {
		return "—", "—"
	}
	f := func(t *float64) string {
		if t == nil {
			return "> limit"
		}
		return fmtSeconds(*t)
	}
	times = f(c.NearLazyTimeS) + " / " + f(c.NearBaselineTimeS)
	switch {
	case c.NearSpeedup != nil:
		speedup = fmt.Sprintf("×%.3g", *c.NearSpeedup)
	case c.NearLazyTimeS != nil && c.NearBaselineTimeS == nil:
		speedup = "baseline never"
	case c.NearLazyTimeS == nil && c.NearBaselineTimeS != nil:
		speedup = "lazy never"
	default:
		speedup = "—"
	}
	return times, speedup
}

// emptyCells ends a row of the paper-style table whose run has no
// numbers (an error): the nine columns after the paper's hit rate.
const emptyCells = " | | | | | | | | | |\n"

// fmtDual formats a run's proven dual bound ("none" when it proved none).
func fmtDual(d *float64) string {
	if d == nil {
		return "none"
	}
	return fmtFloat(*d)
}

func fmtTimes(c *Comparison) string {
	if c == nil {
		return "—"
	}
	lazy := "not reached"
	if c.Reached {
		lazy = fmtSeconds(c.LazyTimeS)
	}
	return lazy + " / " + fmtSeconds(c.BaselineTimeS)
}

// SummaryTable returns the suite's Markdown table, one row per run.
func SummaryTable(res *SuiteResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Suite %s\n\n", mdLine(res.Suite))
	b.WriteString("| experiment | method | status | iterations | LMO calls | cache hit rate | final primal | final dual bound | time | time to target (lazy / baseline) | speedup | time to 0.1% of best (lazy / baseline) | speedup | error |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|---|---:|---|\n")
	for _, er := range res.Experiments {
		if er.Error != "" && len(er.Runs) == 0 {
			fmt.Fprintf(&b, "| %s | | | | | | | | | | | | | %s |\n", er.Spec.Name, mdEscape(er.Error))
			continue
		}
		for _, r := range er.Runs {
			if r.Summary == nil {
				fmt.Fprintf(&b, "| %s | %s | | | | | | | | | | | | %s |\n", er.Spec.Name, mdEscape(r.Label), mdEscape(r.Error))
				continue
			}
			s := r.Summary
			dual := fmtDual(s.DualBound)
			if s.DualBound == nil && s.DCSummary != nil && s.DCSummary.GapBound != nil {
				// DCA: no bound on min φ, a proven bound on the DCA gap.
				dual = "none (DCA gap ≤ " + fmtFloat(*s.DCSummary.GapBound) + ")"
			}
			hit := "—"
			if r.Lazy {
				hit = pct(100 * s.CacheHitRate)
			}
			cmp, speed := "—", "—"
			if r.Versus != nil {
				cmp, speed = fmtTimes(r.Versus), fmtSpeedup(r.Versus)
			}
			near, nearSpeed := fmtNear(r.Versus)
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", er.Spec.Name,
				mdEscape(r.Label), mdEscape(s.Status), s.Iterations, s.LMOCalls, hit, fmtFloat(s.Primal), dual,
				fmtSeconds(s.TimeS), cmp, speed, near, nearSpeed, mdEscape(r.Error))
		}
	}
	if rep := RepeatTable(res); rep != "" {
		b.WriteString("\n" + rep)
	}
	if con := ConcurrencyTable(res); con != "" {
		b.WriteString("\n" + con)
	}
	return b.String()
}

// figureGroup is the experiments of one paper figure.
type figureGroup struct {
	figure, caption string
	exps            []*ExperimentResult
}

func groupByFigure(res *SuiteResult) []*figureGroup {
	var groups []*figureGroup
	byFig := map[string]*figureGroup{}
	for i := range res.Experiments {
		er := &res.Experiments[i]
		f := er.Spec.Paper.Figure
		if f == "" {
			groups = append(groups, &figureGroup{exps: []*ExperimentResult{er}})
			continue
		}
		g := byFig[f]
		if g == nil {
			g = &figureGroup{figure: f}
			byFig[f] = g
			groups = append(groups, g)
		}
		if g.caption == "" {
			g.caption = er.Spec.Paper.Caption
		}
		g.exps = append(g.exps, er)
	}
	return groups
}

// ReportMarkdown returns the report of a suite whose output directory is
// dir (used to check which figure files exist; links are relative).
func ReportMarkdown(dir string, res *SuiteResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Experiment report: suite %s\n\n", mdLine(res.Suite))
	if res.Description != "" {
		b.WriteString(res.Description + "\n\n")
	}
	if len(res.Benches) > 1 {
		fmt.Fprintf(&b, "%d experiments from %d bench runs, time scale %g:\n\n", len(res.Experiments), len(res.Benches), res.TimeScale)
		for _, r := range res.Benches {
			fmt.Fprintf(&b, "- started %s, wall-clock time %s (%s): %s\n", r.Started, fmtSeconds(r.WallTimeS), r.Machine,
				strings.Join(r.Experiments, ", "))
		}
		b.WriteString("\n")
	} else {
		fmt.Fprintf(&b, "%d experiments, time scale %g, total wall-clock time %s (%s).\n\n",
			len(res.Experiments), res.TimeScale, fmtSeconds(res.WallTimeS), res.Machine)
	}
	b.WriteString("Figures: one column per experiment; rows show f (or the average loss online) over wall-clock " +
		"time, iterations (rounds) and LMO calls, and where the paper does, the proven gap primal − dual bound over time " +
		"(online: the average regret's upper bound, from hindsight solves at up to eight rounds). " +
		"Red lines are non-lazy methods, green (then blue, purple) lazy ones. When the runs proved a positive dual " +
		"bound, f is plotted as f − L with L the best proven dual bound, on a log scale.\n\n")
	b.WriteString("Speedup: the time the non-lazy method needed to reach its own final primal value divided by the time " +
		"the lazy method needed to reach that value, both read from the traces (online: the time to play the rounds " +
		"the non-lazy method played). Cache hit rate: weak separation calls answered from the cache over all calls. " +
		"Full per-run numbers: [" + SummaryTableFile + "](" + SummaryTableFile + ").\n\n")
	for _, g := range groupByFigure(res) {
		writeGroup(&b, dir, g)
	}
	b.WriteString(RepeatTable(res))
	return b.String()
}

func writeGroup(b *strings.Builder, dir string, g *figureGroup) {
	if g.figure != "" {
		fmt.Fprintf(b, "## %s\n\n", mdLine(g.figure))
		if g.caption != "" {
			b.WriteString(g.caption + "\n\n")
		}
	} else {
		fmt.Fprintf(b, "## %s\n\n", mdLine(g.exps[0].Spec.DisplayTitle()))
	}
	// Figures side by side, as the paper's columns.
	var cells []string
	for _, er := range g.exps {
		name := er.Spec.Name
		if _, err := os.Stat(filepath.Join(dir, name, FigurePNG)); err == nil {
			cells = append(cells, fmt.Sprintf("![%s](%s/%s) <br>[SVG](%s/%s)", name, name, FigurePNG, name, FigureSVG))
		} else {
			msg := "no figure"
			if er.FigureError != "" {
				msg += ": " + er.FigureError
			} else if er.Error != "" {
				msg += ": " + er.Error
			}
			cells = append(cells, mdEscape(name+": "+msg))
		}
	}
	head := make([]string, len(g.exps))
	for i, er := range g.exps {
		head[i] = mdEscape(er.Spec.Paper.Side)
		if head[i] == "" {
			head[i] = er.Spec.Name
		}
	}
	fmt.Fprintf(b, "| %s |\n|%s\n| %s |\n\n", strings.Join(head, " | "), strings.Repeat("---|", len(g.exps)), strings.Join(cells, " | "))
	b.WriteString("| instance | dimension | runs | time limit | cache hit rate: paper | ours | LMO calls lazy / non-lazy | iterations lazy / non-lazy | final primal: lazy / non-lazy | proven dual bound: lazy / non-lazy | time to non-lazy final value: lazy / non-lazy | lazy speedup | time to 0.1% of best: lazy / non-lazy | speedup |\n")
	b.WriteString("|---|---:|---|---|---:|---:|---:|---:|---|---|---|---:|---|---:|\n")
	for _, er := range g.exps {
		writeRows(b, er)
	}
	b.WriteString("\n")
	var notes []string
	for _, er := range g.exps {
		if er.Spec.Paper.Note != "" {
			notes = append(notes, fmt.Sprintf("%s: %s", er.Spec.Name, er.Spec.Paper.Note))
		}
		for _, w := range er.Warnings {
			notes = append(notes, fmt.Sprintf("%s: warning: %s", er.Spec.Name, w))
		}
		for _, r := range er.Runs {
			if r.Error != "" {
				notes = append(notes, fmt.Sprintf("%s/%s: %s", er.Spec.Name, r.Label, r.Error))
			}
			if r.RegretLower != nil || r.RegretUpper != nil {
				notes = append(notes, fmt.Sprintf("%s/%s: regret against the best fixed point in hindsight in [%s, %s] over %d rounds",
					er.Spec.Name, r.Label, fmtOpt(r.RegretLower), fmtOpt(r.RegretUpper), roundsOf(r)))
			}
			if n := roundAnswers(r, er.concurrentRun(r.Label)); n != "" {
				notes = append(notes, fmt.Sprintf("%s/%s: %s", er.Spec.Name, r.Label, n))
			}
			if r.Lazy && r.Versus != nil {
				if v := regretVerdict(&r, er.run(r.Versus.Baseline)); v != "" {
					notes = append(notes, fmt.Sprintf("%s/%s: %s", er.Spec.Name, r.Label, v))
				}
			}
		}
		if er.Error != "" {
			notes = append(notes, fmt.Sprintf("%s: %s", er.Spec.Name, er.Error))
		}
	}
	for _, n := range notes {
		b.WriteString("- " + mdEscape(n) + "\n")
	}
	if len(notes) > 0 {
		b.WriteString("\n")
	}
}

// roundAnswers splits the rounds of a lazy online run by the answer of
// their weak separation call: positive (from the cache or an LMO call),
// negative (a proof that the Wolfe gap of F_t at x_t is at most Φ: at a
// point that minimizes F_t every round asked ends so, docs/ONLINE.md),
// deferred (the backoff of parameter-free LOCG after repeated proofs: the
// cache had no vertex good enough, the point stays without a proof), and
// the others (the last round, and the rounds in which parameter-free LOCG
// set Φ from an LMO call or the relaxation). The cache hit rate counts the
// negative answers' LMO calls against the cache and the deferred rounds
// for it; this split shows them.
//
// With concurrent weak separation (concurrent) a background call's answer
// is counted in the round it arrives in, which may decide itself as well
// (a cached step or a deferral), so the counts do not split the rounds:
// they are reported as the run's answers, without the rest.
func roundAnswers(r RunResult, concurrent bool) string {
	s := r.Summary
	if !r.Online || !r.Lazy || s == nil || s.Iterations == 0 {
		return ""
	}
	if concurrent {
		return fmt.Sprintf("rounds %d with concurrent weak separation: answers positive %d (%d from the cache), negative %d, "+
			"deferred rounds %d (a background answer counts in the round it arrives in, which may also step or defer: "+
			"these do not split the rounds)", s.Iterations, s.PositiveCalls, s.CacheHits, s.NegativeCalls, s.DeferredRounds)
	}
	other := s.Iterations - s.PositiveCalls - s.NegativeCalls - s.DeferredRounds
	if other < 0 {
		return ""
	}
	deferred := ""
	if s.DeferredRounds > 0 {
		deferred = fmt.Sprintf("deferred to the cache %d, ", s.DeferredRounds)
	}
	return fmt.Sprintf("rounds %d: positive answers %d (%d from the cache), negative answers %d, %s"+
		"other %d (the last round, whose update is skipped, and rounds that set Φ from an LMO call or the relaxation)",
		s.Iterations, s.PositiveCalls, s.CacheHits, s.NegativeCalls, deferred, other)
}

// regretVerdict compares the average regret brackets of an online run r
// and its baseline: lower or higher when the brackets are disjoint (both
// ends are proven, so the comparison is), overlapping otherwise; "" when
// either bracket is unknown. The rounds-based speedup alone does not say
// which player ends with the lower regret.
func regretVerdict(r, base *RunResult) string {
	if base == nil || r.Summary == nil || base.Summary == nil {
		return ""
	}
	a, b := r.Summary, base.Summary
	if a.OnlineSummary == nil || b.OnlineSummary == nil || a.AvgRegretLower == nil || a.AvgRegretUpper == nil || b.AvgRegretLower == nil || b.AvgRegretUpper == nil {
		return ""
	}
	verdict := "the brackets overlap: neither is proven lower"
	switch {
	case *a.AvgRegretUpper < *b.AvgRegretLower:
		verdict = "lower, proven"
	case *a.AvgRegretLower > *b.AvgRegretUpper:
		verdict = "higher, proven"
	}
	return fmt.Sprintf("average regret in [%s, %s] against %s's [%s, %s]: %s", fmtFloat(*a.AvgRegretLower), fmtFloat(*a.AvgRegretUpper),
		base.Label, fmtFloat(*b.AvgRegretLower), fmtFloat(*b.AvgRegretUpper), verdict)
}

func roundsOf(r RunResult) int {
	if r.Summary == nil {
		return 0
	}
	return r.Summary.Iterations
}

func fmtOpt(v *float64) string {
	if v == nil {
		return "?"
	}
	return fmtFloat(*v)
}

// writeRows writes the table rows of an experiment: one per lazy run (with
// its baseline), or one per run when there is no lazy run.
func writeRows(b *strings.Builder, er *ExperimentResult) {
	e := &er.Spec
	inst := e.Paper.Instance
	if inst == "" {
		inst = e.DisplayTitle()
	}
	dim := "?"
	if er.Dim > 0 {
		dim = fmt.Sprint(er.Dim)
	}
	if e.Paper.Dim > 0 && e.Paper.Dim != er.Dim {
		dim += fmt.Sprintf(" (paper %d)", e.Paper.Dim)
	}
	limit := "none"
	if er.TimeLimitS > 0 {
		limit = fmtSeconds(er.TimeLimitS)
	}
	if e.MaxIterations > 0 {
		limit += fmt.Sprintf(", ≤ %d iterations", e.MaxIterations)
	}
	if e.Paper.TimeLimit > 0 {
		limit += " (paper " + fmtSeconds(e.Paper.TimeLimit.Seconds()) + ")"
	}
	paperHit := "—"
	if e.Paper.CacheHitRate != nil {
		paperHit = pct(*e.Paper.CacheHitRate)
	}
	if er.Error != "" && len(er.Runs) == 0 {
		fmt.Fprintf(b, "| %s | %s | error: %s | %s | %s%s", mdEscape(inst), dim, mdEscape(er.Error), limit, paperHit, emptyCells)
		return
	}
	wrote := false
	for i := range er.Runs {
		r := &er.Runs[i]
		if !r.Lazy {
			continue
		}
		wrote = true
		var base *RunResult
		if r.Versus != nil {
			base = er.run(r.Versus.Baseline)
		}
		runs := r.Label
		if base != nil {
			runs += " vs " + base.Label
		}
		if r.Summary == nil {
			fmt.Fprintf(b, "| %s | %s | %s: error | %s | %s%s", mdEscape(inst), dim, mdEscape(runs), limit, paperHit, emptyCells)
			continue
		}
		lmo, iters := fmt.Sprint(r.Summary.LMOCalls), fmt.Sprint(r.Summary.Iterations)
		primal, dual := fmtFloat(r.Summary.Primal), fmtDual(r.Summary.DualBound)
		if base != nil && base.Summary != nil {
			lmo += fmt.Sprintf(" / %d", base.Summary.LMOCalls)
			iters += fmt.Sprintf(" / %d", base.Summary.Iterations)
			primal += " / " + fmtFloat(base.Summary.Primal)
			dual += " / " + fmtDual(base.Summary.DualBound)
		}
		near, nearSpeed := fmtNear(r.Versus)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", mdEscape(inst), dim, mdEscape(runs), limit,
			paperHit, pct(100*r.Summary.CacheHitRate), lmo, iters, primal, dual, fmtTimes(r.Versus), fmtSpeedup(r.Versus), near, nearSpeed)
	}
	if wrote {
		return
	}
	for i := range er.Runs {
		r := &er.Runs[i]
		if r.Summary == nil {
			fmt.Fprintf(b, "| %s | %s | %s: error | %s | %s%s", mdEscape(inst), dim, mdEscape(r.Label), limit, paperHit, emptyCells)
			continue
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | — | %d | %d | %s | %s | — | — | — | — |\n", mdEscape(inst), dim, mdEscape(r.Label), limit,
			paperHit, r.Summary.LMOCalls, r.Summary.Iterations, fmtFloat(r.Summary.Primal), fmtDual(r.Summary.DualBound))
	}
}
