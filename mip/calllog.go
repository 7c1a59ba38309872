package mip

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/jsonfloat"
)

// Call is one line of a call log (Options.CallLog): a question a Solver
// was asked, through its public methods, and its answer. A log lets the
// same questions — the costs, weak separation thresholds and faces a run
// produced — be asked again of another solver configuration, so that
// oracle changes are compared on identical calls (oraclebench -replay)
// rather than on runs whose trajectories differ.
//
// A log holds one or more sessions, each opened by a line of Kind
// CallStart that describes the solver (Dim, Model, RelGap, Pool).
type Call struct {
	// Kind is CallStart or the method: CallMinimize, CallUntil, CallFace
	// or CallRelaxationBound.
	Kind string
	// Question.
	C         []float64 // costs over the polytope's coordinates
	Improve   float64   // CallUntil: StopRule.Improve
	Certify   float64   // CallUntil: StopRule.Certify
	Keep      bool      // CallUntil: StopRule.Keep
	KeepBelow float64
	Dive      bool  // CallUntil: StopRule.Dive
	Zero      []int // CallFace: the coordinates fixed to 0
	// Answer (not for CallStart).
	Found   bool
	Value   float64
	Bound   float64
	Reason  string // lazycg.StopReason's String; "" after an error
	Nodes   int64
	Seconds float64 // wall-clock time of the call
	Err     string
	// Session (CallStart only).
	Dim    int
	Model  string
	RelGap float64
	Pool   string
}

// Kinds of Call.
const (
	CallStart           = "start"
	CallMinimize        = "minimize"
	CallUntil           = "until"
	CallFace            = "face"
	CallRelaxationBound = "relaxation-bound"
)

// callJSON is Call with its floats as logFloat, so that ±Inf (thresholds
// that switch a rule off, bounds of calls that proved nothing) survive
// JSON, which has no infinities.
type callJSON struct {
	Kind      string     `json:"kind"`
	C         []logFloat `json:"c,omitempty"`
	Improve   *logFloat  `json:"improve,omitempty"`
	Certify   *logFloat  `json:"certify,omitempty"`
	Keep      bool       `json:"keep,omitempty"`
	KeepBelow *logFloat  `json:"keep_below,omitempty"`
	Dive      bool       `json:"dive,omitempty"`
	Zero      []int      `json:"zero,omitempty"`
	Found     bool       `json:"found,omitempty"`
	Value     *logFloat  `json:"value,omitempty"`
	Bound     *logFloat  `json:"bound,omitempty"`
	Reason    string     `json:"reason,omitempty"`
	Nodes     int64      `json:"nodes,omitempty"`
	Seconds   float64    `json:"seconds,omitempty"`
	Err       string     `json:"err,omitempty"`
	Dim       int        `json:"dim,omitempty"`
	Model     string     `json:"model,omitempty"`
	RelGap    float64    `json:"rel_gap,omitempty"`
	Pool      string     `json:"pool,omitempty"`
}

// logFloat is a float64 whose JSON form is a number, or the string "Inf",
// "-Inf" or "NaN".
type logFloat = jsonfloat.Float

func ptr(v float64) *logFloat { f := logFloat(v); return &f }

func val(p *logFloat) float64 {
	if p == nil {
		return 0
	}
	return float64(*p)
}

// MarshalJSON writes the call as one JSON object with ±Inf and NaN as
// strings.
func (c Call) MarshalJSON() ([]byte, error) {
	j := callJSON{Kind: c.Kind, Keep: c.Keep, Dive: c.Dive, Zero: c.Zero, Found: c.Found, Reason: c.Reason, Nodes: c.Nodes,
		Seconds: c.Seconds, Err: c.Err, Dim: c.Dim, Model: c.Model, RelGap: c.RelGap, Pool: c.Pool}
	if c.C != nil {
		j.C = make([]logFloat, len(c.C))
		for i, v := range c.C {
			j.C[i] = logFloat(v)
		}
	}
	if c.Kind == CallUntil {
		j.Improve, j.Certify = ptr(c.Improve), ptr(c.Certify)
		if c.Keep {
			j.KeepBelow = ptr(c.KeepBelow)
		}
	}
	if c.Kind != CallStart {
		j.Value, j.Bound = ptr(c.Value), ptr(c.Bound)
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Call) UnmarshalJSON(b []byte) error {
	var j callJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*c = Call{Kind: j.Kind, Improve: val(j.Improve), Certify: val(j.Certify), Keep: j.Keep, KeepBelow: val(j.KeepBelow), Dive: j.Dive,
		Zero: j.Zero, Found: j.Found, Value: val(j.Value), Bound: val(j.Bound), Reason: j.Reason, Nodes: j.Nodes,
		Seconds: j.Seconds, Err: j.Err, Dim: j.Dim, Model: j.Model, RelGap: j.RelGap, Pool: j.Pool}
	if j.C != nil {
		c.C = make([]float64, len(j.C))
		for i, v := range j.C {
			c.C[i] = float64(v)
		}
	}
	return nil
}

// CallSession is the calls of one solver in a call log.
type CallSession struct {
	Start Call // the CallStart line
	Calls []Call
}

// ReadCallLog reads a call log (Options.CallLog). It returns an error
// naming the line of the first malformed entry: not JSON, an unknown
// kind, a call before the first start line, costs or face indices that do
// not fit the session's dimension, a NaN threshold or cost, or a negative
// time.
func ReadCallLog(r io.Reader) ([]CallSession, error) {
	var out []CallSession
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<30)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var c Call
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("mip: call log line %d: %v", line, err)
		}
		if err := checkCall(&c, out); err != nil {
			return nil, fmt.Errorf("mip: call log line %d: %v", line, err)
		}
		if c.Kind == CallStart {
			out = append(out, CallSession{Start: c})
			continue
		}
		s := &out[len(out)-1]
		s.Calls = append(s.Calls, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mip: call log line %d: %v", line+1, err)
	}
	return out, nil
}

