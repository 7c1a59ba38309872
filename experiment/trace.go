package experiment

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/fileio"
)

// traceHeader is the header of trace CSV files; online traces have the
// extra column oracle_time_s.
var traceHeader = []string{"time_s", "iteration", "lmo_calls", "cache_hits", "primal", "dual_bound", "oracle_time_s"}

// Trace is the recorded progress of a run.
type Trace struct {
	// Points are the trace points. For online runs Iteration is the round
	// and Primal the average loss (1/t)·Σ_{i≤t} f_i(x_i); DualBound is −Inf
	// when no bound is known.
	Points []lazycg.TracePoint
	// OracleTime, when not nil, is the time spent in oracle calls up to
	// each point (online runs record it).
	OracleTime []time.Duration
	// Calls are the LMO calls of a concurrent run (lazycg.Result.Calls),
	// written beside the trace (CallsSuffix).
	Calls []lazycg.CallRecord
}

// WriteTrace writes a trace as CSV with the columns time_s, iteration,
// lmo_calls, cache_hits, primal, dual_bound and, when recorded,
// oracle_time_s. Floats are written in the shortest form that reads back
// exactly; a missing dual bound is -Inf.
func WriteTrace(w io.Writer, tr Trace) error {
	if tr.OracleTime != nil && len(tr.OracleTime) != len(tr.Points) {
		return fmt.Errorf("experiment: writing trace: %d oracle times for %d points", len(tr.OracleTime), len(tr.Points))
	}
	cols := len(traceHeader) - 1
	if tr.OracleTime != nil {
		cols++
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(traceHeader[:cols]); err != nil {
		return fmt.Errorf("experiment: writing trace: %w", err)
	}
	rec := make([]string, cols)
	for i, p := range tr.Points {
		rec[0] = strconv.FormatFloat(p.Time.Seconds(), 'g', -1, 64)
		rec[1], rec[2], rec[3] = strconv.Itoa(p.Iteration), strconv.Itoa(p.LMOCalls), strconv.Itoa(p.CacheHits)
		rec[4] = strconv.FormatFloat(p.Primal, 'g', -1, 64)
		rec[5] = strconv.FormatFloat(p.DualBound, 'g', -1, 64)
		if tr.OracleTime != nil {
			rec[6] = strconv.FormatFloat(tr.OracleTime[i].Seconds(), 'g', -1, 64)
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("experiment: writing trace: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("experiment: writing trace: %w", err)
	}
	return nil
}

// WriteTraceFile writes a trace CSV file (see WriteTrace) atomically: a
// reader sees the old file or the complete new one.
func WriteTraceFile(path string, tr Trace) error {
	var werr error
	err := fileio.WriteAtomic(path, func(w io.Writer) error { werr = WriteTrace(w, tr); return werr })
	if err != nil && werr == nil {
		err = fmt.Errorf("experiment: %w", err)
	}
	return err
}

// ReadTrace reads a trace CSV written by WriteTrace. Errors name the line.
func ReadTrace(r io.Reader) (Trace, error) {
	var tr Trace
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return tr, errors.New("experiment: trace: empty file (want a header line)")
		}
		return tr, fmt.Errorf("experiment: trace: %w", err)
	}
	if len(head) != len(traceHeader) && len(head) != len(traceHeader)-1 {
		return tr, fmt.Errorf("experiment: trace: line 1: %d columns, want %d or %d", len(head), len(traceHeader)-1, len(traceHeader))
	}
	for i, h := range head {
		if h != traceHeader[i] {
			return tr, fmt.Errorf("experiment: trace: line 1: column %d is %q, want %q", i+1, h, traceHeader[i])
		}
	}
	withOracle := len(head) == len(traceHeader)
	if withOracle {
		tr.OracleTime = []time.Duration{}
	}
	cr.FieldsPerRecord = len(head)
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return tr, nil
		}
		if err != nil {
			return Trace{}, fmt.Errorf("experiment: trace: %w", err)
		}
		line, _ := cr.FieldPos(0)
		p, err := parseTraceRecord(rec)
		if err == nil && withOracle {
			var ot time.Duration
			if ot, err = parseSeconds("oracle_time_s", rec[6]); err == nil {
				tr.OracleTime = append(tr.OracleTime, ot)
			}
		}
		if err == nil && len(tr.Points) > 0 {
			// The points are cumulative: a time or a count that goes back
			// is a damaged or edited file, which would draw a curve going
			// back and break the times to a target.
			prev := tr.Points[len(tr.Points)-1]
			switch {
			case p.Time < prev.Time:
				err = fmt.Errorf("time_s %s is before the previous line's %g", rec[0], prev.Time.Seconds())
			case p.Iteration < prev.Iteration:
				err = fmt.Errorf("iteration %d is below the previous line's %d", p.Iteration, prev.Iteration)
			case p.LMOCalls < prev.LMOCalls:
				err = fmt.Errorf("lmo_calls %d is below the previous line's %d", p.LMOCalls, prev.LMOCalls)
			case p.CacheHits < prev.CacheHits:
				err = fmt.Errorf("cache_hits %d is below the previous line's %d", p.CacheHits, prev.CacheHits)
			case withOracle && tr.OracleTime[len(tr.OracleTime)-1] < tr.OracleTime[len(tr.OracleTime)-2]:
				err = fmt.Errorf("oracle_time_s %s is before the previous line's %g", rec[6], tr.OracleTime[len(tr.OracleTime)-2].Seconds())
			}
		}
		if err != nil {
			return Trace{}, fmt.Errorf("experiment: trace: line %d: %w", line, err)
		}
		tr.Points = append(tr.Points, p)
	}
}

