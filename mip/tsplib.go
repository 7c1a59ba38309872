package mip

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"github.com/lazycg/lazycg/internal/fileio"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// TSPInstance is a symmetric traveling salesman instance in TSPLIB form.
// Nodes are numbered 0..N−1 (TSPLIB numbers them 1..N).
type TSPInstance struct {
	// Name is the NAME entry of the file.
	Name string
	// Comment holds the COMMENT entries, joined by "; ".
	Comment string
	// N is the number of nodes (DIMENSION).
	N int
	// WeightType is the EDGE_WEIGHT_TYPE: "EUC_2D", "CEIL_2D", "GEO", "ATT"
	// or "EXPLICIT".
	WeightType string
	// X and Y are the node coordinates (nil when the file has none). For
	// GEO they are latitude and longitude in TSPLIB's DDD.MM notation.
	X, Y []float64
	// weights is the full N×N matrix for EXPLICIT instances.
	weights []int
}

// maxTSPDim bounds DIMENSION; maxExplicitDim bounds it for explicit matrices,
// which are stored in full.
const (
	maxTSPDim      = 10_000_000
	maxExplicitDim = 20_000
	maxTSPCoord    = 1e15
	maxTSPWeight   = 1 << 50
)

// Dist returns the TSPLIB distance between nodes i and j (0-based), computed
// with TSPLIB's rounding rules for the instance's edge weight type. Dist(i, i)
// is 0. It panics if i or j is outside 0..N−1, and if the instance is
// inconsistent (built by hand with fewer than N X or Y coordinates, an
// unknown weight type, or EXPLICIT without the matrix only the readers
// fill) or a coordinate of i or j is NaN, infinite or beyond 1e15 in
// absolute value (the readers' limit); the check is O(1) per call.
func (t *TSPInstance) Dist(i, j int) int {
	if i < 0 || i >= t.N || j < 0 || j >= t.N {
		panic(fmt.Sprintf("mip: TSPInstance.Dist(%d, %d) with %d nodes", i, j, t.N))
	}
	if err := t.consistent(); err != nil {
		panic("mip: TSPInstance.Dist: " + err.Error())
	}
	if t.WeightType != "EXPLICIT" {
		for _, k := range [2]int{i, j} {
			if err := t.coordOK(k); err != nil {
				panic("mip: TSPInstance.Dist: " + err.Error())
			}
		}
	}
	return t.dist(i, j)
}

// check returns an error unless t is consistent (see consistent) and,
// for the coordinate weight types, every node's coordinates are finite
// and at most maxTSPCoord in absolute value, as the readers ensure: a NaN
// or infinite coordinate (of an instance built by hand) made every
// distance to its node math.MinInt, as did one so large that the
// distances overflow. It is O(N).
func (t *TSPInstance) check() error {
	if err := t.consistent(); err != nil {
		return err
	}
	if t.WeightType == "EXPLICIT" {
		// The matrix, filled only by the readers, holds integers of at
		// most maxTSPWeight in absolute value.
		return nil
	}
	for i := range t.N {
		if err := t.coordOK(i); err != nil {
			return err
		}
	}
	return nil
}

// coordOK returns an error unless node i's coordinates (of a consistent
// instance of a coordinate weight type) are finite and at most
// maxTSPCoord in absolute value.
func (t *TSPInstance) coordOK(i int) error {
	for _, c := range [2]struct {
		name string
		v    float64
	}{{"X", t.X[i]}, {"Y", t.Y[i]}} {
		switch {
		case math.IsNaN(c.v) || math.IsInf(c.v, 0):
			return fmt.Errorf("TSP instance %q: coordinate %s of node %d is %g", t.Name, c.name, i, c.v)
		case math.Abs(c.v) > maxTSPCoord:
			return fmt.Errorf("TSP instance %q: coordinate %s of node %d is %g, beyond %g in absolute value (the readers' limit)", t.Name, c.name, i, c.v, float64(maxTSPCoord))
		}
	}
	return nil
}

