package experiment

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
)

func pt(ms int, it, lmo int, primal float64) lazycg.TracePoint {
	return lazycg.TracePoint{Time: time.Duration(ms) * time.Millisecond, Iteration: it, LMOCalls: lmo, Primal: primal,
		DualBound: math.Inf(-1)}
}

func TestTraceRoundTrip(t *testing.T) {
	tr := Trace{Points: []lazycg.TracePoint{
		{Time: 1234567 * time.Nanosecond, Iteration: 0, LMOCalls: 1, CacheHits: 0, Primal: 1.0 / 3, DualBound: math.Inf(-1)},
		{Time: 2 * time.Second, Iteration: 17, LMOCalls: 5, CacheHits: 12, Primal: 1e-300, DualBound: -7.25e12},
		{Time: 3*time.Second + 1, Iteration: 1 << 40, LMOCalls: 6, CacheHits: 1 << 33, Primal: -0.1, DualBound: -0.1},
	}}
	for _, withOracle := range []bool{false, true} {
		in := tr
		if withOracle {
			in.OracleTime = []time.Duration{0, time.Millisecond, 2*time.Second + 3}
		}
		var buf bytes.Buffer
		if err := WriteTrace(&buf, in); err != nil {
			t.Fatal(err)
		}
		out, err := ReadTrace(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out, in) {
			t.Errorf("round trip (oracle %v):\n got %+v\nwant %+v", withOracle, out, in)
		}
	}
	if err := WriteTrace(&bytes.Buffer{}, Trace{Points: tr.Points, OracleTime: []time.Duration{1}}); err == nil {
		t.Error("WriteTrace accepted mismatched oracle times")
	}
}

