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
// enumeration lacks, is reported as unsupported instead of failing.
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

	out := filepath.Join(dir, "replay.jsonl")
	stdout := os.Stdout
	os.Stdout, _ = os.Open(os.DevNull)
	err = replay(log, "cut:7,oracle=enum", 0, 0, out)
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
	if len(got) != 6 {
		t.Fatalf("%d replayed calls, want 6: %+v", len(got), got)
	}
	kinds := []string{mip.CallMinimize, mip.CallRelaxationBound, mip.CallMinimize, mip.CallUntil, mip.CallMinimize, mip.CallUntil}
	for i, r := range got {
		if r.Kind != kinds[i] {
			t.Errorf("call %d: kind %s, want %s", i, r.Kind, kinds[i])
		}
		switch {
		case r.Kind == mip.CallRelaxationBound:
			if r.Answer != "unsupported" || r.Err != "" {
				t.Errorf("call %d: %+v, want unsupported", i, r)
			}
		case r.Answer != r.RecordedAnswer || r.Err != "":
			t.Errorf("call %d: answer %s, recorded %s (%s)", i, r.Answer, r.RecordedAnswer, r.Err)
		}
	}
	if got[3].Answer != "improving" || got[5].Answer != "certified" {
		t.Errorf("weak separation answers %s and %s, want improving and certified", got[3].Answer, got[5].Answer)
	}
}
