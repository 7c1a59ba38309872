package experiment

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/lazycg/lazycg/spec"
)

// MaxRepeat is the largest repetition count Suite.Repeat accepts.
const MaxRepeat = 100

// Repeat returns a suite in which every experiment of s runs n times, as
// the experiments NAME-r1 … NAME-rN (Experiment.RepeatOf and Repeat
// name the original and the repetition). Odd repetitions run the
// variants in the suite's order, even ones in reverse, so that on a loaded
// machine neither variant always runs first (A B, B A, A B, …, as
// farm-bench --vs alternates two commands). The reports add a table of
// the repeated experiments' speedups with their lower medians
// (RepeatTable). n = 1 returns s itself.
func (s *Suite) Repeat(n int) (*Suite, error) {
	if n < 1 || n > MaxRepeat {
		return nil, fmt.Errorf("experiment: repetitions must be an integer in [1, %d], got %d", MaxRepeat, n)
	}
	if n == 1 {
		return s, nil
	}
	out := &Suite{Name: s.Name, Description: s.Description}
	if out.Description != "" {
		out.Description += " "
	}
	out.Description += fmt.Sprintf("Each experiment ran %d times (NAME-r1 … NAME-r%d), the variants in reverse order in the even repetitions.", n, n)
	for _, e := range s.Experiments {
		if e.RepeatOf != "" {
			return nil, fmt.Errorf("experiment: %s is already a repetition of %s", e.Name, e.RepeatOf)
		}
		if long := fmt.Sprintf("%s-r%d", e.Name, n); len(long) > 100 {
			return nil, fmt.Errorf("experiment: the repetitions of %s would be named up to %s, longer than 100 characters: shorten its name", e.Name, long)
		}
		// A lazy variant is compared with the first non-lazy one by
		// default: in the reversed order that would be another one when
		// there are several, and the repetitions' speedups would be
		// against different baselines. Name it in every repetition.
		variants := slices.Clone(e.Variants)
		first := ""
		for i := range variants {
			if info, err := spec.Method(variants[i].Method); err == nil && !info.Lazy {
				first = variants[i].DisplayLabel()
				break
			}
		}
		for i := range variants {
			v := &variants[i]
			if info, err := spec.Method(v.Method); err == nil && info.Lazy && v.Baseline == "" && first != "" {
				v.Baseline = first
			}
		}
		for k := 1; k <= n; k++ {
			r := e
			r.Name = fmt.Sprintf("%s-r%d", e.Name, k)
			r.RepeatOf, r.Repeat = e.Name, k
			r.Variants = slices.Clone(variants)
			if k%2 == 0 {
				slices.Reverse(r.Variants)
			}
			if r.Title != "" {
				r.Title = fmt.Sprintf("%s (run %d of %d)", e.Title, k, n)
			}
			out.Experiments = append(out.Experiments, r)
		}
	}
	return out, out.Validate()
}

// repeatRow collects one run label's results over the repetitions of an
// experiment.
type repeatRow struct {
	exp, label, base string // base: the baseline's label
	online           bool
	speedups         []float64 // 0: the target was not reached
	speedText        []string
}