// consistent returns an error unless t's fields agree, in O(1): N ≥ 0, a
// known weight type, and X and Y with N coordinates each or, for EXPLICIT,
// the N×N matrix (which only the readers fill). The readers and RandomTSP
// return consistent instances; one built by hand may not be.
func (t *TSPInstance) consistent() error {
	if t.N < 0 {
		return fmt.Errorf("negative node count %d", t.N)
	}
	switch t.WeightType {
	case "EXPLICIT":
		if t.N > maxExplicitDim || len(t.weights) != t.N*t.N {
			return fmt.Errorf("EXPLICIT instance %q of %d nodes has no weight matrix (only ReadTSPLIB fills it)", t.Name, t.N)
		}
	case "EUC_2D", "CEIL_2D", "ATT", "GEO":
		if len(t.X) < t.N || len(t.Y) < t.N {
			return fmt.Errorf("instance %q of %d nodes has %d X and %d Y coordinates", t.Name, t.N, len(t.X), len(t.Y))
		}
	default:
		return fmt.Errorf("instance %q has unknown weight type %q", t.Name, t.WeightType)
	}
	return nil
}

// dist is Dist for a consistent instance and nodes in range.
func (t *TSPInstance) dist(i, j int) int {
	if i == j {
		return 0
	}
	if t.WeightType == "EXPLICIT" {
		return t.weights[i*t.N+j]
	}
	xd, yd := t.X[i]-t.X[j], t.Y[i]-t.Y[j]
	switch t.WeightType {
	case "EUC_2D":
		return nint(math.Sqrt(xd*xd + yd*yd))
	case "CEIL_2D":
		return int(math.Ceil(math.Sqrt(xd*xd + yd*yd)))
	case "ATT":
		r := math.Sqrt((xd*xd + yd*yd) / 10)
		d := nint(r)
		if float64(d) < r {
			d++
		}
		return d
	case "GEO":
		return geoDist(t.X[i], t.Y[i], t.X[j], t.Y[j])
	}
	panic("mip: TSPInstance: unknown weight type " + t.WeightType)
}

// nint is TSPLIB's rounding: (int)(x + 0.5).
func nint(x float64) int { return int(x + 0.5) }

// TSPLIB's constants for GEO distances.
const (
	tsplibPI  = 3.141592
	tsplibRRR = 6378.388
)

// geoRadians converts TSPLIB's DDD.MM notation to radians with TSPLIB's
// rounded π: the integer part counts degrees, the fractional part minutes.
// The degrees are truncated toward zero, as in TSPLIB's reference code.
func geoRadians(v float64) float64 {
	deg := math.Trunc(v)
	mins := v - deg
	return tsplibPI * (deg + 5*mins/3) / 180
}

// geoDist is TSPLIB's GEO distance (km on the idealized sphere, truncated
// after adding 1).
func geoDist(xi, yi, xj, yj float64) int {
	lati, longi := geoRadians(xi), geoRadians(yi)
	latj, longj := geoRadians(xj), geoRadians(yj)
	q1 := math.Cos(longi - longj)
	q2 := math.Cos(lati - latj)
	q3 := math.Cos(lati + latj)
	a := 0.5 * ((1+q1)*q2 - (1-q1)*q3)
	a = max(-1, min(1, a))
	return int(tsplibRRR*math.Acos(a) + 1)
}

// TourLength returns the length of the closed tour visiting the nodes in the
// given order. It returns an error unless tour is a permutation of 0..N−1,
// when the length does not fit an int, and for an inconsistent instance or
// one with a NaN, infinite or too large coordinate (see Dist).
func (t *TSPInstance) TourLength(tour []int) (int, error) {
	if err := t.check(); err != nil {
		return 0, fmt.Errorf("mip: TSPInstance.TourLength: %w", err)
	}
	if len(tour) != t.N {
		return 0, fmt.Errorf("mip: tour has %d nodes, instance %s has %d", len(tour), t.Name, t.N)
	}
	seen := make([]bool, t.N)
	for _, v := range tour {
		if v < 0 || v >= t.N || seen[v] {
			return 0, fmt.Errorf("mip: tour is not a permutation of 0..%d (node %d)", t.N-1, v)
		}
		seen[v] = true
	}
	s := 0
	for k, v := range tour {
		d := t.dist(v, tour[(k+1)%t.N])
		// Distances are below 2^52 in absolute value (coordinates and
		// weights are bounded), but a sum of millions of them is not.
		if d > 0 && s > math.MaxInt-d || d < 0 && s < math.MinInt-d {
			return 0, fmt.Errorf("mip: the length of the tour of instance %s overflows an int", t.Name)
		}
		s += d
	}
	return s, nil
}

