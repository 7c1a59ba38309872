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
)

// traceHeader is the header of trace CSV files.
var traceHeader = []string{"time_s", "iteration", "lmo_calls", "cache_hits", "primal", "dual_bound"}

// WriteTrace writes trace points as CSV with the columns time_s, iteration,
// lmo_calls, cache_hits, primal, dual_bound. Floats are written in the
// shortest form that reads back exactly; a missing dual bound is -Inf.
func WriteTrace(w io.Writer, tr []lazycg.TracePoint) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(traceHeader); err != nil {
		return fmt.Errorf("experiment: writing trace: %w", err)
	}
	for _, p := range tr {
		rec := []string{strconv.FormatFloat(p.Time.Seconds(), 'g', -1, 64), strconv.Itoa(p.Iteration),
			strconv.Itoa(p.LMOCalls), strconv.Itoa(p.CacheHits), strconv.FormatFloat(p.Primal, 'g', -1, 64),
			strconv.FormatFloat(p.DualBound, 'g', -1, 64)}
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

// WriteTraceFile writes a trace CSV file (see WriteTrace).
func WriteTraceFile(path string, tr []lazycg.TracePoint) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	if err := WriteTrace(f, tr); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	return nil
}

// ReadTrace reads a trace CSV written by WriteTrace. Errors name the line.
func ReadTrace(r io.Reader) ([]lazycg.TracePoint, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(traceHeader)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("experiment: trace: empty file (want a header line)")
		}
		return nil, fmt.Errorf("experiment: trace: %w", err)
	}
	for i, h := range traceHeader {
		if head[i] != h {
			return nil, fmt.Errorf("experiment: trace: line 1: column %d is %q, want %q", i+1, head[i], h)
		}
	}
	var out []lazycg.TracePoint
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("experiment: trace: %w", err)
		}
		line, _ := cr.FieldPos(0)
		p, err := parseTraceRecord(rec)
		if err != nil {
			return nil, fmt.Errorf("experiment: trace: line %d: %w", line, err)
		}
		out = append(out, p)
	}
}

func parseTraceRecord(rec []string) (lazycg.TracePoint, error) {
	var p lazycg.TracePoint
	t, err := strconv.ParseFloat(rec[0], 64)
	if err != nil || !(t >= 0) || t > 1e9 {
		return p, fmt.Errorf("time_s %q is not a time in seconds", rec[0])
	}
	p.Time = time.Duration(math.Round(t * 1e9))
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
func ReadTraceFile(path string) ([]lazycg.TracePoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	defer f.Close()
	tr, err := ReadTrace(f)
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return tr, nil
}

// Comparison relates a lazy run to its non-lazy baseline: how long each
// took to reach the baseline's final primal value. Every number is read
// from the two traces.
type Comparison struct {
	// Baseline is the label of the baseline run.
	Baseline string `json:"baseline"`
	// Target is the baseline's final primal value (its last trace point).
	Target float64 `json:"target_primal"`
	// BaselineTimeS, BaselineIterations and BaselineLMOCalls describe the
	// first trace point at which the baseline reached Target.
	BaselineTimeS      float64 `json:"baseline_time_s"`
	BaselineIterations int     `json:"baseline_iterations"`
	BaselineLMOCalls   int     `json:"baseline_lmo_calls"`
	// Reached reports whether the lazy run reached Target; then LazyTimeS,
	// LazyIterations and LazyLMOCalls describe its first trace point with
	// primal ≤ Target.
	Reached        bool    `json:"reached"`
	LazyTimeS      float64 `json:"lazy_time_s,omitempty"`
	LazyIterations int     `json:"lazy_iterations,omitempty"`
	LazyLMOCalls   int     `json:"lazy_lmo_calls,omitempty"`
	// Speedup is BaselineTimeS / LazyTimeS (nil when not reached or when
	// a time is 0).
	Speedup *float64 `json:"speedup,omitempty"`
}

// Compare derives the comparison of a lazy trace with a baseline trace. It
// returns nil when either trace is empty.
func Compare(baseline string, lazy, base []lazycg.TracePoint) *Comparison {
	if len(lazy) == 0 || len(base) == 0 {
		return nil
	}
	target := base[len(base)-1].Primal
	c := &Comparison{Baseline: baseline, Target: target}
	if i := firstAtMost(base, target); i >= 0 {
		c.BaselineTimeS = base[i].Time.Seconds()
		c.BaselineIterations = base[i].Iteration
		c.BaselineLMOCalls = base[i].LMOCalls
	}
	if i := firstAtMost(lazy, target); i >= 0 {
		c.Reached = true
		c.LazyTimeS = lazy[i].Time.Seconds()
		c.LazyIterations = lazy[i].Iteration
		c.LazyLMOCalls = lazy[i].LMOCalls
		if c.LazyTimeS > 0 && c.BaselineTimeS > 0 {
			s := c.BaselineTimeS / c.LazyTimeS
			c.Speedup = &s
		}
	}
	return c
}

// firstAtMost returns the index of the first point with Primal ≤ target,
// or −1.
func firstAtMost(tr []lazycg.TracePoint, target float64) int {
	for i, p := range tr {
		if p.Primal <= target {
			return i
		}
	}
	return -1
}