func parseSeconds(name, s string) (time.Duration, error) {
	t, err := strconv.ParseFloat(s, 64)
	if err != nil || !(t >= 0) || t > 1e9 {
		return 0, fmt.Errorf("%s %q is not a time in seconds", name, s)
	}
	return time.Duration(math.Round(t * 1e9)), nil
}

func parseTraceRecord(rec []string) (lazycg.TracePoint, error) {
	var p lazycg.TracePoint
	var err error
	if p.Time, err = parseSeconds("time_s", rec[0]); err != nil {
		return p, err
	}
	ints := []*int{&p.Iteration, &p.LMOCalls, &p.CacheHits}
	for i, dst := range ints {
		v, err := strconv.Atoi(rec[1+i])
		if err != nil || v < 0 {
			return p, fmt.Errorf("%s %q is not a count", traceHeader[1+i], rec[1+i])
		}
		*dst = v
	}
	if p.Primal, err = strconv.ParseFloat(rec[4], 64); err != nil || math.IsNaN(p.Primal) {
		return p, fmt.Errorf("primal %q is not a number", rec[4])
	}
	if p.DualBound, err = strconv.ParseFloat(rec[5], 64); err != nil || math.IsNaN(p.DualBound) {
		return p, fmt.Errorf("dual_bound %q is not a number", rec[5])
	}
	return p, nil
}

// ReadTraceFile reads a trace CSV file.
func ReadTraceFile(path string) (Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return Trace{}, fmt.Errorf("experiment: %w", err)
	}
	defer f.Close()
	tr, err := ReadTrace(f)
	if err != nil {
		return Trace{}, fmt.Errorf("%w (file %s)", err, path)
	}
	return tr, nil
}

// Comparison relates a lazy run to its baseline: how long each took to
// reach the same target. Offline the target is the baseline's final
// primal value; online (Measure "rounds") it is the number of rounds the
// baseline played. Every number is read from the two traces.
type Comparison struct {
	// Baseline is the label of the baseline run.
	Baseline string `json:"baseline"`
	// Measure is "primal" (offline) or "rounds" (online).
	Measure string `json:"measure"`
	// Target is the baseline's final primal value, or its number of rounds.
	Target float64 `json:"target"`
	// BaselineTimeS, BaselineIterations and BaselineLMOCalls describe the
	// first trace point at which the baseline reached Target.
	BaselineTimeS      float64 `json:"baseline_time_s"`
	BaselineIterations int     `json:"baseline_iterations"`
	BaselineLMOCalls   int     `json:"baseline_lmo_calls"`
	// Reached reports whether the lazy run reached Target; then LazyTimeS,
	// LazyIterations and LazyLMOCalls describe its first trace point that
	// did (primal ≤ Target, or round ≥ Target).
	Reached        bool    `json:"reached"`
	LazyTimeS      float64 `json:"lazy_time_s,omitempty"`
	LazyIterations int     `json:"lazy_iterations,omitempty"`
	LazyLMOCalls   int     `json:"lazy_lmo_calls,omitempty"`
	// Speedup is BaselineTimeS / LazyTimeS (nil when not reached or when
	// a time is 0).
	Speedup *float64 `json:"speedup,omitempty"`

	// Near is the second target (offline only): within NearTolerance of
	// the best primal value of either run, primal ≤ best + NearTolerance·|best|.
	// NearLazyTimeS and NearBaselineTimeS are the first times each run got
	// there (nil: never, "> limit" in reports); NearSpeedup their ratio
	// baseline / lazy, or, when only the lazy run got there, nil with
	// NearLazyTimeS set. Unlike the first target, it shows orders of
	// magnitude where a baseline never comes close to the lazy run.
	Near              float64  `json:"near,omitempty"`
	NearLazyTimeS     *float64 `json:"near_lazy_time_s,omitempty"`
	NearBaselineTimeS *float64 `json:"near_baseline_time_s,omitempty"`
	NearSpeedup       *float64 `json:"near_speedup,omitempty"`
}

// NearTolerance is the relative tolerance of Comparison.Near: 0.1%.
const NearTolerance = 1e-3

