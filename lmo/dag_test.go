package lmo_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/testutil"
	"github.com/lazycg/lazycg/lmo"
)

// graphRandDAG returns a random DAG on n nodes: arcs go from lower to higher
// rank in a random ranking of the nodes, parallel arcs possible. Source and
// sink are the nodes of lowest and highest rank; it retries until the sink
// is reachable.
func graphRandDAG(rng *rand.Rand, n, m int) (arcs [][2]int, source, sink int) {
	for {
		rank := rng.Perm(n)
		arcs = arcs[:0]
		for range m {
			i, j := rng.IntN(n), rng.IntN(n)
			if i == j {
				continue
			}
			if i > j {
				i, j = j, i
			}
			arcs = append(arcs, [2]int{rank[i], rank[j]})
		}
		source, sink = rank[0], rank[n-1]
		if _, err := lmo.NewDAG(n, arcs, source, sink); err == nil {
			return arcs, source, sink
		}
	}
}

// graphPaths enumerates the indicator vectors of all source–sink paths.
func graphPaths(nodes int, arcs [][2]int, source, sink int) [][]float64 {
	var out [][]float64
	cur := make([]float64, len(arcs))
	var rec func(u int)
	rec = func(u int) {
		if u == sink {
			out = append(out, slices.Clone(cur))
			return
		}
		for i, a := range arcs {
			if a[0] == u {
				cur[i] = 1
				rec(a[1])
				cur[i] = 0
			}
		}
	}
	rec(source)
	return out
}

// graphDot is c·x in index order.
func graphDot(c, x []float64) float64 {
	s := 0.0
	for i := range c {
		s += c[i] * x[i]
	}
	return s
}

// graphIsPath reports whether x equals one of the paths.
func graphIsPath(x []float64, paths [][]float64) bool {
	for _, p := range paths {
		if slices.Equal(p, x) {
			return true
		}
	}
	return false
}

// graphCosts returns small integer costs (with ties and negatives) or
// Gaussian ones.
func graphCosts(rng *rand.Rand, m int, integer bool) []float64 {
	c := make([]float64, m)
	for i := range c {
		if integer {
			c[i] = float64(rng.IntN(11) - 4)
		} else {
			c[i] = rng.NormFloat64()
		}
	}
	return c
}

func graphClose(a, b float64, integer bool) bool {
	if integer {
		return a == b
	}
	return math.Abs(a-b) <= 1e-9*(1+math.Abs(b))
}

func TestPathPolytopeBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	ctx := context.Background()
	for trial := range 200 {
		n := 2 + rng.IntN(8)
		arcs, s, tk := graphRandDAG(rng, n, 1+rng.IntN(3*n))
		d, err := lmo.NewDAG(n, arcs, s, tk)
		if err != nil {
			t.Fatal(err)
		}
		paths := graphPaths(n, arcs, s, tk)
		dst := make([]float64, d.Dim())
		d.Vertex(dst)
		if !graphIsPath(dst, paths) || d.Check(dst, 0) != nil {
			t.Fatalf("trial %d: Vertex %v is not a path", trial, dst)
		}
		longest := 0
		for _, p := range paths {
			longest = max(longest, int(graphDot(p, p)))
		}
		if d.MaxPathArcs() != longest || d.L1Diameter() != 2*longest {
			t.Fatalf("trial %d: MaxPathArcs %d, L1Diameter %d, longest path %d", trial, d.MaxPathArcs(), d.L1Diameter(), longest)
		}
		for k := range 4 {
			integer := k%2 == 0
			c := graphCosts(rng, d.Dim(), integer)
			res, err := d.Minimize(ctx, dst, c)
			if err != nil {
				t.Fatal(err)
			}
			want := math.Inf(1)
			for _, p := range paths {
				want = min(want, graphDot(c, p))
			}
			if !res.Optimal() || res.Value != graphDot(c, dst) || !graphIsPath(dst, paths) || !graphClose(res.Value, want, integer) {
				t.Fatalf("trial %d: %+v dst %v, brute force %v", trial, res, dst, want)
			}
			// Faces: random exclusions, nonempty or not.
			zero := make([]bool, d.Dim())
			for i := range zero {
				zero[i] = rng.IntN(4) == 0
			}
			want = math.Inf(1)
			for _, p := range paths {
				ok := true
				for i, z := range zero {
					ok = ok && !(z && p[i] != 0)
				}
				if ok {
					want = min(want, graphDot(c, p))
				}
			}
			res, err = d.MinimizeFace(ctx, dst, c, zero)
			if math.IsInf(want, 1) {
				if err == nil || !strings.Contains(err.Error(), "face is empty") {
					t.Fatalf("trial %d: empty face gave %v", trial, err)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if !graphIsPath(dst, paths) || !graphClose(res.Value, want, integer) || res.Value != graphDot(c, dst) {
				t.Fatalf("trial %d: face %+v, brute force %v", trial, res, want)
			}
			for i, z := range zero {
				if z && dst[i] != 0 {
					t.Fatalf("trial %d: excluded arc %d used", trial, i)
				}
			}
		}
	}
}

// TestPathPolytopeAugment checks that Augment returns false exactly when
// the LMO value equals c·x, and otherwise a path y with c·y < c·x that
// differs from x in one subpath; repeated augmentation reaches the optimum.
func TestPathPolytopeAugment(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	ctx := context.Background()
	improved, optimal := 0, 0
	for trial := range 300 {
		n := 2 + rng.IntN(9)
		arcs, s, tk := graphRandDAG(rng, n, 1+rng.IntN(4*n))
		d, err := lmo.NewDAG(n, arcs, s, tk)
		if err != nil {
			t.Fatal(err)
		}
		paths := graphPaths(n, arcs, s, tk)
		x := slices.Clone(paths[rng.IntN(len(paths))])
		y := make([]float64, d.Dim())
		integer := trial%3 != 0
		c := graphCosts(rng, d.Dim(), integer)
		opt, err := d.Minimize(ctx, y, c)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; ; step++ {
			ok, err := d.Augment(ctx, y, c, x)
			if err != nil {
				t.Fatal(err)
			}
			cx, cy := graphDot(c, x), graphDot(c, y)
			if !ok {
				if !slices.Equal(x, y) || !graphClose(cx, opt.Value, integer) {
					t.Fatalf("trial %d: false at c·x = %v, optimum %v", trial, cx, opt.Value)
				}
				if step == 0 {
					optimal++
				}
				break
			}
			improved++
			if !(cy < cx) || !graphIsPath(y, paths) {
				t.Fatalf("trial %d: bad augmentation %v (c·y %v, c·x %v)", trial, y, cy, cx)
			}
			if integer && cx == opt.Value {
				t.Fatalf("trial %d: augmented an optimal path", trial)
			}
			copy(x, y)
			if step > len(paths) {
				t.Fatalf("trial %d: augmentation does not terminate", trial)
			}
		}
	}
	if improved < 100 || optimal < 30 {
		t.Errorf("test mix: %d improvements, %d optimal starts", improved, optimal)
	}
}

// TestPathPolytopeAugmentLocal checks on a ladder that Augment replaces
// only the first improvable subpath and keeps the rest of x.
func TestPathPolytopeAugmentLocal(t *testing.T) {
	// Two parallel routes 0→1→2→3 (arcs 0,1,2) and shortcuts 0→2 (3), 1→3 (4).
	arcs := [][2]int{{0, 1}, {1, 2}, {2, 3}, {0, 2}, {1, 3}}
	d, err := lmo.NewDAG(4, arcs, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{1, 1, 1, 0, 0}
	y := make([]float64, 5)
	// 0→2 is cheaper than 0→1→2; 1→3 would be even cheaper than 1→2→3 but
	// the first improvable node in topological order is 2.
	c := []float64{1, 1, 1, 1.5, -10}
	ok, err := d.Augment(context.Background(), y, c, x)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if want := []float64{0, 0, 1, 1, 0}; !slices.Equal(y, want) {
		t.Errorf("augmented to %v, want %v", y, want)
	}
}

func TestPathPolytopeAugmentErrors(t *testing.T) {
	arcs := [][2]int{{0, 1}, {1, 2}, {0, 2}, {2, 3}}
	d, err := lmo.NewDAG(4, arcs, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	y := make([]float64, 4)
	c := []float64{1, 1, 1, 1}
	for name, x := range map[string][]float64{
		"fractional":  {0.5, 0.5, 0.5, 0},
		"not a path":  {1, 0, 0, 0},
		"two routes":  {1, 1, 1, 0},
		"extra arc":   {0, 0, 1, 1},
		"wrong size":  {1, 1, 0},
		"not started": {0, 1, 0, 0},
	} {
		if _, err := d.Augment(ctx, y, c, x); err == nil || !strings.HasPrefix(err.Error(), "lmo: path: ") {
			t.Errorf("%s: error %v", name, err)
		}
	}
	if _, err := d.Augment(ctx, y, []float64{1, math.Inf(1), 1, 1}, []float64{0, 0, 1, 0}); err == nil {
		t.Error("Inf cost accepted")
	}
}

func TestNewDAGErrors(t *testing.T) {
	cases := []struct {
		name         string
		nodes        int
		arcs         [][2]int
		source, sink int
		want         string
	}{
		{"cycle", 4, [][2]int{{0, 1}, {1, 2}, {2, 1}, {2, 3}}, 0, 3, "not acyclic: node 1 lies on a directed cycle"},
		{"cycle far", 5, [][2]int{{0, 4}, {1, 2}, {2, 3}, {3, 1}}, 0, 4, "lies on a directed cycle"},
		{"loop", 3, [][2]int{{0, 1}, {1, 1}, {1, 2}}, 0, 2, "loop at node 1"},
		{"unreachable", 3, [][2]int{{0, 1}, {2, 1}}, 0, 2, "sink 2 is unreachable from source 0"},
		{"range", 3, [][2]int{{0, 3}}, 0, 2, "outside [0, 3)"},
		{"negative", 3, [][2]int{{-1, 2}}, 0, 2, "outside"},
		{"source is sink", 3, [][2]int{{0, 1}}, 1, 1, "both node 1"},
		{"source range", 3, [][2]int{{0, 1}}, 0, 3, "sink 3 outside"},
		{"nodes", 1, nil, 0, 0, "number of nodes"},
	}
	for _, tc := range cases {
		_, err := lmo.NewDAG(tc.nodes, tc.arcs, tc.source, tc.sink)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "lmo: path: ") {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	// The cycle node reported really lies on the cycle.
	_, err := lmo.NewDAG(6, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 2}, {4, 5}}, 0, 5)
	if err == nil || !(strings.Contains(err.Error(), "node 2 ") || strings.Contains(err.Error(), "node 3 ") || strings.Contains(err.Error(), "node 4 ")) {
		t.Errorf("cycle 2→3→4→2: %v", err)
	}
}

func TestPathPolytopeCheck(t *testing.T) {
	d, err := lmo.NewDAG(4, [][2]int{{0, 1}, {1, 3}, {0, 2}, {2, 3}}, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		x    []float64
		want string
	}{
		{[]float64{1, 1, 0, 0}, ""},
		{[]float64{0.25, 0.25, 0.75, 0.75}, ""},
		{[]float64{1, 1, 1, 1}, "node 0 has net outflow 2"},
		{[]float64{1, 0, 0, 0}, "node 1"},
		{[]float64{1.5, 1.5, -0.5, -0.5}, "entry 0"},
		{[]float64{0, 0, 0, 0}, "node 0"},
		{[]float64{1, 1, 0}, "length 3"},
	} {
		err := d.Check(tc.x, 1e-12)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v: error %v, want %q", tc.x, err, tc.want)
		}
	}
}

func TestLayeredDAG(t *testing.T) {
	// Complete layers: known sizes and arc order.
	d, err := lmo.LayeredDAG(3, 2, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int{
		{0, 1}, {0, 2},
		{1, 3}, {1, 4}, {2, 3}, {2, 4},
		{3, 5}, {3, 6}, {4, 5}, {4, 6},
		{5, 7}, {6, 7},
	}
	if got := d.Arcs(); !slices.Equal(got, want) || d.Nodes() != 8 || d.Source() != 0 || d.Sink() != 7 {
		t.Fatalf("LayeredDAG(3, 2, 1): arcs %v nodes %d", got, d.Nodes())
	}
	if d.MaxPathArcs() != 4 || d.L1Diameter() != 8 {
		t.Errorf("MaxPathArcs %d, L1Diameter %d", d.MaxPathArcs(), d.L1Diameter())
	}
	// Sparse layers: deterministic per seed, different across seeds, and
	// every box on a source–sink path (an in-arc and an out-arc).
	for _, p := range []float64{0, 0.05, 0.3} {
		a, err1 := lmo.LayeredDAG(6, 5, p, 1)
		b, err2 := lmo.LayeredDAG(6, 5, p, 1)
		c, err3 := lmo.LayeredDAG(6, 5, p, 2)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatal(err1, err2, err3)
		}
		if !slices.Equal(a.Arcs(), b.Arcs()) {
			t.Errorf("p=%v: same seed, different graphs", p)
		}
		if slices.Equal(a.Arcs(), c.Arcs()) {
			t.Errorf("p=%v: seeds 1 and 2 give the same graph", p)
		}
		in, out := make([]int, a.Nodes()), make([]int, a.Nodes())
		prev := [2]int{-1, -1}
		for _, arc := range a.Arcs() {
			out[arc[0]]++
			in[arc[1]]++
			if arc[0] < prev[0] || (arc[0] == prev[0] && arc[1] <= prev[1]) {
				t.Errorf("p=%v: arcs not in lexicographic order at %v", p, arc)
			}
			if arc[0] != 0 && arc[1] != a.Sink() && (arc[1]-1)/5 != (arc[0]-1)/5+1 {
				t.Errorf("p=%v: arc %v skips a frame", p, arc)
			}
			prev = arc
		}
		for v := 1; v < a.Sink(); v++ {
			if in[v] == 0 || out[v] == 0 {
				t.Errorf("p=%v: box node %d has %d in-arcs and %d out-arcs", p, v, in[v], out[v])
			}
		}
		if p == 0.3 && (len(a.Arcs()) <= 10+5*5 || len(a.Arcs()) >= 10+5*25) {
			t.Errorf("p=0.3: %d arcs, implausible for 5 layers of 25 pairs", len(a.Arcs()))
		}
	}
	if d, err := lmo.LayeredDAG(1, 3, 0.5, 0); err != nil || d.Dim() != 6 || d.MaxPathArcs() != 2 {
		t.Errorf("single frame: %v", err)
	}
	for _, bad := range []struct {
		frames, boxes int
		p             float64
	}{{0, 3, 1}, {3, 0, 1}, {3, 3, -0.1}, {3, 3, 1.5}, {3, 3, math.NaN()}, {1 << 20, 1 << 10, 1}} {
		if _, err := lmo.LayeredDAG(bad.frames, bad.boxes, bad.p, 1); err == nil {
			t.Errorf("LayeredDAG(%d, %d, %v) accepted", bad.frames, bad.boxes, bad.p)
		}
	}
}

func TestPathPolytopeInputErrors(t *testing.T) {
	d, err := lmo.LayeredDAG(3, 3, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m := d.Dim()
	dst := make([]float64, m)
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		c := make([]float64, m)
		c[m-1] = bad
		if _, err := d.Minimize(ctx, dst, c); err == nil {
			t.Errorf("cost %v accepted", bad)
		}
		if _, err := d.MinimizeFace(ctx, dst, c, make([]bool, m)); err == nil {
			t.Errorf("face: cost %v accepted", bad)
		}
	}
	if _, err := d.Minimize(ctx, dst, make([]float64, m+1)); err == nil {
		t.Error("long cost accepted")
	}
	if _, err := d.Minimize(ctx, dst[:1], make([]float64, m)); err == nil {
		t.Error("short destination accepted")
	}
	if _, err := d.MinimizeFace(ctx, dst, make([]float64, m), make([]bool, 2)); err == nil {
		t.Error("short mask accepted")
	}
}

func TestPathPolytopeAllocs(t *testing.T) {
	d, err := lmo.LayeredDAG(20, 6, 0.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(45, 46))
	m := d.Dim()
	c := graphCosts(rng, m, false)
	x, y := make([]float64, m), make([]float64, m)
	d.Vertex(x)
	zero := make([]bool, m)
	for i := range zero {
		zero[i] = x[i] == 0 && i%3 == 0
	}
	var o lazycg.LMO = d
	for name, f := range map[string]func() error{
		"Minimize":     func() error { _, err := o.Minimize(ctx, y, c); return err },
		"MinimizeFace": func() error { _, err := d.MinimizeFace(ctx, y, c, zero); return err },
		"Augment":      func() error { _, err := d.Augment(ctx, y, c, x); return err },
	} {
		if a := testutil.Mallocs(20, func() {
			if err := f(); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("%s allocates %d times in 20 calls", name, a)
		}
	}
}

// BenchmarkPathPolytopeMinimize is the shortest-path LMO on a complete
// layered DAG of 100 frames with 20 boxes each (39,640 arcs).
func BenchmarkPathPolytopeMinimize(b *testing.B) {
	d, err := lmo.LayeredDAG(100, 20, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(47, 48))
	c := graphCosts(rng, d.Dim(), false)
	dst := make([]float64, d.Dim())
	ctx := context.Background()
	for b.Loop() {
		if _, err := d.Minimize(ctx, dst, c); err != nil {
			b.Fatal(err)
		}
	}
}

// ExampleLayeredDAG builds a small video-colocalization graph (3 frames of
// 2 candidate boxes) and picks the cheapest track of boxes.
func ExampleLayeredDAG() {
	d, err := lmo.LayeredDAG(3, 2, 1, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	arcs := d.Arcs()
	// Cost of a box = score of the box the arc enters; arcs into the sink
	// are free. Box scores per frame: (0.5, −1), (−2, 0.3), (0.1, −0.4).
	score := map[int]float64{1: 0.5, 2: -1, 3: -2, 4: 0.3, 5: 0.1, 6: -0.4}
	c := make([]float64, d.Dim())
	for i, a := range arcs {
		c[i] = score[a[1]]
	}
	x := make([]float64, d.Dim())
	res, err := d.Minimize(context.Background(), x, c)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("arcs:", d.Dim(), "value:", res.Value)
	for i, a := range arcs {
		if x[i] == 1 {
			fmt.Println(a[0], "→", a[1])
		}
	}
	// Output:
	// arcs: 12 value: -3.4
	// 0 → 2
	// 2 → 3
	// 3 → 6
	// 6 → 7
}
