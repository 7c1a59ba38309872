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
// early when it implements EarlyStopper; AugmentingSeparator realizes it by
// augmentation (Algorithm 9).
//
// # Architecture
//
// A run flows from the problem through the driver and the method to the
// oracle and the LMO:
//
//	Problem{Objective, LMO, Separator?, X0?}        what to solve (package spec builds it from text)
//	  └─ Minimize(ctx, p, *Settings, Method)        driver.go: limits, counters, proven dual bound, trace
//	       ├─ Run                                   run.go: clock, time-limit context, Canceled/TimeLimit, Stats
//	       └─ Method.Init/Step(ctx, *State)         one file per method family: fw.go, lazy.go, away.go, blended.go,
//	            │                                   pairwise.go, local.go, pfw.go, bcg.go, blockfw.go, stochastic.go;
//	            │                                   Φ of the lazy ones: phi.go (PhiSchedule); steps: linesearch.go
//	            └─ Oracle                           oracle.go: counted LMO, face and weak separation calls;
//	                 │                              concurrent.go: the LMO call of weak separation in a goroutine
//	                 │                              of its own (SeparatorConfig.Concurrent)
//	                 ├─ WeakSeparator, VertexStore  separator.go, cache.go (Algorithm 2), augment.go (Algorithm 9)
//	                 └─ LMO, EarlyStopper, …        lmo.go; realizations in packages lmo and mip
//	                                                (VertexCompactor, BatchDotter, MoveRecorder: LMOs
//	                                                with factored vertices, such as lmo.NuclearBallOn)
//
// Minimize owns the limits, the counters, the dual bound and the trace; a
// Method owns its steps and reaches the oracles only through the Oracle,
// which counts every call and never lets a method look behind the
// separator (optional capabilities such as VertexStore are interfaces).
// The online driver (package online) plays a stream of losses on the same
// Run and Oracle, and computes the best point in hindsight with Minimize.
// MinimizeDC (dca.go) minimizes a difference of convex functions by
// solving a sequence of convex subproblems with Minimize, all sharing one
// weak separation oracle.
// Package spec turns text (specs, flags, suite files) into problems,
// separators and methods through one configuration type; package
// experiment runs suites of them and writes reports; cmd/lazycg is the CLI.
package lazycg
