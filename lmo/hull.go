package lmo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/internal/fileio"
)

// SparseAtom is a sparse vector of a ConvexHull: Value[k] at the 0-based
// coordinate Index[k]; all other coordinates are zero.
type SparseAtom struct {
	Index []int
	Value []float64
}

// ConvexHull is the convex hull conv{a_1, …, a_m} of finitely many
// user-given atoms a_k ∈ R^n, stored densely (NewConvexHull) or sparsely
// (NewSparseConvexHull, ReadConvexHull with a "sparse" header). Every
// vertex of the hull is an atom; atoms need not be vertices and may repeat.
//
// Minimize scans all atoms and writes the first one minimizing c·a_k: an
// exact oracle in O(m·n) time for dense and O(Σ nnz(a_k) + n) for sparse
// atoms. Values are c·a_k summed over the stored entries in increasing
// coordinate order, which equals c·dst summed in index order.
type ConvexHull struct {
	n, m  int
	dense []float64 // m×n row-major; nil for a sparse hull
	ptr   []int     // sparse: atom k is idx/val[ptr[k]:ptr[k+1]]
	idx   []int32   // sparse: increasing coordinates
	val   []float64 // sparse: nonzero values
}

var _ lazycg.LMO = (*ConvexHull)(nil)

// hullCancelEvery is how many atoms Minimize scans between checks of ctx.
const hullCancelEvery = 4096

// NewConvexHull returns the convex hull of the given dense atoms, which are
// copied. There must be at least one atom; all atoms must have the same
// length n ≥ 1 and finite entries.
func NewConvexHull(atoms [][]float64) (*ConvexHull, error) {
	if len(atoms) == 0 {
		return nil, errors.New("lmo: convex hull: no atoms")
	}
	n := len(atoms[0])
	if n == 0 {
		return nil, errors.New("lmo: convex hull: atoms have dimension 0")
	}
	if len(atoms) > math.MaxInt/n {
		return nil, fmt.Errorf("lmo: convex hull: %d atoms of dimension %d are too many", len(atoms), n)
	}
	h := &ConvexHull{n: n, m: len(atoms), dense: make([]float64, 0, len(atoms)*n)}
	for k, a := range atoms {
		if len(a) != n {
			return nil, fmt.Errorf("lmo: convex hull: atom %d has dimension %d, atom 0 has %d", k, len(a), n)
		}
		for i, x := range a {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("lmo: convex hull: atom %d, coordinate %d is %v, want a finite number", k, i, x)
			}
		}
		h.dense = append(h.dense, a...)
	}
	return h, nil
}

// NewSparseConvexHull returns the convex hull of the given sparse atoms in
// R^n, which are copied (zero values are dropped, indices sorted). There
// must be at least one atom; n must be in [1, 2³¹−1]; every atom must have
// as many indices as values, distinct indices in [0, n) and finite values.
func NewSparseConvexHull(n int, atoms []SparseAtom) (*ConvexHull, error) {
	if n < 1 || n > math.MaxInt32 {
		return nil, fmt.Errorf("lmo: convex hull: dimension must be in [1, %d], got %d", math.MaxInt32, n)
	}
	if len(atoms) == 0 {
		return nil, errors.New("lmo: convex hull: no atoms")
	}
	h := &ConvexHull{n: n, ptr: make([]int, 1, len(atoms)+1)}
	type entry struct {
		i int32
		v float64
	}
	var buf []entry
	for k, a := range atoms {
		if len(a.Index) != len(a.Value) {
			return nil, fmt.Errorf("lmo: convex hull: atom %d has %d indices but %d values", k, len(a.Index), len(a.Value))
		}
		buf = buf[:0]
		for t, i := range a.Index {
			x := a.Value[t]
			if i < 0 || i >= n {
				return nil, fmt.Errorf("lmo: convex hull: atom %d: index %d outside [0, %d)", k, i, n)
			}
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("lmo: convex hull: atom %d, coordinate %d is %v, want a finite number", k, i, x)
			}
			buf = append(buf, entry{int32(i), x})
		}
		slices.SortFunc(buf, func(a, b entry) int { return int(a.i) - int(b.i) })
		for t := 1; t < len(buf); t++ {
			if buf[t].i == buf[t-1].i {
				return nil, fmt.Errorf("lmo: convex hull: atom %d: index %d given twice", k, buf[t].i)
			}
		}
		for _, e := range buf {
			if e.v != 0 {
				h.idx = append(h.idx, e.i)
				h.val = append(h.val, e.v)
			}
		}
		h.ptr = append(h.ptr, len(h.val))
	}
	h.m = len(atoms)
	return h, nil
}

// Dim returns n.
func (h *ConvexHull) Dim() int { return h.n }

// Len returns the number m of atoms.
func (h *ConvexHull) Len() int { return h.m }

// Sparse reports whether the atoms are stored sparsely.
func (h *ConvexHull) Sparse() bool { return h.dense == nil }

