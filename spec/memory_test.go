package spec

import (
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/objective"
)

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"4096", 4096}, {"1e9", 1e9}, {"8GiB", 8 << 30}, {"8gib", 8 << 30}, {"512MB", 512e6}, {"512M", 512e6},
		{"1.5G", 1.5e9}, {"2 KiB", 2048}, {"10b", 10}, {"-1", -1}, {"0", 0}, {"1T", 1e12}} {
		got, err := ParseBytes(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "lots", "-2", "NaN", "Inf", "1XB", "GiB", "-1GiB", "1e30", "0x10"} {
		if b, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) = %d, want an error", bad, b)
		}
	}
}

// FuzzParseBytes checks that ParseBytes never panics and that what it
// accepts is −1 or a size in [0, 2⁶⁰].
func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"8GiB", "1e9", "-1", "512 mb", "1.5T", "x", "", "1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBytes(s)
		if err == nil && b != -1 && (b < 0 || b > 1<<60) {
			t.Fatalf("ParseBytes(%q) = %d", s, b)
		}
	})
}

// TestMemoryBudgetRefusesBeforeAllocating checks that specs above the
// budget fail at once with the estimate and the budget, and that the
// same specs are accepted with a larger budget (small ones) or none.
func TestMemoryBudgetRefusesBeforeAllocating(t *testing.T) {
	for _, tc := range []struct {
		polytope, objective string
		budget              int64
		want                string
	}{
		{"nuclear:65536,65536", "distance", 16 << 30, `polytope "nuclear:65536,65536" needs about 344 GB`},
		{"simplex:1000000", "distance", 10e6, "more than the memory budget of 10 MB (-memory)"},
		{"birkhoff:4096", "distance", 100e6, `polytope "birkhoff:4096" needs about`},
		{"spanningtree:4096", "distance", 100e6, `polytope "spanningtree:4096" needs about`},
		{"dag:40,1000", "distance", 100e6, `polytope "dag:40,1000" needs about`},
		{"tsp:200", "distance", 10e6, `polytope "tsp:200" needs about`},
		{"cut:300", "distance", 10e6, `polytope "cut:300" needs about`},
		{"simplex:10000", "quadratic:density=1", 1e9, `objective "quadratic:density=1,seed=1" needs about 3.2 GB`},
		{"nuclear:3000,3000", "completion:rank=100", 1e9, "the whole run about"},
	} {
		c := Config{Polytope: tc.polytope, Objective: tc.objective, Method: "cg", MemoryBudget: tc.budget, Seed: 1}
		_, err := c.Prepare()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "-memory") {
			t.Errorf("%s %s with budget %d: error %v, want %q", tc.polytope, tc.objective, tc.budget, err, tc.want)
		}
	}
	// The fork policy loads a MIP model twice: a budget that one copy fits
	// and two do not is refused, naming the reason.
	one := Config{Polytope: "cut:60", Objective: "distance", Method: "lcg", Seed: 1, Concurrent: true}
	two := one
	two.Stale = "fork"
	need := func(c Config) float64 {
		c.MemoryBudget = 1
		_, err := c.Prepare()
		var n float64
		if err == nil || !strings.Contains(err.Error(), "needs about") {
			t.Fatalf("%+v: %v", c, err)
		}
		var unit string
		fmt.Sscanf(err.Error()[strings.Index(err.Error(), "needs about ")+len("needs about "):], "%g %s", &n, &unit)
		scale := map[string]float64{"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}[unit]
		if scale == 0 {
			t.Fatalf("unit %q in %v", unit, err)
		}
		return n * scale
	}
	if n1, n2 := need(one), need(two); !(n2 > 1.5*n1) {
		t.Errorf("cut:60 needs about %g without the fork policy and %g with it, want nearly twice", n1, n2)
	}
	for _, policy := range []string{"fork", "race", "race-copy", "ahead"} {
		two.Stale, two.MemoryBudget = policy, 1
		if _, err := two.Prepare(); err == nil || !strings.Contains(err.Error(), "loaded 2 times (-stale fork, race, race-copy or ahead)") {
			t.Errorf("%s policy over budget: %v", policy, err)
		}
	}
	c := Config{Polytope: "simplex:1000", Objective: "distance", Method: "cg", MemoryBudget: 10e6}
	p, err := c.Prepare()
	if err != nil {
		t.Fatalf("simplex:1000 within 10 MB: %v", err)
	}
	p.Close()
}

