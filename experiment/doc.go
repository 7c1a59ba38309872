// Package experiment reproduces the experiments of section 7 of "Lazifying
// Conditional Gradient Algorithms" (Braun, Pokutta, Zink).
//
// An Experiment is one column of a figure of the paper: a polytope spec, an
// objective spec (or an online loss stream) and a set of method variants,
// usually a non-lazy baseline and its lazy counterpart, with a time limit
// and the paper's reference data (figure label, cache hit rate). A Suite is
// a list of experiments: a built-in one (Builtin: "paper", "quick",
// "caching", "k-effect", "textbook") or a JSON spec file (ParseSuite).
//
// An experiment's run settings are a spec.Config (the suite file sets them
// by the field names of spec.Settings); a variant's run is configured by
// Experiment.RunConfig. A Runner executes the variants of each experiment
// in turn on identical inputs (same seeds, a fresh spec.Config.Prepare per
// run, as the CLI does; non-lazy baselines get the inexact MIP oracle) and
// writes, per experiment, OUT/NAME/LABEL.csv traces, OUT/NAME/summary.json
// and OUT/NAME/figure.png (and .svg), and for the suite OUT/summary.json,
// OUT/summary.md and OUT/report.md, which accumulate: the experiments of
// an earlier run of the same suite at the same time scale in OUT stay
// beside those run again (benches side by side into one OUT included).
// Derived
// numbers (the time the lazy method needs to reach the baseline's final
// primal value and the speedup) are computed from the written traces, and
// dual bounds only from the driver's proven bounds.
//
// Online experiments run the online methods of the spec registry
// (spec.Method with MethodInfo.Online): "ocg" (the non-lazy baseline),
// "locg" (Algorithm 8 with Theorem 5.1's constants) and "locg-pf" (the
// parameter-free LOCG, online.Params.ParameterFree), with parameters
// derived by spec.DeriveOnlineParams as the CLI's online command does.
// CachingStudy reruns the paper's caching study on one online problem.
// Online experiments follow the paper's protocol as read in docs/ONLINE.md:
// every round draws one of 100 random losses, until the time limit. The
// built-in suites pit locg-pf against OCG in every online figure: with the
// theorem's constants Φ_t ≥ ‖∇f_t‖·D/(1 + γ_t/K), so once x_t is close to
// optimal LOCG gets (almost) only negative answers and calls the LMO in
// every round, whereas every online figure of the paper shows LOCG
// answered from its cache in most rounds: cache hit rates of 89–99.99% in
// all but three columns (eil33-2 with 53.1% and 72.2%, and fig:tspLarge's
// quadratic losses with 20.6%, whose caption credits early termination
// for LOCG's speed). The caching study (fig:cacheEffect) runs its two lazy
// variants parameter-free and adds one theory-constants LOCG row so that
// both behaviours are documented. The experiments' notes say so. Online
// figures plot the average loss (1/t)·Σ_{i≤t} f_i(x_i) and, in a last
// row, the upper end of the average regret's bracket at up to eight
// rounds (hindsight solves with an exact oracle after the run).
//
// Figures (DrawFigure) have one column per experiment; the report
// (WriteReport) places the columns of one paper figure side by side and
// tabulates the paper's cache hit rates next to ours.
package experiment
