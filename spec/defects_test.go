package spec

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/objective"
)

// fillNonzero sets every field reachable from v (pointers allocated) to a
// distinct nonzero value.
func fillNonzero(v reflect.Value, i *int) {
	*i++
	switch v.Kind() {
	case reflect.Struct:
		for j := 0; j < v.NumField(); j++ {
			if v.Type().Field(j).IsExported() {
				fillNonzero(v.Field(j), i)
			}
		}
	case reflect.String:
		v.SetString("s" + strings.Repeat("x", *i))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Float64:
		v.SetFloat(float64(*i) + 0.5)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*i))
	case reflect.Uint64:
		v.SetUint(uint64(*i))
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fillNonzero(p.Elem(), i)
		v.Set(p)
	}
}

// sameFloat reports whether a and b are equal or both NaN.
func sameFloat(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// TestSummaryNonFiniteJSON: a Summary whose Primal or TotalLoss is NaN or
// ±Inf (an objective or losses that overflowed) is written as JSON, and
// read back to the same values; a summary of finite values reads back
// field for field. json.Marshal refused such a summary ("unsupported
// value: +Inf"), which failed a whole bench suite's records.
func TestSummaryNonFiniteJSON(t *testing.T) {
	var full Summary
	i := 0
	fillNonzero(reflect.ValueOf(&full).Elem(), &i)
	b, err := json.Marshal(full)
	if err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, full) {
		t.Errorf("finite summary round trip: %v\n%+v\n%+v", err, back, full)
	}
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		for _, online := range []bool{false, true} {
			s := Summary{Polytope: "simplex:3", Primal: v, DualBound: finite(1)}
			if online {
				s.Primal = 2
				s.OnlineSummary = &OnlineSummary{Losses: "linear", K: 1, TotalLoss: v}
			}
			b, err := json.Marshal(s)
			if err != nil {
				t.Errorf("%v (online %v): %v", v, online, err)
				continue
			}
			var r Summary
			if err := json.Unmarshal(b, &r); err != nil {
				t.Errorf("%v (online %v): reading %s: %v", v, online, b, err)
				continue
			}
			if !sameFloat(r.Primal, s.Primal) || r.Polytope != s.Polytope || r.DualBound == nil || *r.DualBound != 1 ||
				(online && (r.OnlineSummary == nil || !sameFloat(r.TotalLoss, v) || r.Losses != "linear")) ||
				(!online && r.OnlineSummary != nil) {
				t.Errorf("%v (online %v): %s read back as %+v", v, online, b, r)
			}
		}
	}
	// Inside a record, as the bench runner writes them.
	rec := struct {
		Summary *Summary `json:"summary"`
	}{&Summary{Primal: math.Inf(1)}}
	if _, err := json.MarshalIndent(rec, "", "  "); err != nil {
		t.Errorf("record with +Inf primal: %v", err)
	}
}

// TestProductMemoryBudget: a product's factors, and the objective or the
// losses over it, count against one memory budget. Each factor had an
// account of its own (ten factors of 8 MB each passed a 20 MB budget),
// and the product none, so that no objective or loss stream over a
// product was ever refused.
func TestProductMemoryBudget(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{Polytope: "product:[simplex:100000]*10", Objective: "distance", Method: "cg", MemoryBudget: 20e6},
			// Refused after the first copy, the other nine counted ahead.
			`product "product:[simplex:100000]*10" needs about 72 MB of memory (9 more factors like those built; the whole run about 80 MB)`},
		{Config{Polytope: "product:[simplex:100000][l1:100000][simplex:100]", Objective: "distance", Method: "cg", MemoryBudget: 12e6},
			`polytope "l1:100000" needs about 8 MB of memory (dimension 1e+05: 10 vectors of 800 kB; the whole run about 16 MB)`},
		{Config{Polytope: "product:[simplex:500]*2", Objective: "quadratic:density=1", Method: "cg", MemoryBudget: 5e6},
			`objective "quadratic:density=1,seed=1" needs about`},
		{Config{Polytope: "product:[simplex:500]*40", Objective: "consensus:quadratic,density=1", Method: "cg", MemoryBudget: 5e6},
			`objective "quadratic:density=1,seed=1" needs about`},
		{Config{Polytope: "product:[simplex:500]*2", Losses: "quadratic:functions=1000", Method: "locg-pf", MemoryBudget: 5e6},
			`losses "quadratic:functions=1000" needs about`},
	} {
		tc.c.Seed = 1
		p, err := tc.c.Prepare()
		if err == nil {
			p.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "-memory") {
			t.Errorf("%s %s%s within %d bytes: %v, want an error with %q", tc.c.Polytope, tc.c.Objective, tc.c.Losses, tc.c.MemoryBudget, err, tc.want)
		}
	}
	// Within the budget.
	c := Config{Polytope: "product:[simplex:1000]*3", Objective: "consensus:distance", Method: "cg", MemoryBudget: 10e6, Seed: 1}
	p, err := c.Prepare()
	if err != nil {
		t.Fatalf("%s within 10 MB: %v", c.Polytope, err)
	}
	if p.Instance.mem == nil || p.Instance.mem.used < 3*runVectors*8*1000 {
		t.Errorf("%s: account %+v, want the three factors' %d bytes at least", c.Polytope, p.Instance.mem, 3*runVectors*8*1000)
	}
	p.Close()
}

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() float64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc)
}