// RandomTSP returns an EUC_2D instance with n nodes at independent uniformly
// random integer points of [0, 1000]², drawn from a PCG generator seeded with
// seed. It panics if n < 0 or n exceeds 10⁷, the largest DIMENSION
// ReadTSPLIB accepts.
func RandomTSP(n int, seed uint64) *TSPInstance {
	if n < 0 {
		panic("mip: RandomTSP: negative node count")
	}
	if n > maxTSPDim {
		panic(fmt.Sprintf("mip: RandomTSP: %d nodes exceed the limit of %d (ReadTSPLIB's largest DIMENSION)", n, maxTSPDim))
	}
	rng := rand.New(rand.NewPCG(seed, 0x7473706c6962))
	t := &TSPInstance{
		Name:       fmt.Sprintf("random%d-%d", n, seed),
		N:          n,
		WeightType: "EUC_2D",
		X:          make([]float64, n),
		Y:          make([]float64, n),
	}
	for i := range n {
		t.X[i] = float64(rng.IntN(1001))
		t.Y[i] = float64(rng.IntN(1001))
	}
	return t
}

// ReadTSPLIBFile reads a TSPLIB file with ReadTSPLIB; errors name the file.
func ReadTSPLIBFile(path string) (*TSPInstance, error) {
	return ReadTSPLIBFileCheck(path, nil)
}

// ReadTSPLIBFileCheck is ReadTSPLIBFile that calls check (unless nil) with
// the DIMENSION as soon as it is read, before any section: an error of
// check ends the reading and is returned as is. Callers refuse there the
// instances too large for what they will build (an explicit matrix is
// stored in full, 8·N² bytes, besides the weights read), before reading
// and storing a large file for nothing.
func ReadTSPLIBFileCheck(path string, check func(n int) error) (*TSPInstance, error) {
	var checkErr error
	t, err := fileio.ReadPathBare(path, "mip: tsplib", func(r io.Reader) (*TSPInstance, error) {
		t, err := readTSPLIB(r, func(n int) error {
			if check != nil {
				checkErr = check(n)
			}
			return checkErr
		})
		if err != nil {
			return nil, err
		}
		// The reader stops at the EOF keyword: read the file to its end
		// so that a gzip file's checksum and length are verified, else a
		// corrupted or truncated file could be read with wrong numbers.
		// Data after a complete gzip member that is not another member
		// is ignored, as gzip -d does.
		if _, err := io.Copy(io.Discard, r); err != nil && !errors.Is(err, gzip.ErrHeader) {
			return nil, fmt.Errorf("after EOF: %w (the file is truncated or corrupted)", err)
		}
		return t, nil
	})
	if checkErr != nil {
		return nil, checkErr
	}
	return t, err
}

// ReadTSPLIB reads a symmetric TSP instance in TSPLIB format: the keywords
// NAME, TYPE (must be TSP), COMMENT, DIMENSION, EDGE_WEIGHT_TYPE (EUC_2D,
// CEIL_2D, GEO, ATT or EXPLICIT), EDGE_WEIGHT_FORMAT (FUNCTION, FULL_MATRIX,
// UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW and their column-wise
// counterparts), NODE_COORD_TYPE, DISPLAY_DATA_TYPE, the sections
// NODE_COORD_SECTION, EDGE_WEIGHT_SECTION, DISPLAY_DATA_SECTION (skipped) and
// FIXED_EDGES_SECTION (skipped), and EOF. Section data may be spread over
// lines freely. Explicit weights must be integers; a FULL_MATRIX must be
// symmetric. Errors give the line number.
func ReadTSPLIB(r io.Reader) (*TSPInstance, error) {
	t, err := readTSPLIB(r, nil)
	if err != nil {
		return nil, fmt.Errorf("mip: tsplib: %w", err)
	}
	return t, nil
}

