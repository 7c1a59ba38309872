//go:build cgo

package cbc

import "github.com/lazycg/lazycg/mip"

// FirstLPCutAtOnce is the engine's test mode of SolveParams.FirstLP that
// cuts every warm re-solve at its first simplex iteration, so that tests
// reach the fallback to a cold solve without depending on timings.
const FirstLPCutAtOnce = mip.FirstLP(3)

// HoldMain takes (true) or releases (false) the lock that standard
// searches hold outside branch-and-bound.
var HoldMain = holdMain
