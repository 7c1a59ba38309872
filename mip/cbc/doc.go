// Package cbc registers CBC 2.10 (COIN-OR branch-and-cut on Clp, driven
// through a small C++ shim) as the "cbc" backend of package mip. Import it
// for its side effect:
//
//	import _ "github.com/lazycg/lazycg/mip/cbc"
//
// It needs cgo and CBC's development files (Debian: coinor-libcbc-dev).
//
// Each solve first solves the LP relaxation from the previous call's
// optimal basis, answering from it when it already decides the call
// (infeasible, unbounded, above the cutoff or the bound to certify,
// integral, or attained by the warm start), then runs one of two searches
// with an event handler that stops it as soon as the call's question is
// answered: an incumbent below Improve (any incumbent when Improve = +Inf,
// and then CBC's heuristics also stop at their first solution), a bound at
// least Certify, incumbent and bound within RelGap (checked during the
// root cut loop as well as in the tree), the deadline or a cancellation.
//
//   - mip.SearchStandard is CBC's standard solve path, the one the cbc
//     program runs for "cbc -solve" (CbcMain1: CBC's cut generators, at the
//     root and in the tree; its rounding, feasibility pump, greedy cover,
//     greedy equality, coefficient diving, RINS and combine heuristics; its
//     branching), with integer preprocessing on the calls that
//     mip.Options.Preprocess selects (by default a solver's first call
//     when it asks for any feasible point: CBC 2.10.8's preprocessing is
//     not sound, see mip.Options.Preprocess).
//   - mip.SearchLight is a lighter branch-and-cut: cuts at the root only
//     (probing, Gomory, knapsack, clique, flow cover, MIR; at most 10
//     rounds), the rounding, greedy cover, greedy equality, feasibility
//     pump, coefficient diving and RINS heuristics, and strong branching.
//   - mip.SearchAuto, the default, is the light search on models with fewer
//     than 20,000 nonzeros and the standard one on larger models. Measured
//     (docs/ORACLE.md): on the small combinatorial formulations (a 23-node
//     cut polytope, a 12-node TSP) the light search needs a third to a
//     quarter of the standard one's CPU time per exact call; on the
//     paper's MIPLIB instances the standard search keeps up with the cbc
//     program where the light one falls behind (air04).
//
// A model's cut pool (mip.Model.Cuts) is separated on the calls that ask
// for it (mip.SolveParams.Pool, from mip.Options.Pool): a cut generator
// adds the most violated of its inequalities (at most 500 per round) at
// every node of either search, as globally valid cuts; the standard search
// leaves it out on calls with preprocessing, whose model has other columns.
//
// Each call's objective is divided by a power of two that brings its
// largest coefficient into [1, 2) (exact, and the argmin is the same;
// thresholds are divided and values and bounds multiplied back), because
// CBC's tolerances are absolute and Clp aborts the process on a cost of
// magnitude 1e25 or more. Integral objectives below 2^53 keep their scale
// so that CBC prunes them by whole units. Costs many orders of magnitude
// below the largest are then below CBC's tolerances: answers are exact to
// about 1e-9 of the largest cost.
//
// A Clp event handler in every LP (the first one, CBC's, its heuristics')
// ends simplex iterations when the call is canceled or out of time, so a
// huge root LP no longer delays either; after such a stop only bounds seen
// before it are reported. CBC's standard solve path keeps process-wide
// state outside branch-and-bound (its command reader), so standard
// searches of different solvers in one process take turns in their setup
// (parsing, preprocessing, postprocessing) and overlap in their
// branch-and-bound (a call waiting for its turn still honours its context
// and time limit); light searches overlap entirely. CBC prints
// nothing. Loading the package raises glibc's mmap and trim thresholds
// (mallopt: 64 MiB, 256 MiB), so that the large blocks every solve
// allocates and frees are reused instead of returned to the system.
//
// Built without cgo (CGO_ENABLED=0) the package compiles but registers no
// backend, so that programs importing it still build; mip.NewSolver then
// returns mip.ErrNoBackend.
package cbc
