//go:build cgo

package cbc_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
)

// TestCallLog records every kind of call of a solver, reads the log back
// and checks each line against the call's question and answer; refused
// input and forks are not logged, and asking the logged questions again
// gives the logged answers.
func TestCallLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const n = 10
	m := cbcRandomModel(rng, n, 4)
	var log bytes.Buffer
	s := cbcSolver(t, m, mip.Options{CallLog: &log})
	ctx := context.Background()
	dst := make([]float64, n)
	type asked struct {
		kind string
		c    []float64
		rule lazycg.StopRule
		zero []int
		res  lazycg.LinearResult
	}
	var want []asked
	for k := range 8 {
		c := cbcRandomObjective(rng, n)
		a := asked{c: c}
		var err error
		switch k % 4 {
		case 0:
			a.kind = mip.CallMinimize
			a.res, err = s.Minimize(ctx, dst, c)
		case 1:
			a.kind = mip.CallUntil
			a.rule = lazycg.StopRule{Improve: math.Inf(-1), Certify: math.Inf(1)}
			if k == 5 {
				a.rule = lazycg.StopRule{Improve: math.Inf(1), Certify: math.Inf(1), Keep: true, KeepBelow: 3, Dive: true}
			}
			a.res, err = s.MinimizeUntil(ctx, dst, c, a.rule)
		case 2:
			a.kind = mip.CallFace
			zero := make([]bool, n)
			zero[1], zero[7] = true, true
			a.zero = []int{1, 7}
			if k == 6 {
				// All columns but one masked: the call solves a reduced
				// model (mip/face.go) of its own, which must not log.
				for j := range zero {
					zero[j] = j != 4
				}
				a.zero = []int{0, 1, 2, 3, 5, 6, 7, 8, 9}
			}
			a.res, err = s.MinimizeFace(ctx, dst, c, zero)
		case 3:
			a.kind = mip.CallRelaxationBound
			a.res = lazycg.LinearResult{Value: math.Inf(1), Reason: lazycg.StopCertified}
			a.res.Bound, err = s.RelaxationBound(ctx, c)
		}
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, a)
	}
	// Refused input is not a question: not logged.
	bad := make([]float64, n)
	bad[3] = math.NaN()
	if _, err := s.Minimize(ctx, dst, bad); err == nil {
		t.Fatal("NaN cost accepted")
	}
	if _, err := s.MinimizeUntil(ctx, dst, want[0].c, lazycg.StopRule{Improve: math.NaN()}); err == nil {
		t.Fatal("NaN threshold accepted")
	}
	// A fork does not log.
	f, err := s.Fork(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Minimize(ctx, dst, want[0].c); err != nil {
		t.Fatal(err)
	}
	f.(*mip.Solver).Close()

	sessions, err := mip.ReadCallLog(&log)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 1 {
		t.Fatalf("%d sessions, want 1", len(sessions))
	}
	st := sessions[0].Start
	if st.Kind != mip.CallStart || st.Dim != n || st.Model != m.Name || st.Pool != "auto" {
		t.Errorf("start line %+v", st)
	}
	got := sessions[0].Calls
	if len(got) != len(want) {
		t.Fatalf("%d calls logged, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Kind != w.kind || !slices.Equal(g.C, w.c) || !slices.Equal(g.Zero, w.zero) {
			t.Errorf("call %d: logged %s %v face %v, asked %s %v face %v", i, g.Kind, g.C, g.Zero, w.kind, w.c, w.zero)
		}
		if w.kind == mip.CallUntil && (g.Improve != w.rule.Improve || g.Certify != w.rule.Certify || g.Keep != w.rule.Keep || g.KeepBelow != w.rule.KeepBelow || g.Dive != w.rule.Dive) {
			t.Errorf("call %d: logged rule %g %g %v %g %v, asked %+v", i, g.Improve, g.Certify, g.Keep, g.KeepBelow, g.Dive, w.rule)
		}
		if g.Found != w.res.Found || g.Value != w.res.Value || g.Bound != w.res.Bound || g.Reason != w.res.Reason.String() || g.Nodes != w.res.Nodes {
			t.Errorf("call %d: logged answer %v %g %g %s %d, got %+v", i, g.Found, g.Value, g.Bound, g.Reason, g.Nodes, w.res)
		}
		if !(g.Seconds >= 0) || g.Err != "" {
			t.Errorf("call %d: time %g, error %q", i, g.Seconds, g.Err)
		}
	}

	// The questions asked again of a fresh solver: the same optima.
	s2 := cbcSolver(t, m, mip.Options{})
	zero := make([]bool, n)
	for i, g := range got {
		var res lazycg.LinearResult
		switch g.Kind {
		case mip.CallMinimize:
			res, err = s2.Minimize(ctx, dst, g.C)
		case mip.CallUntil:
			res, err = s2.MinimizeUntil(ctx, dst, g.C, lazycg.StopRule{Improve: g.Improve, Certify: g.Certify, Keep: g.Keep, KeepBelow: g.KeepBelow, Dive: g.Dive})
		case mip.CallFace:
			clear(zero)
			for _, j := range g.Zero {
				zero[j] = true
			}
			res, err = s2.MinimizeFace(ctx, dst, g.C, zero)
		case mip.CallRelaxationBound:
			res.Value, res.Found = g.Value, g.Found
			res.Bound, err = s2.RelaxationBound(ctx, g.C)
		}
		if err != nil {
			t.Fatal(err)
		}
		if g.Found && !cbcNear(res.Value, g.Value) || !cbcNear(res.Bound, g.Bound) && !math.IsInf(g.Bound, 0) {
			t.Errorf("call %d asked again: %g (bound %g), logged %g (bound %g)", i, res.Value, res.Bound, g.Value, g.Bound)
		}
	}
}

// failingWriter accepts ok writes, then fails.
type failingWriter struct{ ok int }

func (w *failingWriter) Write(b []byte) (int, error) {
	if w.ok == 0 {
		return 0, errors.New("disk full")
	}
	w.ok--
	return len(b), nil
}

// TestCallLogWriteError checks that a log that cannot be written fails
// the solver's creation, or the call, with the write error.
func TestCallLogWriteError(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	m := cbcRandomModel(rng, 6, 3)
	if s, err := mip.NewSolver(m, mip.Options{CallLog: &failingWriter{}}); err == nil {
		s.Close()
		t.Fatal("a log that cannot be written was accepted")
	} else if !strings.Contains(err.Error(), "disk full") {
		t.Errorf("error %q does not say why", err)
	}
	s := cbcSolver(t, m, mip.Options{CallLog: &failingWriter{ok: 1}})
	dst := make([]float64, 6)
	_, err := s.Minimize(context.Background(), dst, cbcRandomObjective(rng, 6))
	if err == nil || !strings.Contains(err.Error(), "call log") {
		t.Errorf("a call whose line could not be written returned %v", err)
	}
}