func checkCall(c *Call, sessions []CallSession) error {
	if c.Kind == CallStart {
		if c.Dim <= 0 {
			return fmt.Errorf("start line with dimension %d", c.Dim)
		}
		if math.IsNaN(c.RelGap) || c.RelGap < 0 {
			return fmt.Errorf("start line with relative gap %g", c.RelGap)
		}
		return nil
	}
	switch c.Kind {
	case CallMinimize, CallUntil, CallFace, CallRelaxationBound:
	default:
		return fmt.Errorf("unknown kind %q", c.Kind)
	}
	if len(sessions) == 0 {
		return errors.New("a call before the first start line")
	}
	n := sessions[len(sessions)-1].Start.Dim
	if len(c.C) != n {
		return fmt.Errorf("%s call has %d costs, the session's dimension is %d", c.Kind, len(c.C), n)
	}
	for i, v := range c.C {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("cost %d is %g", i, v)
		}
	}
	if math.IsNaN(c.Improve) || math.IsNaN(c.Certify) || math.IsNaN(c.KeepBelow) {
		return errors.New("NaN threshold")
	}
	for _, i := range c.Zero {
		if i < 0 || i >= n {
			return fmt.Errorf("face index %d out of range [0, %d)", i, n)
		}
	}
	if c.Seconds < 0 || math.IsNaN(c.Seconds) {
		return fmt.Errorf("time %g s", c.Seconds)
	}
	return nil
}

// logStart writes a session's start line (NewSolverContext).
func (s *Solver) logStart() error {
	return s.writeCall(Call{Kind: CallStart, Dim: len(s.vars), Model: s.model.Name, RelGap: s.opts.RelGap,
		Pool: s.opts.Pool.String()})
}

// logCall appends a finished call to Options.CallLog. A write error is
// returned when the call itself succeeded.
func (s *Solver) logCall(kind string, c []float64, rule *lazycg.StopRule, zero []bool, start time.Time, res lazycg.LinearResult, err error) error {
	if s.opts.CallLog == nil {
		return err
	}
	for _, v := range c {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return err // refused input: not a question to log
		}
	}
	rec := Call{Kind: kind, C: c, Found: res.Found, Value: res.Value, Bound: res.Bound, Nodes: res.Nodes,
		Seconds: time.Since(start).Seconds()}
	if rule != nil {
		rec.Improve, rec.Certify, rec.Keep, rec.KeepBelow, rec.Dive = rule.Improve, rule.Certify, rule.Keep, rule.KeepBelow, rule.Dive
	}
	for i, z := range zero {
		if z {
			rec.Zero = append(rec.Zero, i)
		}
	}
	if err != nil {
		rec.Err = err.Error()
	} else {
		rec.Reason = res.Reason.String()
	}
	if werr := s.writeCall(rec); err == nil {
		return werr
	}
	return err
}

// logDefer is logCall for a deferred call: it replaces *err.
func (s *Solver) logDefer(kind string, c []float64, rule *lazycg.StopRule, zero []bool, start time.Time, res *lazycg.LinearResult, err *error) {
	*err = s.logCall(kind, c, rule, zero, start, *res, *err)
}

func (s *Solver) writeCall(c Call) error {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("mip: call log: %v", err)
	}
	if _, err := s.opts.CallLog.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("mip: call log: %w", err)
	}
	return nil
}