// Atom writes atom k (0-based) into dst.
func (h *ConvexHull) Atom(dst []float64, k int) {
	if h.dense != nil {
		copy(dst[:h.n], h.dense[k*h.n:(k+1)*h.n])
		return
	}
	clear(dst[:h.n])
	for t := h.ptr[k]; t < h.ptr[k+1]; t++ {
		dst[h.idx[t]] = h.val[t]
	}
}

// Vertex writes atom 0 into dst.
func (h *ConvexHull) Vertex(dst []float64) { h.Atom(dst, 0) }

// Minimize writes the first atom minimizing c·a_k into dst. It returns an
// error for invalid input and when ctx is canceled (checked every 4096
// atoms).
func (h *ConvexHull) Minimize(ctx context.Context, dst, c []float64) (lazycg.LinearResult, error) {
	if err := basicCheckCost("convex hull", h.n, dst, c); err != nil {
		return lazycg.LinearResult{}, err
	}
	best, bestVal, finite, err := h.scan(ctx, c, 1, 1)
	if err != nil {
		return lazycg.LinearResult{}, err
	}
	if !finite {
		// Some c·a overflowed (to ±Inf, or NaN as Inf − Inf), which hides
		// the order of the atoms: compare them again with c and the atoms
		// scaled by powers of two under which no sum can overflow, c by
		// 2^−e with max|c| < 2^e and the atoms by 2^−f with max|a| < 2^f
		// (every product lies in (−1, 1)), and report the minimum if it is
		// itself a float64 (as answerValue does). One factor 2^−(e+f+…)
		// on c alone is 0 when e + f exceeds about 1074: every atom then
		// scored 0/0 and a finite minimum was refused.
		e, f := productExponents(basicMaxAbs(c), max(basicMaxAbs(h.dense), basicMaxAbs(h.val)))
		if best, bestVal, _, err = h.scan(ctx, c, math.Ldexp(1, -e), math.Ldexp(1, -f)); err != nil {
			return lazycg.LinearResult{}, err
		}
		bestVal = math.Ldexp(bestVal, e+f)
		if math.IsInf(bestVal, 0) || math.IsNaN(bestVal) {
			return lazycg.LinearResult{}, fmt.Errorf("lmo: convex hull: the minimum of c·a over the atoms (atom %d) lies beyond the range of float64: rescale the costs or the atoms", best)
		}
	}
	h.Atom(dst, best)
	return lazycg.Exact(bestVal), nil
}

// scan returns the atom minimizing Σ_i (scale·c_i)·(ascale·a_i) and that
// value, and whether every value was finite.
func (h *ConvexHull) scan(ctx context.Context, c []float64, scale, ascale float64) (best int, bestVal float64, finite bool, err error) {
	best, bestVal, finite = 0, math.Inf(1), true
	for k := 0; k < h.m; k++ {
		if k%hullCancelEvery == hullCancelEvery-1 {
			if err := ctx.Err(); err != nil {
				return 0, 0, false, fmt.Errorf("lmo: convex hull: %w", err)
			}
		}
		var v float64
		if h.dense != nil {
			a := h.dense[k*h.n : (k+1)*h.n]
			if scale == 1 && ascale == 1 {
				v = basicDot(c, a)
			} else {
				for i, ci := range c {
					v += (ci * scale) * (a[i] * ascale)
				}
			}
		} else if scale == 1 && ascale == 1 {
			for t := h.ptr[k]; t < h.ptr[k+1]; t++ {
				v += c[h.idx[t]] * h.val[t]
			}
		} else {
			for t := h.ptr[k]; t < h.ptr[k+1]; t++ {
				v += (c[h.idx[t]] * scale) * (h.val[t] * ascale)
			}
		}
		if v < bestVal {
			best, bestVal = k, v
		}
		if v-v != 0 { // ±Inf or NaN
			finite = false
		}
	}
	return best, bestVal, finite, nil
}

// ReadConvexHullFile reads an atoms file (see ReadConvexHull). Gzip files
// are recognized by their magic bytes (1f 8b), whatever their name.
func ReadConvexHullFile(path string) (*ConvexHull, error) {
	return fileio.ReadPath(path, "lmo: atoms", ReadConvexHull)
}

