package mip

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/internal/datadir"

	"github.com/lazycg/lazycg/mip/internal/brute"
)

func TestTSPLIBDistances(t *testing.T) {
	for _, tc := range []struct {
		name   string
		typ    string
		coords string
		want   [][3]int // i, j, distance (0-based)
	}{
		// 2.5 rounds up (nint), √10 ≈ 3.16 rounds down.
		{"euc", "EUC_2D", "1 0 0\n2 1.5 2\n3 3 1", [][3]int{{0, 1, 3}, {0, 2, 3}, {1, 2, 2}}},
		{"ceil", "CEIL_2D", "1 0 0\n2 3 4.1\n3 3 4", [][3]int{{0, 1, 6}, {0, 2, 5}, {1, 2, 1}}},
		// ATT: r = √((dx²+dy²)/10); √10 → 4, √90 ≈ 9.49 → 10, √100 = 10 → 10.
		{"att", "ATT", "1 0 0\n2 10 0\n3 0 30\n4 10 30", [][3]int{{0, 1, 4}, {0, 2, 10}, {0, 3, 10}}},
		// GEO: one degree of latitude along a meridian is
		// 6378.388·3.141592/180 ≈ 111.32 km, truncated after adding 1.
		{"geo", "GEO", "1 10.00 20.00\n2 11.00 20.00\n3 10.30 20.00", [][3]int{{0, 1, 112}, {0, 2, 56}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := strings.Count(tc.coords, "\n") + 1
			src := fmt.Sprintf("NAME: %s\nTYPE: TSP\nDIMENSION: %d\nEDGE_WEIGHT_TYPE: %s\nNODE_COORD_SECTION\n%s\nEOF\n", tc.name, n, tc.typ, tc.coords)
			inst, err := ReadTSPLIB(strings.NewReader(src))
			if err != nil {
				t.Fatal(err)
			}
			if inst.Name != tc.name || inst.N != n || inst.WeightType != tc.typ {
				t.Fatalf("got %q, %d nodes, %s", inst.Name, inst.N, inst.WeightType)
			}
			for _, w := range tc.want {
				if d, e := inst.Dist(w[0], w[1]), inst.Dist(w[1], w[0]); d != w[2] || e != w[2] {
					t.Errorf("Dist(%d,%d) = %d, Dist(%d,%d) = %d, want %d", w[0], w[1], d, w[1], w[0], e, w[2])
				}
			}
			if inst.Dist(1, 1) != 0 {
				t.Error("Dist(1,1) != 0")
			}
		})
	}
}

func TestTSPLIBExplicitFormats(t *testing.T) {
	// d = [[0 1 2 3] [1 0 4 5] [2 4 0 6] [3 5 6 0]] in every format.
	for _, tc := range []struct{ format, data string }{
		{"FULL_MATRIX", "0 1 2 3\n1 0 4 5\n2 4 0 6\n3 5 6 0"},
		{"UPPER_ROW", "1 2 3\n4 5\n6"},
		{"LOWER_ROW", "1\n2 4\n3 5 6"},
		{"UPPER_DIAG_ROW", "0 1 2 3 0 4 5 0 6 0"},
		{"LOWER_DIAG_ROW", "0\n1 0\n2 4 0\n3 5 6 0"},
		{"UPPER_COL", "1\n2 4\n3 5 6"},
		{"LOWER_COL", "1 2 3\n4 5\n6"},
		{"UPPER_DIAG_COL", "0 1 0 2 4 0 3 5 6 0"},
		{"LOWER_DIAG_COL", "0 1 2 3 0 4 5 0 6 0"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			src := "NAME : m4\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : " +
				tc.format + "\nDISPLAY_DATA_TYPE: NO_DISPLAY\nEDGE_WEIGHT_SECTION\n" + tc.data + "\nEOF\n"
			inst, err := ReadTSPLIB(strings.NewReader(src))
			if err != nil {
				t.Fatal(err)
			}
			want := [4][4]int{{0, 1, 2, 3}, {1, 0, 4, 5}, {2, 4, 0, 6}, {3, 5, 6, 0}}
			for i := range 4 {
				for j := range 4 {
					if d := inst.Dist(i, j); d != want[i][j] {
						t.Errorf("Dist(%d,%d) = %d, want %d", i, j, d, want[i][j])
					}
				}
			}
		})
	}
}