// tspScanner splits the input into lines and, inside sections, into tokens
// that may cross line boundaries.
type tspScanner struct {
	sc      *bufio.Scanner
	line    int
	pending []string // unread fields of the current line
}

func (s *tspScanner) nextLine() (string, bool, error) {
	if !s.sc.Scan() {
		if err := s.sc.Err(); err != nil {
			return "", false, fmt.Errorf("line %d: %w", s.line+1, err)
		}
		return "", false, nil
	}
	s.line++
	return s.sc.Text(), true, nil
}

// token returns the next whitespace-separated token of a section.
func (s *tspScanner) token(section string) (string, error) {
	for len(s.pending) == 0 {
		l, ok, err := s.nextLine()
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("line %d: unexpected end of file in %s", s.line, section)
		}
		s.pending = strings.Fields(l)
	}
	tok := s.pending[0]
	s.pending = s.pending[1:]
	return tok, nil
}

// endSection checks that the section did not leave data on its last line.
func (s *tspScanner) endSection(section string) error {
	if len(s.pending) > 0 {
		return fmt.Errorf("line %d: unexpected %q after the data of %s", s.line, s.pending[0], section)
	}
	return nil
}

func (s *tspScanner) float(section string) (float64, error) {
	tok, err := s.token(section)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(tok, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("line %d: %s: bad number %q", s.line, section, tok)
	}
	return v, nil
}

func (s *tspScanner) integer(section string) (int, error) {
	tok, err := s.token(section)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(tok, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("line %d: %s: bad integer %q", s.line, section, tok)
	}
	return int(v), nil
}

// weightFormats maps EDGE_WEIGHT_FORMAT values of explicit matrices to the
// row-wise format that lists the same numbers in the same order (by symmetry
// a column-wise upper triangle is a row-wise lower triangle).
var weightFormats = map[string]string{
	"FULL_MATRIX":    "FULL_MATRIX",
	"UPPER_ROW":      "UPPER_ROW",
	"LOWER_ROW":      "LOWER_ROW",
	"UPPER_DIAG_ROW": "UPPER_DIAG_ROW",
	"LOWER_DIAG_ROW": "LOWER_DIAG_ROW",
	"UPPER_COL":      "LOWER_ROW",
	"LOWER_COL":      "UPPER_ROW",
	"UPPER_DIAG_COL": "LOWER_DIAG_ROW",
	"LOWER_DIAG_COL": "UPPER_DIAG_ROW",
}