// RepeatTable returns the Markdown section on the repeated experiments of
// res (Suite.Repeat), or "" when there are none: for each experiment and
// each run compared with a baseline, the speedup of every repetition in
// order, their lower median (the smaller middle value for an even count,
// a target not reached, or a repetition in which the run or its baseline
// failed, counting as the smallest), and the lower medians
// of the final primal values (online: average loss and the upper end of
// the average regret bracket, a run without one counting as the largest)
// and of the proven dual bounds (offline; a run without one counts as the
// smallest) of the run and its baseline; a run that failed counts as the
// largest final value and as one without a bound.
func RepeatTable(res *SuiteResult) string {
	rows := map[string]*repeatRow{}
	var order []string
	finals := map[string][]float64{}  // exp + "\x00" + label → final primal values
	regrets := map[string][]float64{} // +Inf: no proven bound
	duals := map[string][]float64{}   // −Inf: no proven bound
	for i := range res.Experiments {
		er := &res.Experiments[i]
		base := er.Spec.RepeatOf
		if base == "" {
			continue
		}
		for _, r := range er.Runs {
			key := base + "\x00" + r.Label
			if r.Summary == nil {
				// A run that failed counts as the worst: the largest final
				// value, no proven bound. Dropping it would give the
				// median of the others as if they were all.
				finals[key] = append(finals[key], math.Inf(1))
				if r.Online || er.Spec.Online() {
					regrets[key] = append(regrets[key], math.Inf(1))
				} else {
					duals[key] = append(duals[key], math.Inf(-1))
				}
			} else {
				finals[key] = append(finals[key], r.Summary.Primal)
				if !r.Online {
					d := math.Inf(-1)
					if r.Summary.DualBound != nil {
						d = *r.Summary.DualBound
					}
					duals[key] = append(duals[key], d)
				}
				if r.Summary.OnlineSummary != nil {
					// +Inf: no proven upper bound. Dropping the run would
					// make the median of the others no bound at all.
					u := math.Inf(1)
					if r.Summary.AvgRegretUpper != nil {
						u = *r.Summary.AvgRegretUpper
					}
					regrets[key] = append(regrets[key], u)
				}
			}
			// A run compared with a baseline whose comparison is missing
			// (it or the baseline failed) counts as a target not reached:
			// dropping it would give the median of the others.
			baseline, text := "", ""
			if r.Versus != nil {
				baseline, text = r.Versus.Baseline, fmtSpeedup(r.Versus)
			} else if baseline = er.variantBaseline(r.Label); baseline != "" {
				text = "no comparison"
				if b := er.run(baseline); r.Error != "" || r.Trace == "" {
					text = "error"
				} else if b == nil || b.Error != "" || b.Trace == "" {
					text = "baseline error"
				}
			}
			if baseline == "" {
				continue
			}
			// One row per run and baseline: speedups against different
			// baselines are not repetitions of one measurement.
			rkey := key + "\x00" + baseline
			row := rows[rkey]
			if row == nil {
				row = &repeatRow{exp: base, label: r.Label, base: baseline, online: r.Online || er.Spec.Online()}
				rows[rkey] = row
				order = append(order, rkey)
			}
			sp := 0.0
			if r.Versus != nil && r.Versus.Reached && r.Versus.Speedup != nil {
				sp = *r.Versus.Speedup
			}
			row.speedups = append(row.speedups, sp)
			row.speedText = append(row.speedText, text)
		}
	}
	if len(order) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Repeated runs\n\n")
	b.WriteString("Each experiment ran several times (NAME-r1, NAME-r2, …), the variants in reverse order in the even " +
		"repetitions. Speedups in repetition order; \"lower median\": the middle value, or the smaller of the two " +
		"middle ones for an even count (a target not reached, and a repetition in which the run or its baseline failed, " +
		"counts as the smallest). Final values and proven dual bounds: " +
		"lower medians (a run without a proven bound counts as the smallest; online: average loss, and the upper end of " +
		"the average regret bracket, where a run without one counts as the largest; a run that failed counts as the " +
		"largest final value and as one without a bound; \"none\": the median is a run without one).\n\n")
	b.WriteString("| experiment | run (baseline) | runs | speedup per run | lower median | final value: run / baseline | proven dual bound: run / baseline | average regret ≤: run / baseline |\n")
	b.WriteString("|---|---|---:|---|---:|---|---|---|\n")
	for _, rkey := range order {
		row := rows[rkey]
		key := row.exp + "\x00" + row.label
		bkey := row.exp + "\x00" + row.base
		med := lowerMedian(row.speedups)
		medText := "not reached"
		if med > 0 {
			medText = fmt.Sprintf("×%.3g", med)
		}
		regret, dual := "—", "—"
		if row.online {
			regret = fmtMedian(regrets[key]) + " / " + fmtMedian(regrets[bkey])
		} else {
			dual = fmtMedian(duals[key]) + " / " + fmtMedian(duals[bkey])
		}
		fmt.Fprintf(&b, "| %s | %s (%s) | %d | %s | %s | %s / %s | %s | %s |\n", mdEscape(row.exp), mdEscape(row.label),
			mdEscape(row.base), len(row.speedups), strings.Join(row.speedText, ", "), medText,
			fmtMedian(finals[key]), fmtMedian(finals[bkey]), dual, regret)
	}
	b.WriteString("\n")
	return b.String()
}

// variantBaseline returns the label of the baseline the experiment's
// variant labeled label names (Suite.Repeat names one for every lazy
// variant), or "".
func (e *ExperimentResult) variantBaseline(label string) string {
	for k := range e.Spec.Variants {
		if v := &e.Spec.Variants[k]; v.DisplayLabel() == label {
			return v.Baseline
		}
	}
	return ""
}

// lowerMedian returns the middle value of v, or the smaller of the two
// middle ones for an even count (NaN for none).
func lowerMedian(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	return s[(len(s)-1)/2]
}

// fmtMedian formats the lower median of v ("—" for no values, "none"
// when it is −Inf or +Inf: no proven bound).
func fmtMedian(v []float64) string {
	if len(v) == 0 {
		return "—"
	}
	m := lowerMedian(v)
	if math.IsInf(m, 0) {
		return "none"
	}
	return fmtFloat(m)
}
