package mip

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestCallRoundTrip writes calls with infinite thresholds and bounds and
// reads them back unchanged.
func TestCallRoundTrip(t *testing.T) {
	calls := []Call{
		{Kind: CallStart, Dim: 3, Model: "m", RelGap: 0.1, Pool: "auto"},
		{Kind: CallUntil, C: []float64{1, -2.5, 0}, Improve: math.Inf(1), Certify: math.Inf(1), Found: true, Value: -2.5, Bound: math.Inf(-1), Reason: "improving", Nodes: 3, Seconds: 0.25},
		{Kind: CallUntil, C: []float64{0, 0, 1e-300}, Improve: -1, Certify: math.Inf(-1), Keep: true, KeepBelow: 2, Dive: true, Value: math.Inf(1), Bound: math.Inf(-1), Reason: "certified"},
		{Kind: CallFace, C: []float64{1, 2, 3}, Zero: []int{0, 2}, Found: true, Value: 2, Bound: 2, Reason: "optimal"},
		{Kind: CallMinimize, C: []float64{1, 2, 3}, Value: math.Inf(1), Bound: math.Inf(-1), Err: "mip: context canceled"},
		{Kind: CallRelaxationBound, C: []float64{1, 2, 3}, Value: math.Inf(1), Bound: 0.5, Reason: "certified"},
	}
	got, err := ReadCallLog(writeCalls(t, calls))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !reflect.DeepEqual(got[0].Start, calls[0]) || !reflect.DeepEqual(got[0].Calls, calls[1:]) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, calls)
	}
}

// TestReadCallLogErrors checks that malformed logs are refused with the
// line of the fault.
func TestReadCallLogErrors(t *testing.T) {
	start := `{"kind":"start","dim":2}` + "\n"
	for _, tc := range []struct{ log, want string }{
		{`{"kind":"until","c":[1,2]}`, "line 1: a call before the first start line"},
		{start + `{"kind":"until","c":[1]}`, "line 2: until call has 1 costs, the session's dimension is 2"},
		{start + "\n" + `{"kind":"minimize","c":[1,"NaN"]}`, "line 3: cost 1 is NaN"},
		{start + `{"kind":"minimize","c":[1,"Inf"]}`, "line 2: cost 1 is +Inf"},
		{start + `{"kind":"until","c":[1,2],"improve":"NaN"}`, "line 2: NaN threshold"},
		{start + `{"kind":"face","c":[1,2],"zero":[2]}`, "line 2: face index 2 out of range"},
		{start + `{"kind":"minimize","c":[1,2],"seconds":-1}`, "line 2: time -1"},
		{start + `{"kind":"augment","c":[1,2]}`, `line 2: unknown kind "augment"`},
		{start + `{"kind":"minimize","c":[1,"x"]}`, "line 2: not a number"},
		{start + `{"kind":"minimize",`, "line 2:"},
		{`{"kind":"start","dim":0}`, "line 1: start line with dimension 0"},
		{`{"kind":"start","dim":2,"rel_gap":-1}`, "line 1: start line with relative gap -1"},
	} {
		_, err := ReadCallLog(strings.NewReader(tc.log))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "mip: call log ") {
			t.Errorf("%q: error %v, want %q", tc.log, err, tc.want)
		}
	}
	// Sessions split at start lines.
	got, err := ReadCallLog(strings.NewReader(start + `{"kind":"minimize","c":[1,2]}` + "\n" + `{"kind":"start","dim":1}` + "\n" + `{"kind":"minimize","c":[3]}`))
	if err != nil || len(got) != 2 || len(got[0].Calls) != 1 || len(got[1].Calls) != 1 || got[1].Calls[0].C[0] != 3 {
		t.Errorf("two sessions: %+v, %v", got, err)
	}
}

// FuzzReadCallLog checks that no input panics ReadCallLog, and that every
// log it accepts survives a round trip.
func FuzzReadCallLog(f *testing.F) {
	f.Add(`{"kind":"start","dim":2}` + "\n" + `{"kind":"until","c":[1,-2],"improve":"Inf","certify":"-Inf","value":"Inf","bound":"-Inf"}`)
	f.Add(`{"kind":"start","dim":1,"rel_gap":0.1}` + "\n" + `{"kind":"face","c":[0],"zero":[0],"found":true,"value":0,"bound":0,"reason":"optimal"}`)
	f.Add(`{"kind":"minimize","c":[]}`)
	f.Fuzz(func(t *testing.T, log string) {
		got, err := ReadCallLog(strings.NewReader(log))
		if err != nil {
			return
		}
		var all []Call
		for _, s := range got {
			all = append(append(all, s.Start), s.Calls...)
		}
		again, err := ReadCallLog(writeCalls(t, all))
		if err != nil {
			t.Fatalf("an accepted log, written again, is refused: %v", err)
		}
		if len(again) != len(got) {
			t.Fatalf("%d sessions, then %d", len(got), len(again))
		}
	})
}

// writeCalls writes calls as a call log, one JSON line each.
func writeCalls(t *testing.T, calls []Call) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	for _, c := range calls {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return &buf
}