func TestDefaultMemoryBudget(t *testing.T) {
	t.Setenv(MemoryEnvVar, "3GiB")
	b, src, err := DefaultMemoryBudget()
	if err != nil || b != 3<<30 || src != "$"+MemoryEnvVar {
		t.Errorf("with $%s=3GiB: %d, %q, %v", MemoryEnvVar, b, src, err)
	}
	t.Setenv(MemoryEnvVar, "plenty")
	if _, _, err := DefaultMemoryBudget(); err == nil || !strings.Contains(err.Error(), MemoryEnvVar) {
		t.Errorf("bad $%s: %v", MemoryEnvVar, err)
	}
	t.Setenv(MemoryEnvVar, "")
	b, src, err = DefaultMemoryBudget()
	if err != nil || b <= 0 || src == "" {
		t.Errorf("default: %d, %q, %v", b, src, err)
	}
}

// TestTextSize checks the size estimate of files: plain files by their
// size, gzip files by the size their trailer records.
func TestTextSize(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("a 1 2 0 10 5\n", 10000)
	plain := filepath.Join(dir, "f.min")
	if err := os.WriteFile(plain, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	zipped := filepath.Join(dir, "f.min.gz")
	f, err := os.Create(zipped)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write([]byte(text))
	zw.Close()
	f.Close()
	for _, p := range []string{plain, zipped} {
		if got, err := textSize(p); err != nil || got != float64(len(text)) {
			t.Errorf("textSize(%s) = %g, %v; want %d", filepath.Base(p), got, err, len(text))
		}
	}
	if _, err := textSize(dir); err == nil {
		t.Error("textSize of a directory succeeded")
	}
}

// TestCutTriangles checks the cut:N option triangles: off by default; with
// triangles=1 the model, and its memory estimate, grows by 4 rows per
// triangle (with triangles=cuts the estimate counts the same inequalities,
// kept in the cut pool); other values are refused.
func TestCutTriangles(t *testing.T) {
	need := func(polytope string) float64 {
		t.Helper()
		c := Config{Polytope: polytope, Objective: "distance", Method: "lcg", Seed: 1, MemoryBudget: 1}
		_, err := c.Prepare()
		if err == nil || !strings.Contains(err.Error(), "needs about") {
			t.Fatalf("%s: %v", polytope, err)
		}
		msg := err.Error()
		i := strings.Index(msg, "with ")
		var rows float64
		fmt.Sscanf(msg[i+len("with "):], "%g rows", &rows)
		return rows
	}
	for _, tc := range []struct {
		spec string
		rows float64
	}{
		{"cut:20", 4 * 190},
		{"cut:20,triangles=1", 4*190 + 4*1140},
		{"cut:20,triangles=0", 4 * 190},
		{"cut:20,triangles=cuts", 4*190 + 4*1140},
		{"cut:120,triangles=1", 4*7140 + 4*280840},
	} {
		if got := need(tc.spec); math.Abs(got-tc.rows) > 1e-3*tc.rows { // the message has 4 digits
			t.Errorf("%s: a model of %g rows, want %g", tc.spec, got, tc.rows)
		}
	}
	c := Config{Polytope: "cut:10,triangles=2", Objective: "distance", Method: "lcg", Seed: 1}
	if _, err := c.Prepare(); err == nil || !strings.Contains(err.Error(), "triangles") {
		t.Errorf("triangles=2: %v", err)
	}
}

// TestLossStreamMemory checks that quadratic loss streams reserve their
// pool and the cumulative loss's working memory (objective.SumWorkBytes),
// and that a budget that holds the pool but not the working memory is
// refused naming it.
func TestLossStreamMemory(t *testing.T) {
	const n, m = 500, 100
	density := DefaultDensity(n)
	nnz := float64(n) * float64(n) * density
	pool := float64(m) * leastSquaresBytes(float64(n), float64(n), nnz)
	work := objective.SumWorkBytes(n, m)
	if !(work > 8*float64(n)*float64(n)) {
		t.Fatalf("SumWorkBytes(%d, %d) = %g: below the Gram matrix alone", n, m, work)
	}
	mem, err := newMemAccount(-1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lossStream("quadratic", n, 1, mem); err != nil {
		t.Fatal(err)
	}
	if mem.used != pool+work {
		t.Errorf("quadratic losses reserved %g bytes, want %g (pool) + %g (working memory)", mem.used, pool, work)
	}
	tight, err := newMemAccount(int64(pool + work/2))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lossStream("quadratic", n, 1, tight); err == nil || !strings.Contains(err.Error(), "cumulative loss's working memory") {
		t.Errorf("budget between the pool and pool + working memory: %v", err)
	}
	lin, err := newMemAccount(-1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lossStream("linear", n, 1, lin); err != nil || lin.used != float64(m)*8*float64(n+1) {
		t.Errorf("linear losses reserved %g bytes (%v), want only the pool", lin.used, err)
	}
}