func TestReadTraceErrors(t *testing.T) {
	head := "time_s,iteration,lmo_calls,cache_hits,primal,dual_bound\n"
	tests := []struct{ name, in, want string }{
		{"empty", "", "empty file"},
		{"bad header", "time,iteration,lmo_calls,cache_hits,primal,dual_bound\n", "line 1: column 1"},
		{"columns", "a,b\n", "line 1: 2 columns"},
		{"bad time", head + "1,0,0,0,1,1\nx,1,1,1,1,1\n", "line 3: time_s"},
		{"negative time", head + "-1,0,0,0,1,1\n", "line 2: time_s"},
		{"bad count", head + "1,-2,0,0,1,1\n", "line 2: iteration"},
		{"nan primal", head + "1,2,0,0,NaN,1\n", "line 2: primal"},
		{"bad dual", head + "1,2,0,0,1,zz\n", "line 2: dual_bound"},
		{"short row", head + "1,2,0,0,1\n", "wrong number of fields"},
		{"time goes back", head + "1,0,0,0,1,1\n2,1,1,1,1,1\n0.5,2,2,2,1,1\n", "line 4: time_s 0.5 is before"},
		{"iteration goes back", head + "1,5,0,0,1,1\n2,4,1,1,1,1\n", "line 3: iteration 4 is below"},
		{"lmo calls go back", head + "1,0,5,0,1,1\n2,1,3,0,1,1\n", "line 3: lmo_calls 3 is below"},
		{"cache hits go back", head + "1,0,5,4,1,1\n2,1,6,2,1,1\n", "line 3: cache_hits 2 is below"},
		{"oracle time goes back", strings.TrimSuffix(head, "\n") + ",oracle_time_s\n1,0,0,0,1,1,0.5\n2,1,1,1,1,1,0.25\n", "line 3: oracle_time_s 0.25 is before"},
		{"oracle", strings.TrimSuffix(head, "\n") + ",oracle_time_s\n1,2,0,0,1,1,q\n", "line 2: oracle_time_s"},
	}
	for _, tc := range tests {
		_, err := ReadTrace(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func FuzzReadTrace(f *testing.F) {
	f.Add([]byte("time_s,iteration,lmo_calls,cache_hits,primal,dual_bound\n0.5,1,2,3,4,-Inf\n"))
	f.Add([]byte("time_s,iteration,lmo_calls,cache_hits,primal,dual_bound,oracle_time_s\n0.5,1,2,3,4,-Inf,0.1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadTrace(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteTrace(&buf, tr); err != nil {
			t.Fatal(err)
		}
		again, err := ReadTrace(&buf)
		if err != nil || !reflect.DeepEqual(again, tr) {
			t.Fatalf("rewritten trace differs: %v", err)
		}
	})
}

func TestCompare(t *testing.T) {
	base := []lazycg.TracePoint{pt(0, 0, 0, 10), pt(100, 1, 1, 5), pt(400, 2, 2, 3), pt(1000, 2, 2, 3)}
	lazy := []lazycg.TracePoint{pt(0, 0, 1, 10), pt(20, 5, 1, 4), pt(50, 9, 2, 2.5), pt(90, 12, 3, 1)}
	c := Compare("CG", MeasurePrimal, lazy, base)
	if c.Target != 3 || c.BaselineTimeS != 0.4 || c.BaselineIterations != 2 || !c.Reached || c.LazyTimeS != 0.05 ||
		c.LazyIterations != 9 || c.LazyLMOCalls != 2 || c.Speedup == nil || math.Abs(*c.Speedup-8) > 1e-12 || c.Measure != "primal" {
		t.Errorf("Compare = %+v", c)
	}
	slow := []lazycg.TracePoint{pt(0, 0, 1, 10), pt(500, 3, 2, 3.5)}
	if c := Compare("CG", MeasurePrimal, slow, base); c.Reached || c.Speedup != nil {
		t.Errorf("unreached comparison = %+v", c)
	}
	// Rounds: the lazy run played the baseline's 2 rounds at 30 ms.
	rounds := []lazycg.TracePoint{pt(10, 1, 1, 1), pt(30, 2, 1, 9), pt(35, 3, 1, 20)}
	c = Compare("OCG", MeasureRounds, rounds, base)
	if c.Target != 2 || !c.Reached || c.LazyTimeS != 0.03 || c.BaselineTimeS != 0.4 || c.Measure != "rounds" {
		t.Errorf("rounds comparison = %+v", c)
	}
	// Reached at time 0: no speedup.
	zero := []lazycg.TracePoint{pt(0, 0, 0, 1)}
	if c := Compare("CG", MeasurePrimal, zero, base); !c.Reached || c.Speedup != nil {
		t.Errorf("zero-time comparison = %+v", c)
	}
	if Compare("CG", MeasurePrimal, nil, base) != nil || Compare("CG", MeasurePrimal, lazy, nil) != nil {
		t.Error("Compare of an empty trace is not nil")
	}
}

func TestCompareNear(t *testing.T) {
	// Best primal 1 (the lazy run at 90 ms): target 1.001, which the
	// baseline never reaches.
	base := []lazycg.TracePoint{pt(0, 0, 0, 10), pt(100, 1, 1, 5), pt(400, 2, 2, 3), pt(1000, 2, 2, 3)}
	lazy := []lazycg.TracePoint{pt(0, 0, 1, 10), pt(20, 5, 1, 4), pt(50, 9, 2, 2.5), pt(90, 12, 3, 1)}
	c := Compare("CG", MeasurePrimal, lazy, base)
	if math.Abs(c.Near-1.001) > 1e-12 || c.NearLazyTimeS == nil || *c.NearLazyTimeS != 0.09 ||
		c.NearBaselineTimeS != nil || c.NearSpeedup != nil {
		t.Errorf("near comparison = %+v", c)
	}
	if times, speed := fmtNear(c); times != "0.09 s / > limit" || speed != "baseline never" {
		t.Errorf("fmtNear = %q, %q", times, speed)
	}
	// Both within 0.1% of −1000 (−999.5 ≤ −999): the baseline at 0.4 s,
	// the lazy run at 0.05 s.
	base = []lazycg.TracePoint{pt(0, 0, 0, 0), pt(400, 2, 2, -999.5), pt(500, 3, 3, -1000)}
	lazy = []lazycg.TracePoint{pt(0, 0, 0, 0), pt(50, 9, 2, -999.2)}
	c = Compare("CG", MeasurePrimal, lazy, base)
	if c.Near != -999 || c.NearSpeedup == nil || math.Abs(*c.NearSpeedup-8) > 1e-12 {
		t.Errorf("near comparison = %+v", c)
	}
	if times, speed := fmtNear(c); times != "0.05 s / 0.4 s" || speed != "×8" {
		t.Errorf("fmtNear = %q, %q", times, speed)
	}
	// Online comparisons have no second target.
	if c := Compare("OCG", MeasureRounds, lazy, base); c.NearLazyTimeS != nil || c.Near != 0 {
		t.Errorf("rounds comparison has a near target: %+v", c)
	}
}