// Measures of a Comparison.
const (
	MeasurePrimal = "primal"
	MeasureRounds = "rounds"
)

// Compare derives the comparison of a lazy trace with a baseline trace for
// the measure (MeasurePrimal or MeasureRounds). It returns nil when either
// trace is empty.
func Compare(baseline, measure string, lazy, base []lazycg.TracePoint) *Comparison {
	if len(lazy) == 0 || len(base) == 0 {
		return nil
	}
	last := base[len(base)-1]
	reached := func(p lazycg.TracePoint, target float64) bool { return p.Primal <= target }
	target := last.Primal
	if measure == MeasureRounds {
		target = float64(last.Iteration)
		reached = func(p lazycg.TracePoint, target float64) bool { return float64(p.Iteration) >= target }
	} else {
		measure = MeasurePrimal
	}
	c := &Comparison{Baseline: baseline, Measure: measure, Target: target}
	if i := firstReaching(base, target, reached); i >= 0 {
		c.BaselineTimeS = base[i].Time.Seconds()
		c.BaselineIterations = base[i].Iteration
		c.BaselineLMOCalls = base[i].LMOCalls
	}
	if i := firstReaching(lazy, target, reached); i >= 0 {
		c.Reached = true
		c.LazyTimeS = lazy[i].Time.Seconds()
		c.LazyIterations = lazy[i].Iteration
		c.LazyLMOCalls = lazy[i].LMOCalls
		if c.LazyTimeS > 0 && c.BaselineTimeS > 0 {
			s := c.BaselineTimeS / c.LazyTimeS
			c.Speedup = &s
		}
	}
	if measure == MeasurePrimal {
		c.compareNear(lazy, base)
	}
	return c
}

// compareNear sets the Near fields: the first times the runs came within
// NearTolerance of the best primal value either of them saw.
func (c *Comparison) compareNear(lazy, base []lazycg.TracePoint) {
	best := math.Inf(1)
	for _, tr := range [][]lazycg.TracePoint{lazy, base} {
		for _, p := range tr {
			best = math.Min(best, p.Primal)
		}
	}
	if math.IsInf(best, 0) {
		return
	}
	c.Near = best + NearTolerance*math.Abs(best)
	reached := func(p lazycg.TracePoint, target float64) bool { return p.Primal <= target }
	at := func(tr []lazycg.TracePoint) *float64 {
		if i := firstReaching(tr, c.Near, reached); i >= 0 {
			t := tr[i].Time.Seconds()
			return &t
		}
		return nil
	}
	c.NearLazyTimeS, c.NearBaselineTimeS = at(lazy), at(base)
	if c.NearLazyTimeS != nil && c.NearBaselineTimeS != nil && *c.NearLazyTimeS > 0 && *c.NearBaselineTimeS > 0 {
		s := *c.NearBaselineTimeS / *c.NearLazyTimeS
		c.NearSpeedup = &s
	}
}

// firstReaching returns the index of the first point that reached target,
// or −1.
func firstReaching(tr []lazycg.TracePoint, target float64, reached func(lazycg.TracePoint, float64) bool) int {
	for i, p := range tr {
		if reached(p, target) {
			return i
		}
	}
	return -1
}

// WriteRoundTraceFile writes the per-round records of online runs as CSV
// (one row per run and round: method, round, time_s, oracle_time_s, loss,
// cum_loss, avg_loss, lmo_calls, cache_hits, positive_calls,
// negative_calls, bound, phi), the trace of "lazycg online".
func WriteRoundTraceFile(path string, runs []CacheStudyRun) error {
	err := fileio.WriteAtomic(path, func(f io.Writer) error { return WriteRoundTrace(f, runs) })
	if err != nil {
		return fmt.Errorf("experiment: round trace: %w", err)
	}
	return nil
}

// WriteRoundTrace writes the per-round records of online runs as CSV (see
// WriteRoundTraceFile).
func WriteRoundTrace(f io.Writer, runs []CacheStudyRun) error {
	w := csv.NewWriter(f)
	w.Write([]string{"method", "round", "time_s", "oracle_time_s", "loss", "cum_loss", "avg_loss",
		"lmo_calls", "cache_hits", "positive_calls", "negative_calls", "bound", "phi"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
	for _, r := range runs {
		for _, o := range r.Result.Trace {
			w.Write([]string{r.Name, strconv.Itoa(o.Round), g(o.Time.Seconds()), g(o.OracleTime.Seconds()),
				g(o.Loss), g(o.CumLoss), g(o.CumLoss / float64(o.Round)), strconv.Itoa(o.LMOCalls),
				strconv.Itoa(o.CacheHits), strconv.Itoa(o.PositiveCalls), strconv.Itoa(o.NegativeCalls),
				g(o.Bound), g(o.Phi)})
		}
	}
	w.Flush()
	return w.Error()
}
