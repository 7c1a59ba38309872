package experiment

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/spec"
	"gonum.org/v1/plot"
)

func TestChooseY(t *testing.T) {
	pos := []series{{trace: Trace{Points: []lazycg.TracePoint{pt(0, 0, 0, 1000), pt(1, 1, 1, 2)}}}}
	tests := []struct {
		name     string
		ss       []series
		dual     float64
		online   bool
		offset   float64
		log      bool
		contains string
	}{
		{"positive dual", pos, 1.5, false, 1.5, true, "f(x) − L"},
		{"no dual, decades", pos, math.Inf(-1), false, 0, true, "f(x)"},
		{"negative dual", pos, -4, false, 0, true, "f(x)"},
		{"online", pos, math.Inf(-1), true, 0, true, "average loss"},
		{"mixed signs", []series{{trace: Trace{Points: []lazycg.TracePoint{pt(0, 0, 0, -3), pt(1, 1, 1, 5)}}}},
			math.Inf(-1), false, 0, false, "f(x)"},
		{"narrow", []series{{trace: Trace{Points: []lazycg.TracePoint{pt(0, 0, 0, 5), pt(1, 1, 1, 4)}}}},
			math.Inf(-1), false, 0, false, "f(x)"},
	}
	for _, tc := range tests {
		y := chooseY(tc.ss, tc.dual, tc.online)
		if y.offset != tc.offset || y.log != tc.log || !strings.Contains(y.label, tc.contains) {
			t.Errorf("%s: chooseY = %+v", tc.name, y)
		}
	}
}

// TestFigureNonPositiveLogValues draws figures whose log axes would see
// values ≤ 0 and infinite gaps: they must be left out with a note, not
// crash the plotting library.
func TestFigureNonPositiveLogValues(t *testing.T) {
	dir := t.TempDir()
	inf := math.Inf(-1)
	p := func(ms, it, lmo int, primal, dual float64) lazycg.TracePoint {
		return lazycg.TracePoint{Time: time.Duration(ms) * time.Millisecond, Iteration: it, LMOCalls: lmo, Primal: primal, DualBound: dual}
	}
	// The best dual bound is 2, and the lazy run reaches f = 2 exactly
	// (f − L = 0), the baseline has no dual bound at first (gap +Inf).
	base := Trace{Points: []lazycg.TracePoint{p(0, 0, 0, 50, inf), p(10, 1, 1, 9, inf), p(30, 2, 2, 4, 1), p(60, 3, 3, 3, 1.5)}}
	lazy := Trace{Points: []lazycg.TracePoint{p(0, 0, 1, 50, inf), p(5, 3, 1, 6, 0), p(9, 9, 2, 2, 2)}}
	one := Trace{Points: []lazycg.TracePoint{p(3, 0, 0, 7, inf)}}
	for name, tr := range map[string]Trace{"base.csv": base, "lazy.csv": lazy, "one.csv": one} {
		if err := WriteTraceFile(filepath.Join(dir, name), tr); err != nil {
			t.Fatal(err)
		}
	}
	dual := 2.0
	weak := 1.5
	e := NewExperiment("nonpos", "p", "o", time.Second, Variant{Method: "cg-ls"}, Variant{Method: "lcg"}, Variant{Method: "lcg", Label: "one"})
	e.DualRow = true
	er := &ExperimentResult{Spec: e, Dim: 3, Runs: []RunResult{
		{Label: "cg-ls", Trace: "base.csv", Summary: &spec.Summary{Primal: 3, DualBound: &weak}},
		{Label: "lcg", Lazy: true, Trace: "lazy.csv", Summary: &spec.Summary{Primal: 2, DualBound: &dual, CacheHitRate: 0.5}},
		{Label: "one", Lazy: true, Trace: "one.csv", Summary: &spec.Summary{Primal: 7}},
	}}
	var ss []series
	for _, r := range er.Runs {
		tr, err := ReadTraceFile(filepath.Join(dir, r.Trace))
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, series{label: r.Label, trace: tr})
	}
	fd, err := buildFigure(er, ss)
	if err != nil {
		t.Fatal(err)
	}
	if len(fd.rows) != 4 {
		t.Errorf("%d rows, want 4 (f vs time, iterations, LMO calls, gap vs time)", len(fd.rows))
	}
	caption := strings.Join(fd.caption, "\n")
	for _, w := range []string{"cache hit rate: lcg 50%, one 0%", "L = 2,", "f(x) − L ≤ 0 not shown (log axis)",
		"4 points without a proven dual bound not shown"} {
		if !strings.Contains(caption, w) {
			t.Errorf("caption lacks %q:\n%s", w, caption)
		}
	}
	if err := DrawFigure(dir, er); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, FigurePNG))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 4*200 {
		t.Errorf("figure is %v", b)
	}
	svg, err := os.ReadFile(filepath.Join(dir, FigureSVG))
	if err != nil || !strings.Contains(string(svg), "<svg") {
		t.Errorf("bad SVG (%v)", err)
	}

	// Every point ≤ 0 on a log axis: the row says "no data".
	zeros := Trace{Points: []lazycg.TracePoint{p(0, 0, 0, 2, 2), p(1, 1, 1, 2, 2)}}
	if err := WriteTraceFile(filepath.Join(dir, "zeros.csv"), zeros); err != nil {
		t.Fatal(err)
	}
	er2 := &ExperimentResult{Spec: e, Runs: []RunResult{{Label: "cg-ls", Trace: "zeros.csv", Summary: &spec.Summary{Primal: 2, DualBound: &dual}}}}
	if err := DrawFigure(dir, er2); err != nil {
		t.Fatal(err)
	}
	if err := DrawFigure(dir, &ExperimentResult{Spec: e}); err == nil {
		t.Error("DrawFigure without traces succeeded")
	}
}

