package main

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/mip"
	"github.com/lazycg/lazycg/spec"
)

// TestReplayOnOtherOracle logs the calls of CBC on cut:7 and replays them
// on the enumeration oracle of the same polytope: every weak separation
// call gets the same kind of answer, and the relaxation bound, which the
// enumeration lacks, is reported as unsupported instead of failing. Then
// on two CBC solvers side by side (-parallel 2): the same answers, each
// call reported once under its own number.
func TestReplayOnOtherOracle(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "calls.jsonl")
	in, err := spec.Polytope("cut:7,calls="+log, spec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := in.LMO.Dim()
	c, x := make([]float64, m), make([]float64, m)
	for i := range c {
		c[i] = math.Sin(float64(3*i + 1))
	}
	ctx := context.Background()
	opt, err := in.LMO.Minimize(ctx, x, c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.LMO.(lazycg.RelaxationBounder).RelaxationBound(ctx, c); err != nil {
		t.Fatal(err)
	}
	es := in.LMO.(lazycg.EarlyStopper)
	for _, rule := range []lazycg.StopRule{
		{Improve: opt.Value + 1, Certify: opt.Value - 1},     // improving
		{Improve: opt.Value - 0.5, Certify: opt.Value - 0.5}, // certified
	} {
		for i := range c {
			c[i] = -c[i] // another question each time: no last-vertex shortcut
		}
		o, err := in.LMO.Minimize(ctx, x, c)
		if err != nil {
			t.Fatal(err)
		}
		rule.Improve += o.Value - opt.Value
		rule.Certify += o.Value - opt.Value
		if _, err := es.MinimizeUntil(ctx, x, c, rule); err != nil {
			t.Fatal(err)
		}
	}
	in.Close()

	kinds := []string{mip.CallMinimize, mip.CallRelaxationBound, mip.CallMinimize, mip.CallUntil, mip.CallMinimize, mip.CallUntil}
	for _, tc := range []struct {
		polytope string
		parallel int
		order    string
	}{
		{"cut:7,oracle=enum", 1, ""}, // the enumeration lacks the relaxation bound
		{"cut:7", 2, ""},             // two CBC solvers side by side
		{"cut:7", 1, "dive"},         // every weak separation call dives
		{"cut:7", 1, "best-first"},   // none does
	} {
		got := replayTo(t, log, tc.polytope, tc.parallel, tc.order)
		for i, r := range got {
			// The log's calls did not dive (StopRule zero); -dive and
			// -best-first override that for the weak separation calls.
			if want := tc.order == "dive" && r.Kind == mip.CallUntil; r.Dive != want {
				t.Errorf("%s, order %q: call %d (%s) dive %v, want %v", tc.polytope, tc.order, i, r.Kind, r.Dive, want)
			}
		}
		if len(got) != 6 {
			t.Fatalf("%s: %d replayed calls, want 6: %+v", tc.polytope, len(got), got)
		}
		for i, r := range got {
			if r.Kind != kinds[i] || r.Call != i {
				t.Errorf("%s: call %d: number %d, kind %s, want %s", tc.polytope, i, r.Call, r.Kind, kinds[i])
			}
			switch {
			case r.Kind == mip.CallRelaxationBound && tc.polytope == "cut:7,oracle=enum":
				if r.Answer != "unsupported" || r.Err != "" {
					t.Errorf("%s: call %d: %+v, want unsupported", tc.polytope, i, r)
				}
			case i == 3 && tc.parallel > 1 && r.Answer == "certified" && r.Err == "":
				// Both answers are right for call 3's rule (the optimum
				// is improving, its value certifiable). On its own lane
				// the solver lacks call 2's optimum as its start, and the
				// LP bound certifies first.
			case r.Answer != r.RecordedAnswer || r.Err != "":
				t.Errorf("%s: call %d: answer %s, recorded %s (%s)", tc.polytope, i, r.Answer, r.RecordedAnswer, r.Err)
			}
			if r.Wall <= 0 || r.CPU < 0 {
				t.Errorf("%s: call %d: wall %g s, CPU %g s", tc.polytope, i, r.Wall, r.CPU)
			}
		}
		if (got[3].Answer != "improving" && tc.parallel == 1) || got[5].Answer != "certified" {
			t.Errorf("%s: weak separation answers %s and %s, want improving and certified", tc.polytope, got[3].Answer, got[5].Answer)
		}
	}
	if err := replay(log, "cut:7", 0, 0, "", 0, ""); err == nil {
		t.Error("-parallel 0: no error")
	}
}

// replayTo replays the log's first session on the solvers of polytope,
// parallel of them side by side, searching as order says (see replay), and
// returns the calls it wrote.
func replayTo(t *testing.T, log, polytope string, parallel int, order string) []replayed {
	t.Helper()
	out := filepath.Join(t.TempDir(), "replay.jsonl")
	stdout := os.Stdout
	os.Stdout, _ = os.Open(os.DevNull)
	err := replay(log, polytope, 0, 0, out, parallel, order)
	os.Stdout = stdout
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []replayed
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r replayed
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	return got
}
