// Package lazycg implements lazified conditional gradient (Frank–Wolfe)
// algorithms after Braun, Pokutta and Zink, "Lazifying Conditional Gradient
// Algorithms".
//
// A problem is a smooth convex Objective over a polytope P that is reachable
// only through a linear minimization oracle (LMO). Lazy methods replace the
// LMO by a weak separation oracle (WeakSeparator): a call either returns a
// vertex y with c·(x−y) > Φ/K or certifies c·(x−z) ≤ Φ for every z in P.
// The default realization (CachedSeparator) first scans a cache of earlier
// vertices and calls the LMO only when none is good enough, stopping the LMO
// early when it implements EarlyStopper.
//
// Minimize is the single driver: it owns limits, statistics, the dual bound
// and the trace, while a Method owns its steps.
package lazycg