// readTSPLIB reads a TSPLIB instance (ReadTSPLIB), calling check (unless
// nil) with the DIMENSION once it is read.
func readTSPLIB(r io.Reader, check func(n int) error) (*TSPInstance, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<26)
	s := &tspScanner{sc: sc}
	t := &TSPInstance{N: -1}
	var (
		format    string // EDGE_WEIGHT_FORMAT
		formatLn  int
		weights   []int // tokens of EDGE_WEIGHT_SECTION
		hasCoords bool
		hasWeight bool
		seenKey   = map[string]int{}
	)
	needDim := func(section string) error {
		if t.N < 0 {
			return fmt.Errorf("line %d: %s before DIMENSION", s.line, section)
		}
		return nil
	}
	for {
		l, ok, err := s.nextLine()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		key, val, hasColon := strings.Cut(l, ":")
		key = strings.ToUpper(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		if key == "EOF" {
			break
		}
		if p, dup := seenKey[key]; dup && key != "COMMENT" {
			return nil, fmt.Errorf("line %d: %s repeated (first on line %d)", s.line, key, p)
		}
		seenKey[key] = s.line
		if strings.HasSuffix(key, "_SECTION") {
			if hasColon && val != "" {
				return nil, fmt.Errorf("line %d: unexpected %q after %s", s.line, val, key)
			}
		} else if !hasColon {
			return nil, fmt.Errorf("line %d: expected \"KEYWORD : value\", got %q", s.line, l)
		}
		switch key {
		case "NAME":
			t.Name = val
		case "COMMENT":
			if t.Comment != "" {
				t.Comment += "; "
			}
			t.Comment += val
		case "TYPE":
			if strings.ToUpper(val) != "TSP" {
				return nil, fmt.Errorf("line %d: TYPE %q not supported (only TSP)", s.line, val)
			}
		case "DIMENSION":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > maxTSPDim {
				return nil, fmt.Errorf("line %d: DIMENSION %q: want an integer in 1..%d", s.line, val, maxTSPDim)
			}
			t.N = n
			if check != nil {
				if err := check(n); err != nil {
					return nil, err
				}
			}
		case "EDGE_WEIGHT_TYPE":
			switch v := strings.ToUpper(val); v {
			case "EUC_2D", "CEIL_2D", "GEO", "ATT", "EXPLICIT":
				t.WeightType = v
			default:
				return nil, fmt.Errorf("line %d: EDGE_WEIGHT_TYPE %q not supported (want EUC_2D, CEIL_2D, GEO, ATT or EXPLICIT)", s.line, val)
			}
		case "EDGE_WEIGHT_FORMAT":
			v := strings.ToUpper(val)
			if _, ok := weightFormats[v]; !ok && v != "FUNCTION" {
				return nil, fmt.Errorf("line %d: EDGE_WEIGHT_FORMAT %q not supported", s.line, val)
			}
			format, formatLn = v, s.line
		case "NODE_COORD_TYPE":
			if v := strings.ToUpper(val); v != "TWOD_COORDS" && v != "NO_COORDS" {
				return nil, fmt.Errorf("line %d: NODE_COORD_TYPE %q not supported (only TWOD_COORDS)", s.line, val)
			}
		case "DISPLAY_DATA_TYPE":
			// Display hints do not affect distances.
		case "NODE_COORD_SECTION", "DISPLAY_DATA_SECTION":
			if err := needDim(key); err != nil {
				return nil, err
			}
			if err := readCoords(s, t, key); err != nil {
				return nil, err
			}
			hasCoords = hasCoords || key == "NODE_COORD_SECTION"
		case "EDGE_WEIGHT_SECTION":
			if err := needDim(key); err != nil {
				return nil, err
			}
			if format == "" {
				return nil, fmt.Errorf("line %d: EDGE_WEIGHT_SECTION before EDGE_WEIGHT_FORMAT", s.line)
			}
			rowFormat, ok := weightFormats[format]
			if !ok {
				return nil, fmt.Errorf("line %d: EDGE_WEIGHT_SECTION with EDGE_WEIGHT_FORMAT %s (line %d)", s.line, format, formatLn)
			}
			if t.N > maxExplicitDim {
				return nil, fmt.Errorf("line %d: DIMENSION %d too large for an explicit matrix (at most %d)", s.line, t.N, maxExplicitDim)
			}
			weights, err = readWeights(s, t.N, rowFormat)
			if err != nil {
				return nil, err
			}
			hasWeight = true
		case "FIXED_EDGES_SECTION":
			if err := skipFixedEdges(s); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("line %d: unknown keyword %q", s.line, key)
		}
	}
	switch {
	case t.N < 0:
		return nil, errors.New("missing DIMENSION")
	case t.WeightType == "":
		return nil, errors.New("missing EDGE_WEIGHT_TYPE")
	case t.WeightType == "EXPLICIT":
		if !hasWeight {
			return nil, errors.New("EDGE_WEIGHT_TYPE EXPLICIT without EDGE_WEIGHT_SECTION")
		}
		w, err := fillMatrix(t.N, weightFormats[format], weights)
		if err != nil {
			return nil, err
		}
		t.weights = w
	default:
		if format != "" && format != "FUNCTION" {
			return nil, fmt.Errorf("line %d: EDGE_WEIGHT_FORMAT %s with EDGE_WEIGHT_TYPE %s", formatLn, format, t.WeightType)
		}
		if !hasCoords {
			return nil, fmt.Errorf("EDGE_WEIGHT_TYPE %s without NODE_COORD_SECTION", t.WeightType)
		}
	}
	return t, nil
}

