//go:build cgo

package cbc

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
	"unsafe"

	"github.com/lazycg/lazycg/mip"
)

func init() { mip.RegisterBackend("cbc", Backend{}) }

// Backend is CBC as a mip.Backend. Its zero value is ready to use.
type Backend struct{}

var _ mip.Backend = Backend{}

// The shim's outcomes are mip's.
var _ = [1]struct{}{}[int(C.LCG_UNBOUNDED)-int(mip.OutcomeUnbounded)]
var _ = [1]struct{}{}[int(C.LCG_CANCELED)-int(mip.OutcomeCanceled)]

// engine is one model loaded into CBC.
type engine struct {
	p      *C.lcg_cbc
	block  unsafe.Pointer // C memory: params, result, obj, x and start
	params *C.lcg_cbc_params
	res    *C.lcg_cbc_result
	obj    []float64 // C memory, one entry per column
	x      []float64 // C memory, one entry per column
	start  []float64 // C memory, one entry per column: warm start

	nonzeros int // of the constraint matrix

	fired    chan struct{}
	cancelFn func()
}

// Load implements mip.Backend: it copies m into CBC. mip.NewSolver calls
// it with a validated model; called directly, it returns m.Validate's
// error for a nil or malformed model (one CBC would read out of bounds,
// or one with NaN entries or crossed bounds).
func (Backend) Load(ctx context.Context, m *mip.Model) (mip.Engine, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	nc, nr := m.NumCols(), m.NumRows()
	if nc == 0 {
		return nil, errors.New("mip: cbc: model has no columns")
	}
	isInt := make([]C.uchar, nc)
	for j, b := range m.Integer {
		if b {
			isInt[j] = 1
		}
	}
	start, index, value := sparseC(m.Start, m.Index, m.Value)
	rowLo := append(append(make([]float64, 0, nr+1), m.RowLo...), 0)
	rowUp := append(append(make([]float64, 0, nr+1), m.RowUp...), 0)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mip: cbc: loading %s: %w", m.Name, err)
	}

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
	if err := ctx.Err(); err != nil {
		C.lcg_cbc_free(p)
		return nil, fmt.Errorf("mip: cbc: loading %s: %w", m.Name, err)
	}
	if m.Cuts != nil && m.Cuts.NumRows() > 0 {
		if err := setCuts(p, m.Cuts); err != nil {
			C.lcg_cbc_free(p)
			return nil, fmt.Errorf("mip: cbc: loading %s: %w", m.Name, err)
		}
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
	e := &engine{
		p:      p,
		block:  block,
		params: (*C.lcg_cbc_params)(block),
		res:    (*C.lcg_cbc_result)(unsafe.Add(block, offR)),
		obj:    unsafe.Slice((*float64)(unsafe.Add(block, offO)), nc),
		x:      unsafe.Slice((*float64)(unsafe.Add(block, offX)), nc),
		start:  unsafe.Slice((*float64)(unsafe.Add(block, offS)), nc),
		fired:  make(chan struct{}, 1),

		nonzeros: m.NumNonzeros(),
	}
	e.params.obj = (*C.double)(unsafe.Pointer(&e.obj[0]))
	e.res.x = (*C.double)(unsafe.Pointer(&e.x[0]))
	e.cancelFn = func() {
		C.lcg_cbc_cancel(p)
		e.fired <- struct{}{}
	}
	return e, nil
}

// lightNonzeros is the size below which SearchAuto means SearchLight.
const lightNonzeros = 20000

// light resolves the search of a call: SearchAuto is the light search on
// models with fewer than lightNonzeros nonzeros, CBC's standard solve path
// on larger ones (see doc.go).
func (e *engine) light(s mip.Search) bool {
	return s == mip.SearchLight || s == mip.SearchAuto && e.nonzeros < lightNonzeros
}

// Resolve returns the search a call with search s runs on m: s itself,
// or for mip.SearchAuto the light search on models with fewer than 20,000
// constraint nonzeros (a nil m has none) and the standard one on larger
// models.
func Resolve(m *mip.Model, s mip.Search) mip.Search {
	if s != mip.SearchAuto {
		return s
	}
	if m == nil || m.NumNonzeros() < lightNonzeros {
		return mip.SearchLight
	}
	return mip.SearchStandard
}

