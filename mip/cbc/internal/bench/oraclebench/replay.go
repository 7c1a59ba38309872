package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/fileio"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/mip/cbc/internal/bench"
	"github.com/lazycg/lazycg/spec"
)

// replayed is one call of a replay, as -replay-out writes it.
type replayed struct {
	Call      int     `json:"call"`
	Kind      string  `json:"kind"`
	Recorded  string  `json:"recorded"`   // the logged answer's reason ("error" after an error)
	RecordedS float64 `json:"recorded_s"` // its wall-clock time in the logged run
	Reason    string  `json:"reason"`     // this replay's
	CPU       float64 `json:"cpu_s"`
	Wall      float64 `json:"wall_s"`
	Nodes     int64   `json:"nodes"`
	Err       string  `json:"err,omitempty"`
}

// replay asks the calls of one session of a call log (mip.Options.CallLog,
// the calls=FILE option of a polytope spec) again, in order, of the solver
// the polytope spec builds (with the session's relative gap and cap per
// call), and prints per recorded answer the number of calls and the CPU
// seconds they took now; out, if not empty, receives one JSON line per call.
func replay(logPath, polytope string, session int, cap time.Duration, out string) error {
	f, err := fileio.Open(logPath) // gzip or plain
	if err != nil {
		return err
	}
	sessions, err := mip.ReadCallLog(f)
	f.Close()
	if err != nil {
		return err
	}
	if len(sessions) == 0 {
		return fmt.Errorf("%s: no session", logPath)
	}
	if session < 0 {
		session += len(sessions)
	}
	if session < 0 || session >= len(sessions) {
		return fmt.Errorf("%s has %d sessions, no session %d", logPath, len(sessions), session)
	}
	ses := sessions[session]
	in, err := spec.Polytope(polytope, spec.Options{OracleGap: ses.Start.RelGap, OracleTimeLimit: cap, MemoryBudget: -1})
	if err != nil {
		return err
	}
	if in.Close != nil {
		defer in.Close()
	}
	if in.LMO.Dim() != ses.Start.Dim {
		return fmt.Errorf("-polytope %s has dimension %d, the session %d", polytope, in.LMO.Dim(), ses.Start.Dim)
	}
	var w io.Writer
	if out != "" {
		o, err := os.Create(out)
		if err != nil {
			return err
		}
		defer o.Close()
		w = o
	}
	ctx := context.Background()
	dst := make([]float64, ses.Start.Dim)
	zero := make([]bool, ses.Start.Dim)
	type group struct {
		n, same         int
		cpu, recorded   float64
		cpus, recordeds []float64
	}
	groups := map[string]*group{}
	for i, c := range ses.Calls {
		t0, w0 := bench.CPUTime(), time.Now()
		var res lazycg.LinearResult
		var err error
		switch c.Kind {
		case mip.CallMinimize:
			res, err = in.LMO.Minimize(ctx, dst, c.C)
		case mip.CallUntil:
			es, ok := in.LMO.(lazycg.EarlyStopper)
			if !ok {
				return fmt.Errorf("-polytope %s has no early termination", polytope)
			}
			res, err = es.MinimizeUntil(ctx, dst, c.C, lazycg.StopRule{Improve: c.Improve, Certify: c.Certify, Keep: c.Keep, KeepBelow: c.KeepBelow})
		case mip.CallFace:
			fm, ok := in.LMO.(lazycg.FaceMinimizer)
			if !ok {
				return fmt.Errorf("-polytope %s has no face calls", polytope)
			}
			clear(zero)
			for _, j := range c.Zero {
				zero[j] = true
			}
			res, err = fm.MinimizeFace(ctx, dst, c.C, zero)
		case mip.CallRelaxationBound:
			rb, ok := in.LMO.(lazycg.RelaxationBounder)
			if !ok {
				return fmt.Errorf("-polytope %s has no relaxation bounds", polytope)
			}
			res.Bound, err = rb.RelaxationBound(ctx, c.C)
			res.Reason = lazycg.StopCertified
		}
		r := replayed{Call: i, Kind: c.Kind, Recorded: c.Reason, RecordedS: c.Seconds, Reason: res.Reason.String(),
			CPU: (bench.CPUTime() - t0).Seconds(), Wall: time.Since(w0).Seconds(), Nodes: res.Nodes}
		if c.Err != "" {
			r.Recorded = "error"
		}
		if err != nil {
			r.Reason, r.Err = "error", err.Error()
		}
		if w != nil {
			b, _ := json.Marshal(r)
			fmt.Fprintf(w, "%s\n", b)
		}
		key := c.Kind + "/" + r.Recorded
		g := groups[key]
		if g == nil {
			g = &group{}
			groups[key] = g
		}
		g.n++
		if r.Reason == r.Recorded {
			g.same++
		}
		g.cpu += r.CPU
		g.recorded += r.RecordedS
		g.cpus = append(g.cpus, r.CPU)
		g.recordeds = append(g.recordeds, r.RecordedS)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	total := 0.0
	for _, k := range keys {
		g := groups[k]
		total += g.cpu
		if err := emit(map[string]any{"polytope": polytope, "session": session, "calls": k, "n": g.n, "same_answer": g.same,
			"cpu_s": g.cpu, "median_cpu_s": median(g.cpus), "recorded_wall_s": g.recorded, "median_recorded_wall_s": median(g.recordeds)}); err != nil {
			return err
		}
	}
	return emit(map[string]any{"polytope": polytope, "session": session, "calls": "all", "n": len(ses.Calls), "cpu_s": total})
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
