package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
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
	// Answers, the same way for every oracle: "improving" (a vertex below
	// Improve), "certified" (a bound at least Certify), else the reason;
	// "unsupported" when the replaying oracle lacks the call's method.
	RecordedAnswer string  `json:"recorded_answer"`
	Answer         string  `json:"answer"`
	CPU            float64 `json:"cpu_s"`
	Wall           float64 `json:"wall_s"`
	Nodes          int64   `json:"nodes"`
	// Dive says that the call (a weak separation call) was asked to dive
	// for an improving vertex first.
	Dive bool   `json:"dive,omitempty"`
	Err  string `json:"err,omitempty"`
}

// replay asks the calls of one session of a call log (mip.Options.CallLog,
// the calls=FILE option of a polytope spec) again, in order, of the solver
// the polytope spec builds (with the session's relative gap and cap per
// call), and prints per recorded answer the number of calls and the CPU
// seconds they took now; out, if not empty, receives one JSON line per call.
// With parallel > 1 the calls go to that many solvers side by side (call i
// to solver i mod parallel); order "dive" makes every weak separation call
// ask its solver to dive for an improving vertex first
// (lazycg.StopRule.Dive), "best-first" makes every one search best-first
// for its bound, and "" keeps each call's logged search.
// The polytope may be any spec of the same dimension (e.g. cut:28,oracle=enum
// for a log of cut:28): a weak separation call goes to Minimize when its
// oracle cannot stop early, and calls of methods it lacks (face or
// relaxation bound) are reported as unsupported.
func replay(logPath, polytope string, session int, cap time.Duration, out string, parallel int, order string) error {
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
	if parallel < 1 {
		return fmt.Errorf("-parallel %d: want at least 1", parallel)
	}
	ses := sessions[session]
	// One solver per lane, each built from the spec (as a fork would be).
	lmos := make([]lazycg.LMO, parallel)
	for i := range lmos {
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
		lmos[i] = in.LMO
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
	// Lane i asks the calls i, i+N, i+2N, … in order, on its own solver
	// and OS thread (CPU time is the thread's), the lanes side by side.
	results := make([]replayed, len(ses.Calls))
	var wg sync.WaitGroup
	start := time.Now()
	for lane := range lmos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			dst := make([]float64, ses.Start.Dim)
			zero := make([]bool, ses.Start.Dim)
			for i := lane; i < len(ses.Calls); i += parallel {
				c := ses.Calls[i]
				if order != "" && c.Kind == mip.CallUntil {
					c.Dive = order == "dive"
				}
				results[i] = ask(lmos[lane], c, i, dst, zero)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	type group struct {
		n, same         int
		cpu, recorded   float64
		wall            float64
		cpus, recordeds []float64
		walls           []float64
	}
	groups := map[string]*group{}
	for i, c := range ses.Calls {
		r := results[i]
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
		if r.Answer == r.RecordedAnswer {
			g.same++
		}
		g.cpu += r.CPU
		g.wall += r.Wall
		g.recorded += r.RecordedS
		g.cpus = append(g.cpus, r.CPU)
		g.walls = append(g.walls, r.Wall)
		g.recordeds = append(g.recordeds, r.RecordedS)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	total, wall := 0.0, 0.0
	for _, k := range keys {
		g := groups[k]
		total += g.cpu
		wall += g.wall
		if err := emit(map[string]any{"polytope": polytope, "session": session, "parallel": parallel, "calls": k, "n": g.n, "same_answer": g.same,
			"cpu_s": g.cpu, "median_cpu_s": median(g.cpus), "wall_s": g.wall, "median_wall_s": median(g.walls),
			"recorded_wall_s": g.recorded, "median_recorded_wall_s": median(g.recordeds)}); err != nil {
			return err
		}
	}
	return emit(map[string]any{"polytope": polytope, "session": session, "parallel": parallel, "calls": "all", "n": len(ses.Calls),
		"cpu_s": total, "wall_s": wall, "elapsed_s": elapsed})
}

// ask asks call c (number i of its session) of lmo and returns what
// happened, timed in the calling thread's CPU time and in wall-clock time.
func ask(lmo lazycg.LMO, c mip.Call, i int, dst []float64, zero []bool) replayed {
	ctx := context.Background()
	t0, w0 := bench.ThreadCPUTime(), time.Now()
	var res lazycg.LinearResult
	var err error
	unsupported := false
	switch c.Kind {
	case mip.CallMinimize:
		res, err = lmo.Minimize(ctx, dst, c.C)
	case mip.CallUntil:
		if es, ok := lmo.(lazycg.EarlyStopper); ok {
			res, err = es.MinimizeUntil(ctx, dst, c.C, lazycg.StopRule{Improve: c.Improve, Certify: c.Certify, Keep: c.Keep, KeepBelow: c.KeepBelow, Dive: c.Dive})
		} else {
			// An oracle without early termination answers exactly.
			res, err = lmo.Minimize(ctx, dst, c.C)
		}
	case mip.CallFace:
		fm, ok := lmo.(lazycg.FaceMinimizer)
		if !ok {
			unsupported = true
			break
		}
		clear(zero)
		for _, j := range c.Zero {
			zero[j] = true
		}
		res, err = fm.MinimizeFace(ctx, dst, c.C, zero)
	case mip.CallRelaxationBound:
		rb, ok := lmo.(lazycg.RelaxationBounder)
		if !ok {
			unsupported = true
			break
		}
		res.Bound, err = rb.RelaxationBound(ctx, c.C)
		res.Reason = lazycg.StopCertified
	}
	r := replayed{Call: i, Kind: c.Kind, Recorded: c.Reason, RecordedS: c.Seconds, Reason: res.Reason.String(),
		CPU: (bench.ThreadCPUTime() - t0).Seconds(), Wall: time.Since(w0).Seconds(), Nodes: res.Nodes, Dive: c.Kind == mip.CallUntil && c.Dive,
		RecordedAnswer: answerOf(c, c.Found, c.Value, c.Bound, c.Reason),
		Answer:         answerOf(c, res.Found, res.Value, res.Bound, res.Reason.String())}
	if c.Err != "" {
		r.Recorded, r.RecordedAnswer = "error", "error"
	}
	switch {
	case err != nil:
		r.Reason, r.Answer, r.Err = "error", "error", err.Error()
	case unsupported:
		r.Reason, r.Answer = "unsupported", "unsupported"
	}
	return r
}

// answerOf classifies an answer to call c the same way for every oracle:
// for weak separation calls "improving" (a vertex below Improve) or
// "certified" (a bound of at least Certify), else the stop reason — so
// that an exact answer counts as the decision it implies.
func answerOf(c mip.Call, found bool, value, bound float64, reason string) string {
	if c.Kind == mip.CallUntil {
		switch {
		case found && value < c.Improve:
			return "improving"
		case bound >= c.Certify:
			return "certified"
		}
	}
	return reason
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
