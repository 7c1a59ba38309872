package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/online"
)

// TestPointFileRoundTrip writes sparse and dense points and reads them
// back exactly, and refuses to write a point with a NaN.
func TestPointFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []SavedPoint{
		{Label: "LOCG-pf", Fingerprint: "ab12", Rounds: 7, X: []float64{0, 1, 0, 0, 1}},
		{Label: "OCG", Fingerprint: "ab12", Rounds: 3, X: []float64{0.1, 1.0 / 3, math.Nextafter(1, 2), -2.5e-300}},
		{Label: "zero", Rounds: 0, X: []float64{0, 0}},
	} {
		path := filepath.Join(dir, p.Label+PointSuffix)
		if err := WritePointFile(path, p); err != nil {
			t.Fatal(err)
		}
		got, err := ReadPointFile(path)
		if err != nil || !reflect.DeepEqual(got, p) {
			t.Errorf("%s: read %+v, %v; want %+v", p.Label, got, err, p)
		}
	}
	if err := WritePointFile(filepath.Join(dir, "nan.json"), SavedPoint{X: []float64{0, math.NaN()}}); err == nil {
		t.Error("a point with a NaN coordinate was written")
	}
	if _, err := ReadPointFile(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

// TestParsePointErrors checks that damaged point files are refused with a
// reason.
func TestParsePointErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", ``, "not a saved point"},
		{"not JSON", `dim 3`, "not a saved point"},
		{"unknown field", `{"dim": 2, "index": [], "value": [], "extra": 1}`, "unknown field"},
		{"trailing data", `{"dim": 2, "index": [], "value": []} {}`, "data after"},
		{"trailing bracket", `{"dim": 2, "index": [], "value": []}]`, "data after"},
		{"trailing brace", `{"dim": 2, "index": [], "value": []} }`, "data after"},
		{"no dimension", `{"index": [], "value": []}`, "dimension 0"},
		{"huge dimension", `{"dim": 1e12, "index": [], "value": []}`, "not a saved point"},
		{"dimension too large", `{"dim": 1000000000, "index": [], "value": []}`, "out of range"},
		{"negative rounds", `{"dim": 2, "rounds": -1, "index": [], "value": []}`, "negative round"},
		{"lengths differ", `{"dim": 2, "index": [0, 1], "value": [1]}`, "2 indices but 1 values"},
		{"index out of range", `{"dim": 2, "index": [2], "value": [1]}`, "out of range"},
		{"negative index", `{"dim": 2, "index": [-1], "value": [1]}`, "out of range"},
		{"repeated index", `{"dim": 3, "index": [1, 1], "value": [1, 2]}`, "not increasing"},
		{"value overflow", `{"dim": 2, "index": [0], "value": [1e400]}`, "not a saved point"},
	} {
		_, err := parsePoint([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func FuzzParsePoint(f *testing.F) {
	f.Add([]byte(`{"label": "a", "fingerprint": "f", "rounds": 3, "dim": 4, "index": [0, 3], "value": [0.5, 0.5]}`))
	f.Add([]byte(`{"dim": 1, "index": [], "value": []}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parsePoint(data)
		if err != nil {
			return
		}
		if len(p.X) == 0 || len(p.X) > maxPointDim || p.Rounds < 0 {
			t.Fatalf("accepted point of dimension %d, rounds %d", len(p.X), p.Rounds)
		}
		for _, v := range p.X {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("accepted coordinate %g", v)
			}
		}
		path := filepath.Join(t.TempDir(), "p.json")
		if err := WritePointFile(path, p); err != nil {
			t.Fatal(err)
		}
		again, err := ReadPointFile(path)
		if err != nil || !reflect.DeepEqual(again, p) {
			t.Fatalf("rewritten point differs: %v", err)
		}
	})
}

// TestSavedPointsBound evaluates saved points on a hindsight problem: the
// least loss wins and names its run, points of other inputs are skipped,
// and a damaged or misfitting file is an error that leaves the other
// points' bound in place.
func TestSavedPointsBound(t *testing.T) {
	const n = 5
	prob := simplexStream(t, n, 100)
	dir := t.TempDir()
	// Candidates: the vertices and the center. The best goes to a run of
	// another stream (to be skipped), the others to runs of this one.
	cands := [][]float64{{0.2, 0.2, 0.2, 0.2, 0.2}}
	for i := 0; i < n; i++ {
		x := make([]float64, n)
		x[i] = 1
		cands = append(cands, x)
	}
	loss := make([]float64, len(cands))
	best := 0
	for i, x := range cands {
		var err error
		if loss[i], err = online.LossAt(prob, 50, x); err != nil {
			t.Fatal(err)
		}
		if loss[i] < loss[best] {
			best = i
		}
	}
	er := &ExperimentResult{}
	add := func(label, fp string, x []float64) {
		name := label + PointSuffix
		if err := WritePointFile(filepath.Join(dir, name), SavedPoint{Label: label, Fingerprint: fp, Rounds: 50, X: x}); err != nil {
			t.Fatal(err)
		}
		er.Runs = append(er.Runs, RunResult{Label: label, Fingerprint: fp, LastPoint: name})
	}
	er.Runs = append(er.Runs, RunResult{Label: "nopoint", Fingerprint: "fp"})
	add("other", "fp2", cands[best])
	want, wantLabel := math.Inf(1), ""
	for i, x := range cands {
		if i == best {
			continue
		}
		label := fmt.Sprintf("run%d", i)
		add(label, "fp", x)
		if loss[i] < want {
			want, wantLabel = loss[i], label
		}
	}
	rr := &er.Runs[0]
	row := &HindsightRow{Rounds: 50}
	got, err := savedPointsBound(er, rr, dir, prob, row, math.Inf(-1))
	if err != nil {
		t.Fatal(err)
	}
	if got != want || row.Point != wantLabel || !(loss[best] < want) {
		t.Errorf("bound %g from %q, want %g from %q (the other stream's point: %g)", got, row.Point, want, wantLabel, loss[best])
	}

	// A damaged file, a file of the wrong dimension and one whose
	// fingerprint is not its run's: errors, the good points still count.
	if err := os.WriteFile(filepath.Join(dir, "bad"+PointSuffix), []byte(`{"dim": 5, "index": [7], "value": [1]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	er.Runs = append(er.Runs, RunResult{Label: "bad", Fingerprint: "fp", LastPoint: "bad" + PointSuffix})
	add("short", "fp", []float64{1, 0})
	// Outside the simplex (the entries sum to 2.5), with a valid checksum:
	// the polytope's membership check refuses it whatever its loss.
	add("outside", "fp", []float64{0.5, 0.5, 0.5, 0.5, 0.5})
	b, _ := json.Marshal(pointJSON{Label: "swapped", Fingerprint: "fp2", Dim: n, Index: []int{0}, Value: []float64{1}})
	if err := os.WriteFile(filepath.Join(dir, "swapped"+PointSuffix), b, 0o644); err != nil {
		t.Fatal(err)
	}
	er.Runs = append(er.Runs, RunResult{Label: "swapped", Fingerprint: "fp", LastPoint: "swapped" + PointSuffix})
	row = &HindsightRow{Rounds: 50}
	got2, err := savedPointsBound(er, rr, dir, prob, row, math.Inf(-1))
	if err == nil || !strings.Contains(err.Error(), "bad"+PointSuffix) || !strings.Contains(err.Error(), "short"+PointSuffix) ||
		!strings.Contains(err.Error(), "not its run's") ||
		!strings.Contains(err.Error(), "outside"+PointSuffix+": not a point of the polytope") {
		t.Errorf("damaged files: error %v", err)
	}
	if got2 != got {
		t.Errorf("bound with damaged files %g, want %g", got2, got)
	}
	if _, err := savedPointsBound(&ExperimentResult{}, rr, dir, prob, &HindsightRow{Rounds: 50}, math.Inf(-1)); err != nil {
		t.Errorf("no points: %v", err)
	}

	// A proven lower bound on the losses over P above the best point's
	// loss: that point cannot lie in P; it is refused by name and the next
	// best bounds.
	row = &HindsightRow{Rounds: 50}
	got3, err := savedPointsBound(er, rr, dir, prob, row, want+1e-6)
	if err == nil || !strings.Contains(err.Error(), wantLabel+PointSuffix) || !strings.Contains(err.Error(), "not a point of the polytope") {
		t.Errorf("point below the floor: error %v", err)
	}
	if !(got3 > want) || row.Point == wantLabel {
		t.Errorf("point below the floor still bounds: %g from %q", got3, row.Point)
	}
}

// TestPointChecksum: a point file records a checksum of its coordinates;
// an edited value is refused, and a file without a checksum (written
// before it existed) is read unchecked.
func TestPointChecksum(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	if err := WritePointFile(path, SavedPoint{Label: "a", Fingerprint: "f", Rounds: 3, X: []float64{0, 0.25, 0.75}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pj pointJSON
	if err := json.Unmarshal(b, &pj); err != nil || pj.Sum == "" {
		t.Fatalf("written file %s: sum %q, %v", b, pj.Sum, err)
	}
	for _, tc := range []struct {
		name string
		edit func(*pointJSON)
		want string // "" for accepted
	}{
		{"unchanged", func(*pointJSON) {}, ""},
		{"value edited", func(p *pointJSON) { p.Value[0] = 5 }, "do not match the checksum"},
		{"index edited", func(p *pointJSON) { p.Index[0] = 0 }, "do not match the checksum"},
		{"dimension edited", func(p *pointJSON) { p.Dim = 4 }, "do not match the checksum"},
		{"no checksum", func(p *pointJSON) { p.Sum = "" }, ""},
	} {
		q := pj
		q.Index = append([]int(nil), pj.Index...)
		q.Value = append([]float64(nil), pj.Value...)
		tc.edit(&q)
		data, _ := json.Marshal(q)
		_, err := parsePoint(data)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestBenchSavesLastPoints runs a small online suite and checks that every
// online run's last point is saved, is a point of the Birkhoff polytope,
// and bounds the re-solved brackets' lower ends.
func TestBenchSavesLastPoints(t *testing.T) {
	dir, res := runSuiteJSON(t, `{"name": "online", "experiments": [
	  {"name": "online-p", "polytope": "birkhoff:4", "losses": "quadratic:rounds=40", "time_limit": "1m",
	   "methods": ["ocg", "locg-pf"]}]}`)
	er := &res.Experiments[0]
	var points []SavedPoint
	for _, rr := range er.Runs {
		if rr.LastPoint == "" {
			t.Fatalf("%s: no last point saved", rr.Label)
		}
		sp, err := ReadPointFile(filepath.Join(dir, er.Spec.Name, rr.LastPoint))
		if err != nil {
			t.Fatal(err)
		}
		if sp.Label != rr.Label || sp.Fingerprint != rr.Fingerprint || sp.Rounds != 40 || len(sp.X) != 16 {
			t.Fatalf("%s: saved point %+v", rr.Label, sp)
		}
		for i := 0; i < 4; i++ { // doubly stochastic
			var row, col float64
			for j := 0; j < 4; j++ {
				if sp.X[4*i+j] < -1e-12 || sp.X[4*j+i] < -1e-12 {
					t.Fatalf("%s: negative entry", rr.Label)
				}
				row += sp.X[4*i+j]
				col += sp.X[4*j+i]
			}
			if math.Abs(row-1) > 1e-9 || math.Abs(col-1) > 1e-9 {
				t.Fatalf("%s: row/column %d sums %g, %g", rr.Label, i, row, col)
			}
		}
		points = append(points, sp)
	}
	// A solve stopped at once: the players' last points beat its primal
	// value, and the lower end is at least every point's, the best one's
	// exactly.
	rows, err := Rehindsight(context.Background(), dir, HindsightOptions{TimeLimit: 1})
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %+v, %v", rows, err)
	}
	cfg := er.Spec.RunConfig(&er.Spec.Variants[0])
	cfg.NoHindsight = true
	p, err := cfg.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, row := range rows {
		if row.Err != nil {
			t.Fatalf("%s: %v", row.Label, row.Err)
		}
		for _, sp := range points {
			v, err := online.LossAt(p.Online, row.Rounds, sp.X)
			if err != nil {
				t.Fatal(err)
			}
			if lo := (row.TotalLoss - v) / float64(row.Rounds); row.Lower < lo-1e-9*(1+math.Abs(lo)) {
				t.Errorf("%s: lower end %g below %s's point's %g", row.Label, row.Lower, sp.Label, lo)
			}
		}
		var from *SavedPoint
		for k := range points {
			if points[k].Label == row.Point {
				from = &points[k]
			}
		}
		if from == nil {
			t.Fatalf("%s: lower end from %q, want a saved point's (the solve had no time)", row.Label, row.Point)
		}
		v, _ := online.LossAt(p.Online, row.Rounds, from.X)
		if lo := (row.TotalLoss - v) / float64(row.Rounds); row.Lower != lo {
			t.Errorf("%s: lower end %g, want %g from %s's point", row.Label, row.Lower, lo, row.Point)
		}
	}
}

// TestParsePointDamagedDimAllocates: a point file whose dimension was
// damaged (checksum mismatch) is refused before its point is allocated: a
// file of 80 bytes made ReadPointFile allocate 2 GiB.
func TestParsePointDamagedDimAllocates(t *testing.T) {
	b := []byte(fmt.Sprintf(`{"dim": %d, "index": [], "value": [], "sum": "0123456789abcdef"}`, maxPointDim))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := parsePoint(b)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("damaged dimension: %v, want a checksum error", err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Errorf("refusing the file allocated %d bytes", d)
	}
}
