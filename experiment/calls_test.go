package experiment

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
)

func TestWriteCalls(t *testing.T) {
	calls := []lazycg.CallRecord{
		{Instance: 0, Role: lazycg.CallQuestion, Start: 1500 * time.Millisecond, End: 2 * time.Second, F: 3.25, Phi: 1, T: 0.5,
			Outcome: lazycg.CallNegative, Gap: 0.75},
		{Instance: 1, Role: lazycg.CallAhead, Start: 1600 * time.Millisecond, End: 4 * time.Second, F: 3.25, Phi: 0.5, T: 0.25,
			Outcome: lazycg.CallRetired, Stale: true, Gap: math.Inf(1)},
	}
	var b bytes.Buffer
	if err := WriteCalls(&b, calls); err != nil {
		t.Fatal(err)
	}
	want := "instance,role,start_s,end_s,f,phi,t,outcome,stale,gap\n" +
		"0,question,1.5,2,3.25,1,0.5,negative,false,0.75\n" +
		"1,ahead,1.6,4,3.25,0.5,0.25,retired,true,+Inf\n"
	if b.String() != want {
		t.Errorf("WriteCalls wrote\n%s\nwant\n%s", b.String(), want)
	}
}

// TestRunnerWritesCalls: a concurrent run's LMO calls are written beside
// its trace, one row per call, and named in its run result; a sequential
// run has no calls file.
func TestRunnerWritesCalls(t *testing.T) {
	s, err := ParseSuite("calls.json", []byte(`{"name": "calls", "experiments": [
	  {"name": "b6", "polytope": "birkhoff:6", "objective": "quadratic:seed=3", "max_iterations": 200,
	   "methods": [{"method": "lcg", "label": "LCG"}, {"method": "lcg", "label": "LCG concurrent", "concurrent": true}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Out: t.TempDir(), NoFigures: true}
	res, err := r.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	runs := res.Experiments[0].Runs
	if len(runs) != 2 || runs[0].Calls != "" || runs[1].Calls != "lcg-concurrent"+CallsSuffix {
		t.Fatalf("runs: %+v", runs)
	}
	rows := testutil.ReadCSV(t, filepath.Join(r.Out, "b6", runs[1].Calls))
	if len(rows) < 2 || len(rows)-1 > runs[1].Summary.LMOCalls {
		t.Fatalf("%d rows for %d LMO calls", len(rows), runs[1].Summary.LMOCalls)
	}
	for i, row := range rows[1:] {
		start, err1 := strconv.ParseFloat(row[2], 64)
		end, err2 := strconv.ParseFloat(row[3], 64)
		if row[0] != "0" || row[1] != "question" || err1 != nil || err2 != nil || end < start || end > runs[1].Summary.TimeS {
			t.Errorf("row %d: %v", i+1, row)
		}
	}
}
