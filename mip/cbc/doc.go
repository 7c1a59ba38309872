// Package cbc registers CBC 2.10 (COIN-OR branch-and-cut on Clp, driven
// through a small C++ shim) as the "cbc" backend of package mip. Import it
// for its side effect:
//
//	import _ "github.com/lazycg/lazycg/mip/cbc"
//
// It needs cgo and CBC's development files (Debian: coinor-libcbc-dev).
//
// Each solve first solves the LP relaxation (answering from it when it
// already decides the call: infeasible, unbounded, above the cutoff or the
// bound to certify, integral, or attained by the warm start), then runs
// CBC's standard solve path, the one the cbc program runs for "cbc -solve"
// (CbcMain1: CBC's cut generators; its rounding, feasibility pump, greedy
// cover, greedy equality, coefficient diving, RINS and combine heuristics;
// its branching),
// with an event handler that stops the search as soon as the call's
// question is answered: an incumbent below Improve, a bound at least
// Certify, incumbent and bound within RelGap (checked during the root cut
// loop as well as in the tree), the deadline or a cancellation. Calls that
// ask for any feasible point also stop CBC's heuristics at their first
// solution (as "cbc -maxSolutions 1"). Each call's first LP starts from the
// previous call's optimal basis. Integer preprocessing is off unless
// mip.Options.Preprocess is set, and package mip re-checks every returned
// point against the model either way.
//
// A Clp event handler in every LP (the first one, CBC's, its heuristics')
// ends simplex iterations when the call is canceled or out of time, so a
// huge root LP no longer delays either; after such a stop only bounds seen
// before it are reported. CBC's standard solve path keeps process-wide
// state, so solves of different solvers in one process run one at a time
// (a call waiting for its turn still honours its context). CBC prints
// nothing. Loading the package raises glibc's mmap and trim thresholds
// (mallopt: 64 MiB, 256 MiB), so that the large blocks every solve
// allocates and frees are reused instead of returned to the system.
//
// Built without cgo (CGO_ENABLED=0) the package compiles but registers no
// backend, so that programs importing it still build; mip.NewSolver then
// returns mip.ErrNoBackend.
package cbc