// readCoords reads N entries "node x y" of a coordinate section. The
// coordinates of NODE_COORD_SECTION are stored in t. Memory grows with the
// data actually read, not with DIMENSION.
func readCoords(s *tspScanner, t *TSPInstance, section string) error {
	n := t.N
	type entry struct {
		id   int
		x, y float64
	}
	entries := make([]entry, 0, min(n, 1<<12))
	seen := make(map[int]int, min(n, 1<<12))
	for range n {
		id, err := s.integer(section)
		if err != nil {
			return err
		}
		if id < 1 || id > n {
			return fmt.Errorf("line %d: %s: node %d outside 1..%d", s.line, section, id, n)
		}
		if p, dup := seen[id]; dup {
			return fmt.Errorf("line %d: %s: node %d repeated (first on line %d)", s.line, section, id, p)
		}
		seen[id] = s.line
		x, err := s.float(section)
		if err != nil {
			return err
		}
		y, err := s.float(section)
		if err != nil {
			return err
		}
		if math.Abs(x) > maxTSPCoord || math.Abs(y) > maxTSPCoord {
			return fmt.Errorf("line %d: %s: coordinate of node %d exceeds %g in absolute value", s.line, section, id, maxTSPCoord)
		}
		entries = append(entries, entry{id, x, y})
	}
	if err := s.endSection(section); err != nil {
		return err
	}
	if section == "NODE_COORD_SECTION" {
		t.X, t.Y = make([]float64, n), make([]float64, n)
		for _, e := range entries {
			t.X[e.id-1], t.Y[e.id-1] = e.x, e.y
		}
	}
	return nil
}

// weightCount returns how many numbers a row-wise format lists for n nodes.
func weightCount(n int, format string) int {
	switch format {
	case "FULL_MATRIX":
		return n * n
	case "UPPER_ROW", "LOWER_ROW":
		return n * (n - 1) / 2
	default: // UPPER_DIAG_ROW, LOWER_DIAG_ROW
		return n * (n + 1) / 2
	}
}

func readWeights(s *tspScanner, n int, format string) ([]int, error) {
	const section = "EDGE_WEIGHT_SECTION"
	cnt := weightCount(n, format)
	w := make([]int, 0, min(cnt, 1<<16))
	for range cnt {
		v, err := s.integer(section)
		if err != nil {
			return nil, err
		}
		if v > maxTSPWeight || v < -maxTSPWeight {
			return nil, fmt.Errorf("line %d: %s: weight %d exceeds %d in absolute value", s.line, section, v, maxTSPWeight)
		}
		w = append(w, v)
	}
	return w, s.endSection(section)
}

// fillMatrix expands the numbers of a row-wise format into a symmetric n×n
// matrix with zero diagonal.
func fillMatrix(n int, format string, w []int) ([]int, error) {
	m := make([]int, n*n)
	set := func(i, j, v int) {
		if i != j {
			m[i*n+j], m[j*n+i] = v, v
		}
	}
	k := 0
	switch format {
	case "FULL_MATRIX":
		for i := range n {
			for j := range n {
				if j < i && w[k] != w[j*n+i] {
					return nil, fmt.Errorf("FULL_MATRIX not symmetric: d(%d,%d) = %d but d(%d,%d) = %d", i+1, j+1, w[k], j+1, i+1, w[j*n+i])
				}
				set(i, j, w[k])
				k++
			}
		}
	case "UPPER_ROW":
		for i := range n {
			for j := i + 1; j < n; j++ {
				set(i, j, w[k])
				k++
			}
		}
	case "LOWER_ROW":
		for i := range n {
			for j := range i {
				set(i, j, w[k])
				k++
			}
		}
	case "UPPER_DIAG_ROW":
		for i := range n {
			for j := i; j < n; j++ {
				set(i, j, w[k])
				k++
			}
		}
	case "LOWER_DIAG_ROW":
		for i := range n {
			for j := 0; j <= i; j++ {
				set(i, j, w[k])
				k++
			}
		}
	}
	return m, nil
}

// skipFixedEdges skips a FIXED_EDGES_SECTION, which ends with -1.
func skipFixedEdges(s *tspScanner) error {
	for {
		tok, err := s.token("FIXED_EDGES_SECTION")
		if err != nil {
			return err
		}
		if tok == "-1" {
			return s.endSection("FIXED_EDGES_SECTION")
		}
		if _, err := strconv.Atoi(tok); err != nil {
			return fmt.Errorf("line %d: FIXED_EDGES_SECTION: bad node %q", s.line, tok)
		}
	}
}