// sparseC copies a compressed sparse matrix (starts, indices, values) into
// C-compatible arrays; the last two get one spare entry, so that an empty
// matrix still has an address to pass.
func sparseC(start, index []int, value []float64) (cs, ci []C.int, cv []float64) {
	cs = make([]C.int, len(start))
	for k, v := range start {
		cs[k] = C.int(v)
	}
	ci = make([]C.int, len(index)+1)
	for k, v := range index {
		ci[k] = C.int(v)
	}
	cv = append(append(make([]float64, 0, len(value)+1), value...), 0)
	return cs, ci, cv
}

// setCuts hands the model's cut pool to the shim, which separates it in
// the solves that ask for it (mip.SolveParams.Pool).
func setCuts(p *C.lcg_cbc, c *mip.CutPool) error {
	n := c.NumRows()
	start, index, value := sparseC(c.Start, c.Index, c.Value)
	C.lcg_cbc_set_cuts(p, C.int(n), &start[0], &index[0], (*C.double)(&value[0]),
		(*C.double)(&c.Lo[0]), (*C.double)(&c.Up[0]))
	if msg := C.GoString(C.lcg_cbc_error(p)); msg != "" {
		return errors.New(msg)
	}
	return nil
}

// Close implements mip.Engine.
func (e *engine) Close() {
	if e.p == nil {
		return
	}
	C.lcg_cbc_free(e.p)
	C.free(e.block)
	e.p, e.block, e.params, e.res, e.obj, e.x, e.start = nil, nil, nil, nil, nil, nil, nil
}

// SetColBounds implements mip.Engine.
func (e *engine) SetColBounds(j int, lo, up float64) {
	C.lcg_cbc_set_col_bounds(e.p, C.int(j), C.double(lo), C.double(up))
}

// Solve implements mip.Engine.
func (e *engine) Solve(ctx context.Context, sp *mip.SolveParams, r *mip.SolveResult) error {
	if e.p == nil {
		return errors.New("mip: cbc: engine is closed")
	}
	// Standard searches of different engines overlap in their
	// branch-and-bound only; the shim serializes the rest of CbcMain1,
	// which keeps process-wide state (a call waiting for its turn ends
	// when canceled or out of time).
	light := e.light(sp.Search)

	copy(e.obj, sp.Obj)
	p := e.params
	p.improve = C.double(sp.Improve)
	p.certify = C.double(sp.Certify)
	p.cutoff = C.double(sp.Cutoff)
	p.time_limit = C.double(sp.TimeLimit.Seconds())
	p.rel_gap = C.double(sp.RelGap)
	p.threads = C.int(sp.Threads)
	p.preprocess = 0
	if sp.Preprocess {
		p.preprocess = 1
	}
	p.light = 0
	if light {
		p.light = 1
	}
	p.first_lp = C.int(sp.FirstLP)
	p.pool = 0
	if sp.Pool {
		p.pool = 1
	}
	p.dive = 0
	if sp.Dive {
		p.dive = 1
	}
	p.start = nil
	if sp.Start != nil {
		copy(e.start, sp.Start)
		p.start = (*C.double)(unsafe.Pointer(&e.start[0]))
	}

	C.lcg_cbc_clear_cancel(e.p)
	var stop func() bool
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, e.cancelFn)
	}
	code := C.lcg_cbc_solve(e.p, p, e.res)
	if stop != nil && !stop() {
		<-e.fired // the cancel function ran: wait until it is done
	}
	cr := e.res
	r.Found = cr.found != 0
	r.Value = float64(cr.value)
	r.Bound = float64(cr.bound)
	r.Nodes = int64(cr.nodes)
	r.Outcome = mip.Outcome(cr.outcome)
	r.FirstLP, r.WarmCut = mip.FirstLPAuto, false
	switch cr.first_lp {
	case 1:
		r.FirstLP = mip.FirstLPWarm
	case 2:
		r.FirstLP = mip.FirstLPCold
	case 3:
		r.FirstLP, r.WarmCut = mip.FirstLPCold, true
	}
	if code != C.LCG_OK {
		return fmt.Errorf("mip: cbc: %s", C.GoString(C.lcg_cbc_error(e.p)))
	}
	if r.Found {
		copy(r.X, e.x)
	}
	return nil
}

// holdMain takes (hold) or releases the lock that serializes CBC's
// standard solve path outside branch-and-bound, as a standard search in
// its setup holds it; taking reports false when it was held already. A
// test hook (HoldMain in export_test.go).
func holdMain(hold bool) bool {
	h := C.int(0)
	if hold {
		h = 1
	}
	return C.lcg_cbc_test_hold_main(h) != 0
}