// TestQuadraticMemoryEstimate: the memory reserved for a quadratic
// objective or quadratic losses bounds what they hold once their gradient
// has been evaluated. The estimate counted A once (16 bytes per nonzero),
// but the first gradient adds a column-major copy of A: the objective
// held twice its estimate and a run could need twice the -memory budget.
func TestQuadraticMemoryEstimate(t *testing.T) {
	const n = 1000
	x, g := make([]float64, n), make([]float64, n)
	x[0] = 1
	for _, obj := range []string{"quadratic:density=1", "quadratic:density=1,scale=1", "quadratic:density=0.1,rows=3000"} {
		if _, est, live := objectiveMemory(t, n, obj); est < live {
			t.Errorf("%s over simplex:%d: estimate %.4g bytes, below the %.4g bytes it holds", obj, n, est, live)
		}
	}
	mem := &memAccount{budget: -1}
	heap := liveHeap()
	st, err := lossStream("quadratic:functions=4,density=1,order=once", n, 1, mem)
	if err != nil {
		t.Fatal(err)
	}
	for i := range st.Rounds() {
		st.Loss(i).Func(x)
		st.Loss(i).Grad(g, x)
	}
	// The cumulative loss's working memory is not used here.
	live, est := liveHeap()-heap, mem.used-objective.SumWorkBytes(n, 4)
	if est < live {
		t.Errorf("4 quadratic losses of dimension %d: estimate %.10g bytes, below the %.10g bytes they hold", n, est, live)
	}
	runtime.KeepAlive(st)
}

// objectiveMemory builds the objective spec obj over simplex:n, evaluates
// it once at a vertex, and returns the memory reserved for the polytope
// and for the objective, and the live heap the objective holds.
func objectiveMemory(t *testing.T, n int, obj string) (base, est, live float64) {
	t.Helper()
	x, g := make([]float64, n), make([]float64, n)
	x[0] = 1
	in, err := Polytope(fmt.Sprintf("simplex:%d", n), Options{MemoryBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	base, heap := in.mem.used, liveHeap()
	f, err := ObjectiveWith(obj, in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Func(x)
	f.Grad(g, x)
	live, est = liveHeap()-heap, in.mem.used-base
	runtime.KeepAlive(f)
	return base, est, live
}

// TestLeastSquaresFilesMemory: the matrix and vector files of a
// leastsquares:A,B objective are reserved before they are read, and the
// reservation bounds what the objective holds. Nothing was reserved: a
// matrix file of any size passed every -memory budget.
func TestLeastSquaresFilesMemory(t *testing.T) {
	dir := t.TempDir()
	const n = 300
	var dense, coord, vec strings.Builder
	fmt.Fprintf(&coord, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", n, n, n*n)
	for i := range n {
		for j := range n {
			if j > 0 {
				dense.WriteString(",")
			}
			fmt.Fprintf(&dense, "%d", (i+j)%7)
			fmt.Fprintf(&coord, "%d %d %d\n", i+1, j+1, 1+(i+j)%7)
		}
		dense.WriteString("\n")
		fmt.Fprintf(&vec, "%d\n", i%3)
	}
	files := map[string]string{"a.csv": dense.String(), "a.mtx": coord.String(), "b.txt": vec.String()}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []string{"a.csv", "a.mtx"} {
		spec := "leastsquares:" + filepath.Join(dir, a) + "," + filepath.Join(dir, "b.txt")
		before, est, live := objectiveMemory(t, n, spec)
		if est < live {
			t.Errorf("%s: estimate %.4g bytes, below the %.4g bytes it holds", a, est, live)
		}
		// A budget the polytope fits and the objective does not.
		c := Config{Polytope: fmt.Sprintf("simplex:%d", n), Objective: spec, Method: "cg", MemoryBudget: int64(before + live/2)}
		p, err := c.Prepare()
		if err == nil {
			p.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "objective \""+spec+"\" needs about") || !strings.Contains(err.Error(), "-memory") {
			t.Errorf("%s within %d bytes: %v, want the objective refused", a, c.MemoryBudget, err)
		}
	}
}

// TestWithOptionsProduct: options set in a product spec go into its
// factors. The product was split at commas like any spec: "threads=2"
// was appended after the last bracket (a spec no reader accepts), and a
// key inside a factor was replaced together with the rest of the text
// ("product:[cut:10,oracle=enum][cut:11]" became "product:[cut:10,oracle=mip").
func TestWithOptionsProduct(t *testing.T) {
	for _, tc := range []struct{ text, opts, want string }{
		{"product:[cut:10][cut:12]", "threads=2", "product:[cut:10,threads=2][cut:12,threads=2]"},
		{"product:[cut:10,oracle=enum][cut:11]", "oracle=mip", "product:[cut:10,oracle=mip][cut:11,oracle=mip]"},
		{"product:[cut:6,p=0.5]*2", "search=light", "product:[cut:6,p=0.5,search=light][cut:6,p=0.5,search=light]"},
		{"product:[cut:6]*2", "", "product:[cut:6]*2"},
	} {
		got, err := WithOptions(tc.text, tc.opts)
		if err != nil || got != tc.want {
			t.Errorf("WithOptions(%q, %q) = %q, %v; want %q", tc.text, tc.opts, got, err, tc.want)
		}
	}
	if got, err := WithOptions("product:[cut:6][cut:7]", "seed=2"); err == nil || got != "" || !strings.Contains(err.Error(), "seed may change") {
		t.Errorf("a key that changes the polytope: %v", err)
	}
	if _, err := WithOptions("product:[cut:6", "threads=2"); err == nil || !strings.Contains(err.Error(), "unbalanced") {
		t.Errorf("a bad product: %v", err)
	}
	// The result builds: the options reach the factors' solvers.
	got, err := WithOptions("product:[cut:5,oracle=enum][cut:5,oracle=enum]", "triangles=0")
	if err != nil {
		t.Fatal(err)
	}
	in, err := Polytope(got, Options{})
	if err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	in.Close()
}