// ReadConvexHull reads the atoms of a ConvexHull from a text file:
//
//	# a comment
//	dense N
//	a_11 a_12 … a_1N
//	a_21 a_22 … a_2N
//
// or, for sparse atoms,
//
//	sparse N
//	INDEX:VALUE INDEX:VALUE …
//
// Lines whose first non-blank character is '#' and blank lines are
// ignored. The first other line is the header, "dense N" or "sparse N",
// with the dimension N ≥ 1 (at most 2³¹−1). Every following line is one
// atom: for "dense", exactly N numbers separated by white space; for
// "sparse", INDEX:VALUE pairs separated by white space with 1-based
// indices in [1, N] in strictly increasing order (coordinates not listed
// are zero; write the origin as "1:0"). Numbers are decimal or hexadecimal
// floating-point literals and must be finite. At least one atom is
// required.
//
// Errors start with "lmo: atoms: line L:" and say what was expected.
func ReadConvexHull(r io.Reader) (*ConvexHull, error) {
	lines := fileio.NewLines(r)
	var (
		h      *ConvexHull
		fields = make([]string, 0, 64)
	)
	for lines.Scan() {
		ln := lines.Line()
		fields = dimacsFields(fields[:0], lines.Text())
		if len(fields) == 0 || fields[0][0] == '#' {
			continue
		}
		if h == nil {
			var err error
			if h, err = hullHeader(ln, fields); err != nil {
				return nil, err
			}
			continue
		}
		var err error
		if h.dense != nil {
			err = h.readDense(ln, fields)
		} else {
			err = h.readSparse(ln, fields)
		}
		if err != nil {
			return nil, err
		}
		h.m++
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("lmo: atoms: %w", err)
	}
	if h == nil {
		return nil, errors.New("lmo: atoms: missing header line \"dense N\" or \"sparse N\"")
	}
	if h.m == 0 {
		return nil, errors.New("lmo: atoms: no atoms after the header line")
	}
	return h, nil
}

// hullHeader parses the header line "dense N" or "sparse N".
func hullHeader(ln int, fields []string) (*ConvexHull, error) {
	if len(fields) != 2 || (fields[0] != "dense" && fields[0] != "sparse") {
		return nil, fmt.Errorf("lmo: atoms: line %d: expected the header \"dense N\" or \"sparse N\", got %q", ln, strings.Join(fields, " "))
	}
	n, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil || n < 1 || n > math.MaxInt32 {
		return nil, fmt.Errorf("lmo: atoms: line %d: dimension N must be an integer in [1, %d], got %q", ln, math.MaxInt32, fields[1])
	}
	if fields[0] == "dense" {
		return &ConvexHull{n: int(n), dense: []float64{}}, nil
	}
	return &ConvexHull{n: int(n), ptr: []int{0}}, nil
}

// readDense appends a dense atom line.
func (h *ConvexHull) readDense(ln int, fields []string) error {
	if len(fields) != h.n {
		return fmt.Errorf("lmo: atoms: line %d: expected %d numbers (the dimension), got %d", ln, h.n, len(fields))
	}
	for i, f := range fields {
		x, err := fileio.ParseFinite(f)
		if err != nil {
			return fmt.Errorf("lmo: atoms: line %d, coordinate %d: %v", ln, i+1, err)
		}
		h.dense = append(h.dense, x)
	}
	return nil
}

// readSparse appends a sparse atom line of INDEX:VALUE pairs.
func (h *ConvexHull) readSparse(ln int, fields []string) error {
	prev := int64(0)
	for _, f := range fields {
		is, vs, ok := strings.Cut(f, ":")
		if !ok {
			return fmt.Errorf("lmo: atoms: line %d: expected INDEX:VALUE, got %q", ln, f)
		}
		i, err := strconv.ParseInt(is, 10, 64)
		if err != nil || i < 1 || i > int64(h.n) {
			return fmt.Errorf("lmo: atoms: line %d: index must be an integer in [1, %d], got %q", ln, h.n, is)
		}
		if i <= prev {
			return fmt.Errorf("lmo: atoms: line %d: index %d after index %d: indices must increase", ln, i, prev)
		}
		prev = i
		x, err := fileio.ParseFinite(vs)
		if err != nil {
			return fmt.Errorf("lmo: atoms: line %d, index %d: %v", ln, i, err)
		}
		if x != 0 {
			h.idx = append(h.idx, int32(i-1))
			h.val = append(h.val, x)
		}
	}
	h.ptr = append(h.ptr, len(h.val))
	return nil
}

// WriteConvexHull writes h in the format read by ReadConvexHull, with
// numbers in the shortest form that reads back exactly.
func WriteConvexHull(w io.Writer, h *ConvexHull) error {
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 32)
	if h.dense != nil {
		fmt.Fprintf(bw, "dense %d\n", h.n)
		for k := 0; k < h.m; k++ {
			for i, x := range h.dense[k*h.n : (k+1)*h.n] {
				if i > 0 {
					bw.WriteByte(' ')
				}
				bw.Write(strconv.AppendFloat(buf[:0], x, 'g', -1, 64))
			}
			bw.WriteByte('\n')
		}
	} else {
		fmt.Fprintf(bw, "sparse %d\n", h.n)
		for k := 0; k < h.m; k++ {
			lo, hi := h.ptr[k], h.ptr[k+1]
			if lo == hi {
				bw.WriteString("1:0\n")
				continue
			}
			for t := lo; t < hi; t++ {
				if t > lo {
					bw.WriteByte(' ')
				}
				buf = strconv.AppendInt(buf[:0], int64(h.idx[t])+1, 10)
				buf = append(buf, ':')
				bw.Write(strconv.AppendFloat(buf, h.val[t], 'g', -1, 64))
			}
			bw.WriteByte('\n')
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("lmo: atoms: write: %w", err)
	}
	return nil
}