func TestTSPLIBErrors(t *testing.T) {
	const head = "NAME: e\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\n"
	const exp = "NAME: e\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\n"
	for _, tc := range []struct{ name, src, want string }{
		{"empty", "", "missing DIMENSION"},
		{"type", "TYPE: ATSP\n", "line 1: TYPE \"ATSP\" not supported"},
		{"dimension", "DIMENSION: -3\n", "line 1: DIMENSION"},
		{"weight type", "DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_3D\n", "line 2: EDGE_WEIGHT_TYPE \"EUC_3D\""},
		{"unknown key", "FOO: 1\n", "line 1: unknown keyword \"FOO\""},
		{"no colon", "NAME x\n", "line 1: expected"},
		{"repeated", "NAME: a\nNAME: b\n", "line 2: NAME repeated (first on line 1)"},
		{"section first", "NODE_COORD_SECTION\n1 0 0\n", "line 1: NODE_COORD_SECTION before DIMENSION"},
		{"short coords", head + "NODE_COORD_SECTION\n1 0 0\n2 1 1\n", "line 7: unexpected end of file in NODE_COORD_SECTION"},
		{"bad node", head + "NODE_COORD_SECTION\n1 0 0\n4 1 1\n3 2 2\n", "line 7: NODE_COORD_SECTION: node 4 outside 1..3"},
		{"dup node", head + "NODE_COORD_SECTION\n1 0 0\n1 1 1\n3 2 2\n", "line 7: NODE_COORD_SECTION: node 1 repeated (first on line 6)"},
		{"bad coord", head + "NODE_COORD_SECTION\n1 0 0\n2 x 1\n3 2 2\n", "line 7: NODE_COORD_SECTION: bad number \"x\""},
		{"nan coord", head + "NODE_COORD_SECTION\n1 0 0\n2 NaN 1\n3 2 2\n", "line 7: NODE_COORD_SECTION: bad number"},
		{"huge coord", head + "NODE_COORD_SECTION\n1 0 0\n2 1e300 1\n3 2 2\n", "line 7: NODE_COORD_SECTION: coordinate of node 2"},
		{"extra", head + "NODE_COORD_SECTION\n1 0 0\n2 1 1\n3 2 2 7\n", "line 8: unexpected \"7\""},
		{"no coords", head + "EOF\n", "EDGE_WEIGHT_TYPE EUC_2D without NODE_COORD_SECTION"},
		{"no weights", exp + "EDGE_WEIGHT_FORMAT: UPPER_ROW\n", "EXPLICIT without EDGE_WEIGHT_SECTION"},
		{"no format", exp + "EDGE_WEIGHT_SECTION\n1 2 3\n", "line 4: EDGE_WEIGHT_SECTION before EDGE_WEIGHT_FORMAT"},
		{"bad format", exp + "EDGE_WEIGHT_FORMAT: UPPER_TRI\n", "line 4: EDGE_WEIGHT_FORMAT \"UPPER_TRI\""},
		{"function", exp + "EDGE_WEIGHT_FORMAT: FUNCTION\nEDGE_WEIGHT_SECTION\n", "line 5: EDGE_WEIGHT_SECTION with EDGE_WEIGHT_FORMAT FUNCTION"},
		{"bad weight", exp + "EDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2.5 3\n", "line 6: EDGE_WEIGHT_SECTION: bad integer \"2.5\""},
		{"short weights", exp + "EDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2\n", "line 6: unexpected end of file in EDGE_WEIGHT_SECTION"},
		{"asymmetric", exp + "EDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2\n1 0 3\n2 4 0\n", "FULL_MATRIX not symmetric: d(3,2) = 4 but d(2,3) = 3"},
		{"weights with coords", head + "EDGE_WEIGHT_FORMAT: FULL_MATRIX\n", "line 5: EDGE_WEIGHT_FORMAT FULL_MATRIX with EDGE_WEIGHT_TYPE EUC_2D"},
		{"fixed edges", head + "FIXED_EDGES_SECTION\n1 2\nx\n", "line 7: FIXED_EDGES_SECTION: bad node \"x\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTSPLIB(strings.NewReader(tc.src))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !strings.HasPrefix(err.Error(), "mip: tsplib: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestTSPLIBSkippedSections(t *testing.T) {
	src := `NAME: skip
TYPE: TSP
DIMENSION: 3
EDGE_WEIGHT_TYPE: EXPLICIT
EDGE_WEIGHT_FORMAT: UPPER_ROW
NODE_COORD_TYPE: NO_COORDS
DISPLAY_DATA_TYPE: TWOD_DISPLAY
EDGE_WEIGHT_SECTION
  7 8
  9
DISPLAY_DATA_SECTION
 1 5 5
 2 6 6
 3 7 7
FIXED_EDGES_SECTION
 1 2
 -1
EOF
this is ignored
`
	inst, err := ReadTSPLIB(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if inst.X != nil || inst.Dist(0, 1) != 7 || inst.Dist(0, 2) != 8 || inst.Dist(2, 1) != 9 {
		t.Errorf("got X=%v, d01=%d d02=%d d21=%d", inst.X, inst.Dist(0, 1), inst.Dist(0, 2), inst.Dist(2, 1))
	}
}

func TestTSPLIBFiles(t *testing.T) {
	for _, tc := range []struct {
		file    string
		name    string
		n       int
		typ     string
		optimum int
	}{
		{"burma14.tsp", "burma14", 14, "GEO", 3323},
		{"ulysses16.tsp", "ulysses16.tsp", 16, "GEO", 6859},
		{"gr17.tsp", "gr17", 17, "EXPLICIT", 2085},
	} {
		t.Run(tc.file, func(t *testing.T) {
			inst, err := ReadTSPLIBFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if inst.Name != tc.name || inst.N != tc.n || inst.WeightType != tc.typ {
				t.Fatalf("got %q, %d nodes, %s", inst.Name, inst.N, inst.WeightType)
			}
			got, tour := brute.HeldKarp(inst.N, inst.Dist)
			if got != tc.optimum {
				t.Errorf("Held–Karp optimum %d, want %d", got, tc.optimum)
			}
			if l, err := inst.TourLength(tour); err != nil || l != got {
				t.Errorf("TourLength(Held–Karp tour) = %d, %v; want %d", l, err, got)
			}
		})
	}
	// The copies in testdata must equal the benchmark files.
	dir, ok := datadir.Find("")
	if !ok {
		t.Log("benchmark data absent; checked the testdata copies only")
		return
	}
	for _, f := range []string{"burma14.tsp", "ulysses16.tsp", "gr17.tsp"} {
		a, err1 := os.ReadFile(filepath.Join(dir, "tsplib", f))
		b, err2 := os.ReadFile(filepath.Join("testdata", f))
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("testdata/%s differs from the benchmark copy (%v, %v)", f, err1, err2)
		}
	}
}

func TestBurma14Distances(t *testing.T) {
	// First row of burma14's distance matrix as published with TSPLIB.
	inst, err := ReadTSPLIBFile(filepath.Join("testdata", "burma14.tsp"))
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, 153, 510, 706, 966, 581, 455, 70, 160, 372, 157, 567, 342, 398}
	for j, w := range want {
		if d := inst.Dist(0, j); d != w {
			t.Errorf("Dist(0,%d) = %d, want %d", j, d, w)
		}
	}
}

func TestReadTSPLIBFileMissing(t *testing.T) {
	_, err := ReadTSPLIBFile(filepath.Join("testdata", "nonexistent.tsp"))
	if err == nil || !strings.HasPrefix(err.Error(), "mip: tsplib: ") {
		t.Errorf("error %v", err)
	}
	_, err = ReadTSPLIBFile(filepath.Join("testdata", "chimera439-1.txt"))
	if err == nil || !strings.Contains(err.Error(), "chimera439-1.txt: line 1:") {
		t.Errorf("error %v, want file name and line", err)
	}
}

func TestRandomTSP(t *testing.T) {
	a, b, c := RandomTSP(20, 7), RandomTSP(20, 7), RandomTSP(20, 8)
	same, diff := true, false
	for i := range 20 {
		if a.X[i] < 0 || a.X[i] > 1000 || a.Y[i] < 0 || a.Y[i] > 1000 || a.X[i] != math.Trunc(a.X[i]) {
			t.Fatalf("point %d = (%v, %v)", i, a.X[i], a.Y[i])
		}
		same = same && a.X[i] == b.X[i] && a.Y[i] == b.Y[i]
		diff = diff || a.X[i] != c.X[i] || a.Y[i] != c.Y[i]
	}
	if !same || !diff {
		t.Errorf("RandomTSP not determined by its seed: same=%v diff=%v", same, diff)
	}
	if a.N != 20 || a.WeightType != "EUC_2D" {
		t.Errorf("RandomTSP: %d nodes, %s", a.N, a.WeightType)
	}
}

func TestTourLength(t *testing.T) {
	inst := RandomTSP(5, 1)
	tour := []int{0, 3, 1, 4, 2}
	want := 0
	for k := range tour {
		want += inst.Dist(tour[k], tour[(k+1)%5])
	}
	if got, err := inst.TourLength(tour); err != nil || got != want {
		t.Errorf("TourLength = %d, %v; want %d", got, err, want)
	}
	for _, bad := range [][]int{{0, 1, 2, 3}, {0, 1, 2, 3, 3}, {0, 1, 2, 3, 5}} {
		if _, err := inst.TourLength(bad); err == nil {
			t.Errorf("TourLength(%v) accepted", bad)
		}
	}
}

func FuzzReadTSPLIB(f *testing.F) {
	for _, name := range []string{"burma14.tsp", "ulysses16.tsp", "gr17.tsp"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("DIMENSION: 3\nEDGE_WEIGHT_TYPE: ATT\nNODE_COORD_SECTION\n1 0 0\n2 10 0\n3 0 30\n")
	f.Add("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2 1 0 3 2 3 0\n")
	f.Add("DIMENSION: 2\nEDGE_WEIGHT_TYPE: CEIL_2D\nNODE_COORD_SECTION\n2 0 0 1 3 4\nFIXED_EDGES_SECTION\n1 2 -1\nEOF")
	// Numbers strconv parses as NaN or ±Inf, and explicit weights that
	// are none.
	f.Add("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 nan 1\n3 2 2\n")
	f.Add("DIMENSION: 3\nEDGE_WEIGHT_TYPE: GEO\nNODE_COORD_SECTION\n1 0 0\n2 1 -Infinity\n3 2 1e400\n")
	f.Add("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 inf 3\nDISPLAY_DATA_SECTION\n1 0 NaN\n2 0 0\n3 0 0\n")
	f.Fuzz(func(t *testing.T, src string) {
		inst, err := ReadTSPLIB(strings.NewReader(src))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mip: tsplib: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		if inst.N < 1 {
			t.Fatalf("N = %d", inst.N)
		}
		// What the reader accepts has finite coordinates within the
		// limit, so that no method refuses it later.
		if err := inst.check(); err != nil {
			t.Fatalf("accepted an instance its methods refuse: %v", err)
		}
		n := min(inst.N, 30)
		for i := range n {
			if inst.Dist(i, i) != 0 {
				t.Fatalf("Dist(%d,%d) != 0", i, i)
			}
			for j := range i {
				if inst.Dist(i, j) != inst.Dist(j, i) {
					t.Fatalf("Dist not symmetric at (%d,%d)", i, j)
				}
			}
		}
	})
}