func TestTraceFileNames(t *testing.T) {
	used := map[string]bool{}
	got := []string{traceFileName("LCG K=1.5", used), traceFileName("lcg k=1.5", used), traceFileName("///", used),
		traceFileName("summary", used)}
	want := []string{"lcg-k-1.5.csv", "lcg-k-1.5-2.csv", "run.csv", "summary.csv"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("traceFileName %d = %q, want %q", i, got[i], want[i])
		}
	}
	// The calls and point files beside a trace do not collide with
	// another label's trace, and long labels give short names.
	used = map[string]bool{}
	if a, b := traceFileName("x.calls", used), traceFileName("x", used); a != "x.calls.csv" || b != "x-2.csv" {
		t.Errorf("traceFileName(x.calls), (x) = %q, %q", a, b)
	}
	if a, b := traceFileName("y", used), traceFileName("y.calls", used); a != "y.csv" || b != "y.calls-2.csv" {
		t.Errorf("traceFileName(y), (y.calls) = %q, %q", a, b)
	}
	long := strings.Repeat("a", 300)
	if a, b := traceFileName(long, used), traceFileName(long+"b", used); len(a) > 110 || a == b {
		t.Errorf("traceFileName of long labels: %q, %q", a, b)
	}
	if w := wrap(strings.Repeat("word ", 40), 30); len(w) < 5 {
		t.Errorf("wrap = %q", w)
	}
	if pct(95.72) != "95.72%" || pct(50) != "50%" || pct(99.9999) != "100%" {
		t.Errorf("pct: %s %s %s", pct(95.72), pct(50), pct(99.9999))
	}
}

// TestFigureHugeValues draws figures from traces whose values come near
// ±math.MaxFloat64 (damaged files; ReadTrace accepts any finite value): on
// a linear axis the range would overflow, on which gonum/plot's tick
// labelling never ends, and on a log axis the padding of a single value
// would reach +Inf, which gonum/plot turns into 0 and refuses with a
// panic. Such points are left out with a note.
func TestFigureHugeValues(t *testing.T) {
	c := makeCurve(3, func(i int) (float64, float64) { return float64(i), []float64{-1.7e308, 1.7e308, 1}[i] }, false, false)
	if len(c.pts) != 1 {
		t.Fatalf("linear curve kept %d points of ±1.7e308 and 1, want 1", len(c.pts))
	}
	var a plot.Axis
	setRange(&a, 1.7e308, 1.7e308, true)
	if !(a.Min > 0 && a.Min < a.Max && a.Max <= math.MaxFloat64) {
		t.Fatalf("log range of a single value 1.7e308: [%g, %g]", a.Min, a.Max)
	}
	setRange(&a, 5e-324, 5e-324, true)
	if !(a.Min > 0 && a.Min < a.Max) {
		t.Fatalf("log range of a single value 5e-324: [%g, %g]", a.Min, a.Max)
	}
	dir := t.TempDir()
	head := "time_s,iteration,lmo_calls,cache_hits,primal,dual_bound\n"
	files := map[string]string{
		"wide.csv": head + "0,0,0,0,-1.7e308,-Inf\n1,1,1,0,1.7e308,-1.7e308\n2,2,2,0,1,0\n",
		"flat.csv": head + "0,0,0,0,1e308,-7e307\n1,1,1,0,1e308,-7e307\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, runs := range [][]RunResult{{{Label: "wide", Trace: "wide.csv"}}, {{Label: "flat", Trace: "flat.csv"}}} {
		er := &ExperimentResult{Spec: Experiment{Name: "e", DualRow: true}, Runs: runs}
		if err := DrawFigure(dir, er); err != nil {
			t.Fatalf("%s: %v", runs[0].Label, err)
		}
		fd, err := buildFigure(er, []series{{label: runs[0].Label, trace: mustReadTrace(t, filepath.Join(dir, runs[0].Trace))}})
		if err != nil {
			t.Fatal(err)
		}
		if runs[0].Label == "wide" && !strings.Contains(strings.Join(fd.caption, "\n"), "beyond ±1e+300 not shown") {
			t.Errorf("no note on the points left out: %q", fd.caption)
		}
	}
}

func mustReadTrace(t *testing.T, path string) Trace {
	t.Helper()
	tr, err := ReadTraceFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
