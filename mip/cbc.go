package mip

/*
#cgo pkg-config: cbc
#cgo CXXFLAGS: -std=c++11 -O2 -Wall
#include <stdlib.h>
#include "cbc_shim.h"

static void *lcg_cbc_alloc(size_t n) { return calloc(1, n); }
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
	"unsafe"
)

// Options configures a CBC-backed Solver.
type Options struct {
	// RelGap is the relative gap at which CBC stops (0 = solve exactly; the
	// paper's baselines use 0.1). A call stopped by it reports StopGap.
	RelGap float64
	// TimeLimit bounds the wall-clock time of each call (0 = none). A call
	// that reaches it reports StopTimeLimit and returns its incumbent, or an
	// error when it has none.
	TimeLimit time.Duration
	// Threads is the number of CBC threads (0 or 1 = one).
	Threads int
	// Vars lists the model columns that are the coordinates of the polytope,
	// in order (nil = all columns). Other columns (e.g. flow variables of an
	// extended formulation) get objective 0 and are projected away.
	Vars []int
	// RequireBinary makes NewSolver fail unless every column of Vars is an
	// integer column with bounds within [0, 1].
	RequireBinary bool
}

// Solver minimizes linear objectives over the integer hull of a Model with
// CBC 2.10 (branch-and-cut on Clp, driven through a small C++ shim). Its
// vertices are the projections onto Options.Vars of the feasible solutions
// of the model.
//
// Solver implements lazycg.LMO, lazycg.EarlyStopper, lazycg.FaceMinimizer
// and lazycg.Augmenter. Each call builds a CBC model from the loaded one
// with root cuts (probing, Gomory, knapsack, clique, flow cover, MIR; at
// most 10 rounds), the rounding, feasibility pump and RINS heuristics, and
// an event handler that ends the search as soon as the call's question is
// answered. The last vertex returned is remembered and handed to CBC as the
// first incumbent of the next call (warm start; this halves the time of
// exact calls on eil33-2 with slowly changing objectives). CBC prints
// nothing.
//
// A canceled context is noticed at CBC's next event (node, heuristic
// solution, cut round), not inside an LP solve, so a huge root LP delays
// cancellation until it is solved.
//
// A Solver holds C memory: Close must be called when it is no longer
// needed (there is no finalizer). A Solver is not safe for concurrent use.
type Solver struct {
	p      *C.lcg_cbc
	block  unsafe.Pointer // C memory: params, result, obj and x
	params *C.lcg_cbc_params
	res    *C.lcg_cbc_result
	obj    []float64 // C memory, one entry per column
	x      []float64 // C memory, one entry per column
	start  []float64 // C memory, one entry per column: warm start

	opts    Options
	vars    []int
	isInt   []bool    // per column
	colUp   []float64 // per column: the model's upper bounds
	last    []float64 // per column: last vertex returned
	lastOK  bool
	changed []int // columns whose upper bound MinimizeFace lowered

	fired    chan struct{}
	cancelFn func()
}

// cbcStatus is the outcome of one CBC run.
type cbcStatus struct {
	found  bool
	value  float64 // CBC's objective of x
	bound  float64
	nodes  int64
	reason int // cbcOptimal ...
	code   int // cbcOK ...
}

// Stop reasons and return codes of the shim (see cbc_shim.h).
const (
	cbcOptimal   = int(C.LCG_OPTIMAL)
	cbcGap       = int(C.LCG_GAP)
	cbcImproving = int(C.LCG_IMPROVING)
	cbcCertified = int(C.LCG_CERTIFIED)
	cbcTimeLimit = int(C.LCG_TIMELIMIT)
	cbcCanceled  = int(C.LCG_CANCELED)

	cbcOK         = int(C.LCG_OK)
	cbcInfeasible = int(C.LCG_INFEASIBLE)
	cbcUnbounded  = int(C.LCG_UNBOUNDED)
	cbcError      = int(C.LCG_ERROR)
)

// NewSolver loads m into CBC. The model is copied, so m may be changed or
// discarded afterwards. It checks the model (array lengths, NaN, bounds)
// and opts, but not feasibility: an infeasible model is reported by the
// first call that solves.
func NewSolver(m *Model, opts Options) (*Solver, error) {
	if err := checkModel(m); err != nil {
		return nil, err
	}
	if math.IsNaN(opts.RelGap) || opts.RelGap < 0 || math.IsInf(opts.RelGap, 0) {
		return nil, fmt.Errorf("mip: cbc: RelGap must be a finite number ≥ 0, got %g", opts.RelGap)
	}
	if opts.TimeLimit < 0 {
		return nil, fmt.Errorf("mip: cbc: negative TimeLimit %v", opts.TimeLimit)
	}
	if opts.Threads < 0 {
		return nil, fmt.Errorf("mip: cbc: negative Threads %d", opts.Threads)
	}
	nc, nr := m.NumCols(), m.NumRows()
	if nc == 0 {
		return nil, errors.New("mip: cbc: model has no columns")
	}
	vars := opts.Vars
	if vars == nil {
		vars = make([]int, nc)
		for j := range vars {
			vars[j] = j
		}
	} else {
		if len(vars) == 0 {
			return nil, errors.New("mip: cbc: Options.Vars is empty (nil selects all columns)")
		}
		seen := make([]bool, nc)
		for i, j := range vars {
			if j < 0 || j >= nc {
				return nil, fmt.Errorf("mip: cbc: Options.Vars[%d] = %d is not a column (model has %d)", i, j, nc)
			}
			if seen[j] {
				return nil, fmt.Errorf("mip: cbc: Options.Vars lists column %d twice", j)
			}
			seen[j] = true
		}
		vars = append([]int(nil), vars...)
	}
	if opts.RequireBinary {
		for _, j := range vars {
			if !m.Integer[j] || m.ColLo[j] < 0 || m.ColUp[j] > 1 {
				return nil, fmt.Errorf("mip: cbc: column %s is not binary (integer %v, bounds [%g, %g]) but binary variables are required",
					colName(m, j), m.Integer[j], m.ColLo[j], m.ColUp[j])
			}
		}
	}
	opts.Vars = vars

	isInt := make([]C.uchar, nc)
	for j, b := range m.Integer {
		if b {
			isInt[j] = 1
		}
	}
	start := make([]C.int, nc+1)
	for j, v := range m.Start {
		start[j] = C.int(v)
	}
	index := make([]C.int, len(m.Index)+1) // +1: never a nil pointer
	for k, v := range m.Index {
		index[k] = C.int(v)
	}
	value := append(make([]float64, 0, len(m.Value)+1), m.Value...)
	value = append(value, 0)
	rowLo := append(append(make([]float64, 0, nr+1), m.RowLo...), 0)
	rowUp := append(append(make([]float64, 0, nr+1), m.RowUp...), 0)

	p := C.lcg_cbc_new(C.int(nc), C.int(nr), &start[0], &index[0], (*C.double)(&value[0]),
		(*C.double)(&m.ColLo[0]), (*C.double)(&m.ColUp[0]), &isInt[0],
		(*C.double)(&rowLo[0]), (*C.double)(&rowUp[0]))
	if p == nil {
		return nil, errors.New("mip: cbc: out of memory loading the model")
	}
	if msg := C.GoString(C.lcg_cbc_error(p)); msg != "" {
		C.lcg_cbc_free(p)
		return nil, fmt.Errorf("mip: cbc: %s", msg)
	}
	sizeP := unsafe.Sizeof(C.lcg_cbc_params{})
	sizeR := unsafe.Sizeof(C.lcg_cbc_result{})
	offR := (sizeP + 15) &^ 15
	offO := (offR + sizeR + 15) &^ 15
	offX := offO + uintptr(nc)*8
	offS := offX + uintptr(nc)*8
	block := C.lcg_cbc_alloc(C.size_t(offS + uintptr(nc)*8))
	if block == nil {
		C.lcg_cbc_free(p)
		return nil, errors.New("mip: cbc: out of memory")
	}
	s := &Solver{
		p:      p,
		block:  block,
		params: (*C.lcg_cbc_params)(block),
		res:    (*C.lcg_cbc_result)(unsafe.Add(block, offR)),
		obj:    unsafe.Slice((*float64)(unsafe.Add(block, offO)), nc),
		x:      unsafe.Slice((*float64)(unsafe.Add(block, offX)), nc),
		start:  unsafe.Slice((*float64)(unsafe.Add(block, offS)), nc),
		opts:   opts,
		vars:   vars,
		isInt:  append([]bool(nil), m.Integer...),
		colUp:  append([]float64(nil), m.ColUp...),
		last:   make([]float64, nc),
		fired:  make(chan struct{}, 1),
	}
	s.params.obj = (*C.double)(unsafe.Pointer(&s.obj[0]))
	s.res.x = (*C.double)(unsafe.Pointer(&s.x[0]))
	s.cancelFn = func() {
		C.lcg_cbc_cancel(p)
		s.fired <- struct{}{}
	}
	return s, nil
}

// Close frees the C memory of the solver. It must be called exactly when
// the solver is no longer used; later calls of Close do nothing, later
// solves return an error.
func (s *Solver) Close() {
	if s.p == nil {
		return
	}
	C.lcg_cbc_free(s.p)
	C.free(s.block)
	s.p, s.block, s.params, s.res, s.obj, s.x, s.start = nil, nil, nil, nil, nil, nil, nil
}

// Dim returns the dimension of the polytope, len(Options.Vars).
func (s *Solver) Dim() int { return len(s.vars) }

// Vars returns the model columns that are the coordinates of the polytope.
// The slice must not be modified.
func (s *Solver) Vars() []int { return s.vars }

// setColUpper changes the upper bound of column j in CBC's model.
func (s *Solver) setColUpper(j int, v float64) {
	C.lcg_cbc_set_col_upper(s.p, C.int(j), C.double(v))
}

// errClosed is returned by calls on a closed Solver.
var errClosed = errors.New("mip: cbc: solver is closed")

// run solves min obj·x (obj already in s.obj) with CBC. cutoff, improve and
// certify are ±Inf when unused; with warm, s.last is CBC's first incumbent.
func (s *Solver) run(ctx context.Context, improve, certify, cutoff float64, first, warm bool) (cbcStatus, error) {
	if s.p == nil {
		return cbcStatus{}, errClosed
	}
	if err := ctx.Err(); err != nil {
		return cbcStatus{reason: cbcCanceled}, fmt.Errorf("mip: cbc: %w", err)
	}
	p := s.params
	p.improve = C.double(improve)
	p.certify = C.double(certify)
	p.cutoff = C.double(cutoff)
	p.time_limit = C.double(s.opts.TimeLimit.Seconds())
	p.rel_gap = C.double(s.opts.RelGap)
	p.first_solution = 0
	if first {
		p.first_solution = 1
	}
	p.threads = C.int(s.opts.Threads)
	p.start = nil
	if warm {
		copy(s.start, s.last)
		p.start = (*C.double)(unsafe.Pointer(&s.start[0]))
	}

	C.lcg_cbc_clear_cancel(s.p)
	var stop func() bool
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, s.cancelFn)
	}
	code := C.lcg_cbc_solve(s.p, p, s.res)
	if stop != nil && !stop() {
		<-s.fired // the cancel function ran: wait until it is done
	}
	r := s.res
	st := cbcStatus{
		found:  r.found != 0,
		value:  float64(r.value),
		bound:  float64(r.bound),
		nodes:  int64(r.nodes),
		reason: int(r.reason),
		code:   int(code),
	}
	if st.code == cbcError {
		return st, fmt.Errorf("mip: cbc: %s", C.GoString(C.lcg_cbc_error(s.p)))
	}
	if st.reason == cbcCanceled {
		err := ctx.Err()
		if err == nil {
			err = context.Canceled
		}
		return st, fmt.Errorf("mip: cbc: %w", err)
	}
	if st.found {
		for j, v := range s.x {
			if s.isInt[j] {
				if r := math.Round(v); math.Abs(v-r) <= 1e-6 {
					s.x[j] = r
				}
			}
		}
	}
	return st, nil
}

// checkModel validates the arrays of m.
func checkModel(m *Model) error {
	if m == nil {
		return errors.New("mip: cbc: nil model")
	}
	nc, nr := len(m.ColLo), len(m.RowLo)
	if len(m.ColUp) != nc || len(m.Integer) != nc || len(m.Obj) != nc || len(m.Start) != nc+1 {
		return fmt.Errorf("mip: cbc: inconsistent model: %d lower bounds, %d upper bounds, %d integrality flags, %d objective entries, %d column starts",
			nc, len(m.ColUp), len(m.Integer), len(m.Obj), len(m.Start))
	}
	if len(m.RowUp) != nr {
		return fmt.Errorf("mip: cbc: inconsistent model: %d row lower bounds, %d upper bounds", nr, len(m.RowUp))
	}
	if len(m.Index) != len(m.Value) || m.Start[0] != 0 || m.Start[nc] != len(m.Index) {
		return fmt.Errorf("mip: cbc: inconsistent model: %d row indices, %d values, column starts from %d to %d",
			len(m.Index), len(m.Value), m.Start[0], m.Start[nc])
	}
	if uint64(len(m.Index)) > math.MaxInt32 || nc > math.MaxInt32-1 || nr > math.MaxInt32 {
		return errors.New("mip: cbc: model too large for CBC (32-bit indices)")
	}
	for j := 0; j < nc; j++ {
		if m.Start[j+1] < m.Start[j] {
			return fmt.Errorf("mip: cbc: column starts decrease at column %s", colName(m, j))
		}
		lo, up := m.ColLo[j], m.ColUp[j]
		if math.IsNaN(lo) || math.IsNaN(up) || math.IsInf(lo, 1) || math.IsInf(up, -1) || lo > up {
			return fmt.Errorf("mip: cbc: column %s has invalid bounds [%g, %g]", colName(m, j), lo, up)
		}
		if o := m.Obj[j]; math.IsNaN(o) || math.IsInf(o, 0) {
			return fmt.Errorf("mip: cbc: column %s has objective coefficient %g", colName(m, j), o)
		}
		for k := m.Start[j]; k < m.Start[j+1]; k++ {
			if i := m.Index[k]; i < 0 || i >= nr {
				return fmt.Errorf("mip: cbc: column %s has an entry in row %d (model has %d rows)", colName(m, j), i, nr)
			}
			if v := m.Value[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("mip: cbc: column %s has coefficient %g", colName(m, j), v)
			}
		}
	}
	for i := 0; i < nr; i++ {
		lo, up := m.RowLo[i], m.RowUp[i]
		if math.IsNaN(lo) || math.IsNaN(up) || math.IsInf(lo, 1) || math.IsInf(up, -1) || lo > up {
			return fmt.Errorf("mip: cbc: row %s has invalid bounds [%g, %g]", rowName(m, i), lo, up)
		}
	}
	if math.IsNaN(m.ObjConst) || math.IsInf(m.ObjConst, 0) {
		return fmt.Errorf("mip: cbc: objective constant %g", m.ObjConst)
	}
	return nil
}

func colName(m *Model, j int) string {
	if j < len(m.ColNames) && m.ColNames[j] != "" {
		return fmt.Sprintf("%q (%d)", m.ColNames[j], j)
	}
	return fmt.Sprintf("%d", j)
}

func rowName(m *Model, i int) string {
	if i < len(m.RowNames) && m.RowNames[i] != "" {
		return fmt.Sprintf("%q (%d)", m.RowNames[i], i)
	}
	return fmt.Sprintf("%d", i)
}
