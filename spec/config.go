package spec

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/online"
)

// Config configures one run: what to solve (a polytope and an objective,
// or a stream of losses), the method and its parameters, the oracles and
// the limits. Every way of configuring a run decodes into it, through one
// table of settings (see Settings): the CLI's flags (RegisterFlags) and
// its -params, the fields of a suite file's experiments and method entries
// (the experiment package), and Go code. Prepare turns a Config into a
// problem, a separator and a method.
type Config struct {
	// Polytope is a polytope spec (see Polytope).
	Polytope string `json:"polytope"`
	// Objective is an objective spec of an offline run (see Objective).
	Objective string `json:"objective,omitempty"`
	// Concave, when set, is the objective spec of a convex G subtracted
	// from Objective: the run minimizes φ = f − G by the difference-of-convex
	// algorithm, the method solving its convex subproblems
	// (lazycg.MinimizeDC; lazycg solve only).
	Concave string `json:"concave,omitempty"`
	// Losses is a loss stream spec of an online run (see LossStream).
	Losses string `json:"losses,omitempty"`
	// Method is a registered method name (see Method).
	Method string `json:"method,omitempty"`
	// Seed seeds the objective or the losses when their spec has none.
	Seed uint64 `json:"seed"`

	// TimeLimit bounds the run's wall-clock time (0: none).
	TimeLimit time.Duration `json:"time_limit_ns"`
	// MaxIterations bounds the iterations (the rounds of an online run;
	// 0: none).
	MaxIterations int `json:"max_iterations,omitempty"`
	// MaxLMOCalls bounds the LMO calls of an offline run (0: none).
	MaxLMOCalls int `json:"max_lmo_calls,omitempty"`
	// GapTolerance stops an offline run once primal − dual bound ≤ it.
	GapTolerance float64 `json:"gap_tolerance,omitempty"`
	// TargetPrimal, when set, stops an offline run once the primal value
	// is at most it (status target-reached).
	TargetPrimal *float64 `json:"target_primal,omitempty"`

	// MethodParams are the method's parameters.
	MethodParams

	// Oracle selects the weak separation realization: "lmo" (cache and
	// early termination over the LMO, Algorithm 2; default) or "aug"
	// (augmentation, Algorithm 9).
	Oracle string `json:"oracle,omitempty"`
	// OracleGap is the relative gap of the MIP oracles of non-lazy methods
	// (lazy methods always get exact, early-terminating ones).
	OracleGap float64 `json:"oracle_gap"`
	// OracleTimeLimit bounds each MIP oracle call (0: none).
	OracleTimeLimit time.Duration `json:"oracle_time_limit_ns,omitempty"`
	// DataDir is the benchmark data directory ("" = $LAZYCG_DATA or
	// ../shared/data).
	DataDir string `json:"-"`

	// NoCache and NoEarlyStop switch the two lazification techniques off.
	NoCache     bool `json:"no_cache,omitempty"`
	NoEarlyStop bool `json:"no_early_stop,omitempty"`
	// Prune selects the paper's cache pruning (every 100 steps keep the
	// 100 most used vertices) and BestFit the best-fit cache search.
	Prune   bool `json:"prune,omitempty"`
	BestFit bool `json:"best_fit,omitempty"`
	// Concurrent runs the LMO calls of the lazy methods' weak separation
	// in the background while they step on cached vertices
	// (lazycg.SeparatorConfig.Concurrent).
	Concurrent bool `json:"concurrent,omitempty"`
	// Stale is concurrent weak separation's stale-call policy: wait (""
	// too), restart, fork, race, race-copy or ahead
	// (lazycg.SeparatorConfig.Stale,
	// lazycg.ParseStalePolicy).
	Stale string `json:"stale,omitempty"`
	// Idle is what concurrent lazy methods do while calls are in flight
	// and no cached vertex meets the relaxed threshold: auto ("" too),
	// hull, corrected or wait (lazycg.SeparatorConfig.Idle,
	// lazycg.ParseIdlePolicy).
	Idle string `json:"idle,omitempty"`
	// NoDive makes the early-stopping LMO calls of the lazy methods' weak
	// separation search best-first for the bound instead of diving for an
	// improving vertex first, the default (lazycg.SeparatorConfig.NoDive;
	// flag -dive=false, suite field "dive": false).
	NoDive bool `json:"no_dive,omitempty"`
	// AdaptiveDive makes those calls dive after a positive LMO answer and
	// search best-first after a negative one
	// (lazycg.SeparatorConfig.AdaptiveDive); NoDive is then ignored.
	AdaptiveDive bool `json:"adaptive_dive,omitempty"`
	// CallBudget bounds the early-stopping LMO calls of the lazy methods'
	// weak separation: at the budget they settle for a vertex that improves
	// by less than Φ/K (lazycg.SeparatorConfig.CallBudget; 0: none).
	CallBudget time.Duration `json:"call_budget,omitempty"`
	// LazyGap lets the early-stopping MIP calls of the lazy methods' weak
	// separation end at this relative gap with an unproven negative
	// answer, as the paper's experiments did (lazycg.SeparatorConfig.RelGap;
	// 0: every negative answer is proven).
	LazyGap float64 `json:"lazy_gap,omitempty"`
	// MaxInexact bounds the unproven negative answers that LazyGap allows
	// between two proven ones (lazycg.SeparatorConfig.MaxInexact; 0: no
	// bound).
	MaxInexact int `json:"max_inexact,omitempty"`
	// CacheBytes bounds the cache's memory (0: DefaultCacheBytes).
	CacheBytes int64 `json:"cache_bytes,omitempty"`
	// MemoryBudget bounds the estimated memory of the run's instance,
	// objective (or losses) and working vectors; a spec above it is
	// refused before allocating (0: DefaultMemoryBudget; −1: none).
	MemoryBudget int64 `json:"memory_budget,omitempty"`

	// HindsightTime bounds the hindsight solve of an online run (0: the
	// default of online.DefaultHindsightSettings); NoHindsight skips it.
	HindsightTime time.Duration `json:"hindsight_time_ns,omitempty"`
	NoHindsight   bool          `json:"no_hindsight,omitempty"`
}

// MethodParams are the parameters of a method. Zero values select the
// method's defaults or are derived from the instance.
type MethodParams struct {
	// K is the weak separation accuracy (0: the method's default).
	K float64 `json:"k"`
	// C is a curvature (or smoothness) estimate; methods that need one
	// fail with a clear error when it is 0 and cannot be estimated.
	C float64 `json:"c,omitempty"`
	// Phi0 is an initial bound (0: the method's rule).
	Phi0 float64 `json:"phi0,omitempty"`
	// Phi0Search selects the binary search for Φ0 (the default of MIP
	// oracles, lazycg.Phi0Auto).
	Phi0Search bool `json:"phi0_search,omitempty"`
	// Phi0LMO selects Algorithm 7's Φ0 from one full LMO call, also for
	// MIP oracles (lazycg.Phi0LMO).
	Phi0LMO bool `json:"phi0_lmo,omitempty"`
	// NoLineSearch selects the methods' line-search-free step rule.
	NoLineSearch bool `json:"no_line_search,omitempty"`
	// ImprovedPhi enables Remark 4.3's Φ update (online: lowers LOCG's Φ_t
	// to proven Wolfe gaps, online.Params.TightenPhi).
	ImprovedPhi bool `json:"improved_phi,omitempty"`
	// PhiFactor is the factor θ ∈ (0, 1) of Φ on negative answers of the
	// parameter-free lazy methods (0: 1/2; lazycg.PhiSchedule.Factor).
	PhiFactor float64 `json:"phi_factor,omitempty"`
	// S, L and D are the strong convexity and the ℓ2 Lipschitz constant of
	// online losses and the Euclidean diameter of the polytope (0: none,
	// derived, or from the instance; see DeriveOnlineParams).
	S float64 `json:"s,omitempty"`
	L float64 `json:"l,omitempty"`
	D float64 `json:"d,omitempty"`
	// Smoothing runs an online method on Corollary 5.3's surrogates.
	Smoothing bool `json:"smooth,omitempty"`
	// NoBackoff makes parameter-free LOCG consult its oracle in every
	// round, also after proofs of optimality (online.Params.NoBackoff).
	NoBackoff bool `json:"no_backoff,omitempty"`
	// PhiGrowth is the exponent α ∈ (0, 1] of parameter-free LOCG's Φ ∝ t^α
	// between answers (0: 1; online.Params.PhiGrowth).
	PhiGrowth float64 `json:"phi_growth,omitempty"`
	// OnlineLineSearch shortens OCG's and LOCG's steps to the minimizer of
	// the cumulative loss over [0, γ_t] (online.Params.LineSearch).
	OnlineLineSearch bool `json:"online_ls,omitempty"`
	// LineSearch names the line search of the methods that search
	// (auto, adaptive, secant, short or golden; "" is auto), and Smoothness the L
	// of the short step (0: the objective's).
	LineSearch string  `json:"line_search_rule,omitempty"`
	Smoothness float64 `json:"smoothness,omitempty"`
	// Params are method-specific settings "key=value,..." (e.g.
	// "dyadic=1,s=2" for lpcg), read by the method's constructor with the
	// spec reader; a key the method does not know is an error.
	Params string `json:"params,omitempty"`
}

// DefaultCacheBytes is the cache memory budget of runs that set none, the
// library's lazycg.DefaultCacheBytes.
const DefaultCacheBytes = lazycg.DefaultCacheBytes

// SeparatorConfig returns the configuration of the default separator
// (lazycg.NewSeparator): the cache switches, the pruning and search
// policy, and the memory budget (DefaultCacheBytes unless CacheBytes).
func (c *Config) SeparatorConfig() lazycg.SeparatorConfig {
	cfg := lazycg.SeparatorConfig{NoCache: c.NoCache, NoEarlyStop: c.NoEarlyStop, NoDive: c.NoDive, AdaptiveDive: c.AdaptiveDive, Concurrent: c.Concurrent, Stale: c.stalePolicy(),
		Idle: c.idlePolicy(), CallBudget: c.CallBudget, RelGap: c.LazyGap, MaxInexact: c.MaxInexact}
	if c.Prune {
		cfg.Cache = lazycg.PaperPruning
	}
	if c.BestFit {
		cfg.Cache.Search = lazycg.BestFit
	}
	cfg.Cache.MaxBytes = c.CacheBytes
	if cfg.Cache.MaxBytes == 0 {
		cfg.Cache.MaxBytes = DefaultCacheBytes
	}
	return cfg
}

// stalePolicy returns the policy Stale names (Validate rejects other
// names; an unknown one is StaleWait here).
func (c *Config) stalePolicy() lazycg.StalePolicy {
	return namedPolicy(c.Stale, lazycg.StaleWait, lazycg.ParseStalePolicy)
}

// namedPolicy returns the policy name names, or def when name is empty or
// unknown (the settings table rejects unknown names).
func namedPolicy[P any](name string, def P, parse func(string) (P, error)) P {
	if name == "" {
		return def
	}
	if p, err := parse(name); err == nil {
		return p
	}
	return def
}

// policyCheck is the settings check of a policy name that parse must
// accept; want lists the names.
func policyCheck[P any](parse func(string) (P, error), want string) func(string) error {
	return func(v string) error {
		if _, err := parse(v); err != nil {
			return fmt.Errorf("must be %s, got %q", want, v)
		}
		return nil
	}
}

// idlePolicy returns the parsed Idle (auto when empty; validated by the
// settings table).
func (c *Config) idlePolicy() lazycg.IdlePolicy {
	return namedPolicy(c.Idle, lazycg.IdleAuto, lazycg.ParseIdlePolicy)
}

// Settings returns the offline driver's settings: the limits and the
// default separator's configuration.
func (c *Config) Settings() *lazycg.Settings {
	s := &lazycg.Settings{MaxIterations: c.MaxIterations, MaxLMOCalls: c.MaxLMOCalls, TimeLimit: c.TimeLimit,
		GapTolerance: c.GapTolerance, SeparatorConfig: c.SeparatorConfig()}
	if c.TargetPrimal != nil {
		s.TargetPrimal, s.HasTargetPrimal = *c.TargetPrimal, true
	}
	return s
}

// DCSettings returns the settings of a difference-of-convex run
// (Concave set): MaxIterations bounds the DCA iterations, GapTolerance
// the proven DCA gap, TimeLimit and MaxLMOCalls the whole run; the
// subproblems share the default separator's configuration and have no
// limits of their own (each ends by the DCA rule).
func (c *Config) DCSettings() *lazycg.DCSettings {
	return &lazycg.DCSettings{MaxIterations: c.MaxIterations, MaxLMOCalls: c.MaxLMOCalls, TimeLimit: c.TimeLimit,
		Tolerance: c.GapTolerance, Inner: lazycg.Settings{SeparatorConfig: c.SeparatorConfig()}}
}

// OnlineSettings returns the online driver's settings: the limits, the
// default separator's configuration and the hindsight solve.
func (c *Config) OnlineSettings() *online.Settings {
	s := &online.Settings{MaxRounds: c.MaxIterations, TimeLimit: c.TimeLimit, SeparatorConfig: c.SeparatorConfig(),
		NoHindsight: c.NoHindsight, Hindsight: online.DefaultHindsightSettings()}
	if c.HindsightTime > 0 {
		s.Hindsight.TimeLimit = c.HindsightTime
	}
	return s
}

// SettingKind is the type of a setting's value.
type SettingKind int

const (
	// SettingBool is a switch (true or false).
	SettingBool SettingKind = iota
	// SettingFloat is a finite number within the setting's range.
	SettingFloat
	// SettingInt is an integer within the setting's range.
	SettingInt
	// SettingUint is a non-negative integer (seeds).
	SettingUint
	// SettingDuration is a duration ("90s", or a number of seconds) ≥ 0.
	SettingDuration
	// SettingString is text (a spec, a name).
	SettingString
	// SettingBytes is a memory size ("8GiB", "512MB", bytes; see
	// ParseBytes) within the setting's range.
	SettingBytes
)

// Setting is one configurable value of a Config with its names.
type Setting struct {
	// Flag is the CLI flag (without "-") and JSON the field of suite
	// files ("" where the setting has no such form).
	Flag, JSON string
	// Aliases are deprecated spellings, accepted for the flag or the
	// field.
	Aliases []string
	// Kind is the type of the value.
	Kind SettingKind
	// Usage describes the setting.
	Usage string

	// negFlag and negJSON mark switches whose flag or field is the
	// negation of the Config field (-cache sets NoCache = false).
	negFlag, negJSON bool
	// lazy marks settings of the weak separation oracle, which only the
	// lazy methods use (Config.LazyOnly).
	lazy bool
	// lo and hi bound numeric values; hiOpen excludes hi itself. Nonzero
	// floats must be at least tiny in magnitude (0: not subnormal, see
	// smallestNormal): scale settings take 0 (the default) or a value in
	// [tiny, hi], so that their products and quotients with each other
	// neither overflow nor underflow.
	lo, hi float64
	hiOpen bool
	tiny   float64
	// check, when set, validates a non-empty text value.
	check func(string) error
	// field returns a pointer to the Config field.
	field func(c *Config) any
}

const inf = math.MaxFloat64

// smallestNormal is the smallest positive normal float64: a nonzero
// setting below it in magnitude (a subnormal) is refused.
const smallestNormal = 0x1p-1022

// scaleLo and scaleHi bound the nonzero values of the settings that are
// scales of the problem — curvature, strong convexity, Lipschitz constant,
// diameter, smoothness, Φ0 — (Setting.tiny): the methods multiply and
// divide them with each other, with K ≤ 1e6 and with gradient norms
// (Φ = ‖∇‖·D, γ = Φ/(KC), (K+1)(K+2)L²/S, L·D²), which stays finite and
// nonzero for values within 100 orders of magnitude of 1.
const (
	scaleLo = 1e-100
	scaleHi = 1e100
)

// settings is the table of every setting of a run; the CLI's flags, the
// suite files' fields and Config.Set all read it.
var settings = []Setting{
	{Flag: "polytope", JSON: "polytope", Kind: SettingString, Usage: "polytope `SPEC`",
		field: func(c *Config) any { return &c.Polytope }},
	{Flag: "objective", JSON: "objective", Kind: SettingString, Usage: "objective `SPEC`: distance[:seed=S,weight=W,center=V], quadratic[:seed=S,density=D,rows=R,scale=W], completion[:seed=S,rank=R,dense=1], leastsquares:A,B, consensus:KIND[,lambda=L] (over a product)",
		field: func(c *Config) any { return &c.Objective }},
	{Flag: "concave", JSON: "concave", Kind: SettingString, Usage: "minimize the objective minus the convex objective `SPEC` (e.g. distance:weight=2,center=0.5): a difference of convex functions, by DCA with the method solving its convex subproblems (solve's default method becomes lazy-bpcg); -iters, -gap then bound DCA iterations and the proven DCA gap",
		field: func(c *Config) any { return &c.Concave }},
	{Flag: "losses", JSON: "losses", Kind: SettingString, Usage: "loss stream `SPEC`: linear or quadratic[:density=D], options functions=M (100), order=random|cycle|once, rounds=T (default: until the time or round limit), seed=S",
		field: func(c *Config) any { return &c.Losses }},
	{Flag: "method", Kind: SettingString, Usage: "method `NAME` (see lazycg methods)",
		field: func(c *Config) any { return &c.Method }},
	{Flag: "seed", JSON: "seed", Kind: SettingUint, Usage: "seed of random objectives, losses and instances (when their spec has none)",
		field: func(c *Config) any { return &c.Seed }},
	{Flag: "time", JSON: "time_limit", Kind: SettingDuration, Usage: "wall-clock time limit (0: none)",
		field: func(c *Config) any { return &c.TimeLimit }},
	{Flag: "iters", JSON: "max_iterations", Kind: SettingInt, lo: 0, hi: 1 << 40, Usage: "iteration (online: round) limit (0: none)",
		field: func(c *Config) any { return &c.MaxIterations }},
	{Flag: "lmo-calls", JSON: "max_lmo_calls", Kind: SettingInt, lo: 0, hi: 1 << 40, Usage: "LMO call limit (0: none)",
		field: func(c *Config) any { return &c.MaxLMOCalls }},
	{Flag: "gap", JSON: "gap_tolerance", Kind: SettingFloat, lo: 0, hi: inf, Usage: "stop when primal − dual bound ≤ this absolute gap",
		field: func(c *Config) any { return &c.GapTolerance }},
	{Flag: "target", JSON: "target_primal", Kind: SettingFloat, lo: -inf, hi: inf, Usage: "stop once the primal value is ≤ this `VALUE` (default: none)",
		field: func(c *Config) any { return &c.TargetPrimal }},
	{Flag: "K", lazy: true, JSON: "k", Kind: SettingFloat, lo: 1, hi: 1e6, Usage: "accuracy K ≥ 1 of the weak separation oracle (> 1 for -oracle aug)",
		field: func(c *Config) any { return &c.K }},
	{Flag: "C", JSON: "c", Kind: SettingFloat, lo: 0, hi: scaleHi, tiny: scaleLo, Usage: "curvature constant, 0 or in [1e-100, 1e100] (0: estimate from the objective and the polytope's diameter when possible; linear losses have C = 0)",
		field: func(c *Config) any { return &c.C }},
	{Flag: "phi0", JSON: "phi0", Kind: SettingFloat, lo: 0, hi: scaleHi, tiny: scaleLo, Usage: "initial bound Φ0, 0 or in [1e-100, 1e100] (0: the method's rule; a positive Φ0 excludes -phi0-search and -phi0-lmo)",
		field: func(c *Config) any { return &c.Phi0 }},
	{Flag: "phi0-search", lazy: true, JSON: "phi0_search", Kind: SettingBool, Usage: "find Φ0 by binary search with the weak separation oracle (no full LMO solve; the default for MIP oracles, started below their LP relaxation's gap bound)",
		field: func(c *Config) any { return &c.Phi0Search }},
	{Flag: "phi0-lmo", lazy: true, JSON: "phi0_lmo", Kind: SettingBool, Usage: "find Φ0 by one full LMO call (Algorithm 7 as written), also for MIP oracles",
		field: func(c *Config) any { return &c.Phi0LMO }},
	{Flag: "no-ls", JSON: "line_search", negJSON: true, Kind: SettingBool, Usage: "no line search: prescribed steps (lcg: Remark 4.4's γ = min{1, Φ/(KC)}); excludes -line-search and -smoothness",
		field: func(c *Config) any { return &c.NoLineSearch }},
	{Flag: "improved-phi", lazy: true, JSON: "improved_phi", Aliases: []string{"tighten", "tighten_phi"}, Kind: SettingBool,
		Usage: "Remark 4.3: set Φ to half the exact Wolfe gap after negative calls (locg: lower Φ_t to the proven Wolfe gap)",
		field: func(c *Config) any { return &c.ImprovedPhi }},
	{Flag: "phi-factor", lazy: true, JSON: "phi_factor", Kind: SettingFloat, lo: 0, hi: 1, hiOpen: true, Usage: "factor θ in (0, 1) of Φ on negative answers of the offline parameter-free lazy methods (0: 1/2, Algorithm 7's halving); a larger θ keeps the threshold Φ/K near the last proven gap at the cost of more negative answers",
		field: func(c *Config) any { return &c.PhiFactor }},
	{Flag: "S", JSON: "s", Kind: SettingFloat, lo: 0, hi: scaleHi, tiny: scaleLo, Usage: "strong convexity S of the losses, 0 or in [1e-100, 1e100] (> 0 selects Theorem 5.1(b)'s steps)",
		field: func(c *Config) any { return &c.S }},
	{Flag: "L", JSON: "l", Kind: SettingFloat, lo: 0, hi: scaleHi, tiny: scaleLo, Usage: "Lipschitz constant of the losses in ℓ2, 0 or in [1e-100, 1e100] (needed by -smooth; 0: √n for linear losses, else unknown)",
		field: func(c *Config) any { return &c.L }},
	{Flag: "D", JSON: "d", Kind: SettingFloat, lo: 0, hi: scaleHi, tiny: scaleLo, Usage: "Euclidean diameter of the polytope, an upper bound for Theorem 5.1: 0 or in [1e-100, 1e100]; LOCG asks for improvements of about ‖∇F_t‖·D (0: from the polytope)",
		field: func(c *Config) any { return &c.D }},
	{Flag: "smooth", JSON: "smooth", Kind: SettingBool, Usage: "run on Corollary 5.3's smoothed surrogates of the losses (adversarial Lipschitz losses)",
		field: func(c *Config) any { return &c.Smoothing }},
	{Flag: "no-backoff", JSON: "no_backoff", Kind: SettingBool, Usage: "locg-pf: ask the weak separation oracle in every round, also after repeated proofs that x_t minimizes F_t (default: back off, see online.LOCG)",
		field: func(c *Config) any { return &c.NoBackoff }},
	{Flag: "phi-growth", JSON: "phi_growth", Kind: SettingFloat, lo: 0, hi: 1, Usage: "locg-pf: Φ grows like t^α between answers, α in (0, 1] (0: 1, Φ/t kept; 0.5: the shape √t of Theorem 5.1's bound, so the target on the average loss shrinks without proofs)",
		field: func(c *Config) any { return &c.PhiGrowth }},
	{Flag: "online-ls", JSON: "online_ls", Kind: SettingBool, Usage: "ocg, locg: step to the minimizer of F_t over [0, γ_t] along v − x_t instead of γ_t (exact for quadratic losses; linear losses keep γ_t)",
		field: func(c *Config) any { return &c.OnlineLineSearch }},
	{Flag: "line-search", JSON: "line_search_rule", Kind: SettingString,
		Usage: "line search `RULE` of the methods that search: auto (exact for quadratics, else secant), adaptive (Pedregosa et al. 2020), secant, short (needs -smoothness or an objective that knows L), golden (golden-section search on values)",
		field: func(c *Config) any { return &c.LineSearch }},
	{Flag: "smoothness", JSON: "smoothness", Kind: SettingFloat, lo: 0, hi: scaleHi, tiny: scaleLo, Usage: "smoothness L of the objective for -line-search short, 0 or in [1e-100, 1e100] (0: the objective's estimate)",
		field: func(c *Config) any { return &c.Smoothness }},
	{Flag: "params", JSON: "params", Kind: SettingString, Usage: "method-specific settings `key=value,...` (e.g. dyadic=1,s=2 for lpcg; see lazycg methods)",
		field: func(c *Config) any { return &c.Params }},
	{Flag: "oracle", JSON: "oracle", Kind: SettingString, Usage: "weak separation oracle: lmo (cache + early termination) or aug (augmentation, 0/1 polytopes with an augmentation oracle)",
		field: func(c *Config) any { return &c.Oracle }},
	{Flag: "oracle-gap", JSON: "oracle_gap", Kind: SettingFloat, lo: 0, hi: 1, Usage: "relative gap of MIP oracles for non-lazy baselines (the paper's 10%; lazy methods use exact oracles)",
		field: func(c *Config) any { return &c.OracleGap }},
	{Flag: "oracle-time", JSON: "oracle_time_limit", Kind: SettingDuration, Usage: "time limit of each MIP oracle call (0: none)",
		field: func(c *Config) any { return &c.OracleTimeLimit }},
	{Flag: "data", Kind: SettingString, Usage: "benchmark data directory (default $LAZYCG_DATA or ../shared/data)",
		field: func(c *Config) any { return &c.DataDir }},
	{Flag: "cache", lazy: true, JSON: "cache", Aliases: []string{"no_cache"}, negFlag: true, negJSON: true, Kind: SettingBool,
		Usage: "cache vertices in the weak separation oracle",
		field: func(c *Config) any { return &c.NoCache }},
	{Flag: "early", lazy: true, JSON: "early_stop", Aliases: []string{"no_early_stop"}, negFlag: true, negJSON: true, Kind: SettingBool,
		Usage: "stop LMO calls early in the weak separation oracle",
		field: func(c *Config) any { return &c.NoEarlyStop }},
	{Flag: "prune", lazy: true, JSON: "prune", Kind: SettingBool, Usage: "the paper's cache pruning: every 100 steps keep the 100 most used vertices",
		field: func(c *Config) any { return &c.Prune }},
	{Flag: "best-fit", lazy: true, JSON: "best_fit", Kind: SettingBool, Usage: "best-fit cache search instead of first fit",
		field: func(c *Config) any { return &c.BestFit }},
	{Flag: "concurrent", lazy: true, JSON: "concurrent", Kind: SettingBool,
		Usage: "lazy methods (lcg, lazy-afw, lazy-bpcg, lpcg): run LMO calls in the background while stepping on cached vertices at Φ/(2K), then by hull steps (-idle; docs/CONCURRENT.md); online locg-pf: play the rounds on while the call runs (docs/ONLINE.md)",
		field: func(c *Config) any { return &c.Concurrent }},
	{Flag: "stale", lazy: true, JSON: "stale", Kind: SettingString,
		Usage: "with -concurrent: `POLICY` when the method runs out of cached steps and has moved since the call in flight was asked: wait for the call, restart it at the current iterate, fork (ask at the current iterate on a second solver instance while the call runs on; MIP oracles), race (fork, with the second instance searching the other way from -dive, and while the one call in flight is not stale its question asked on the idle instance too; the first answer wins), race-copy (race, with every question searching as -dive says on either instance and only the race's copy the other way), or ahead (fork, and while the one call in flight is not stale the question a negative answer would lead to, at Φ/2, asked on the idle instance) (default wait)",
		check: policyCheck(lazycg.ParseStalePolicy, "wait, restart, fork, race, race-copy or ahead"),
		field: func(c *Config) any { return &c.Stale }},
	{Flag: "idle", lazy: true, JSON: "idle", Kind: SettingString,
		Usage: "with -concurrent: `POLICY` while a call is in flight and no cached vertex improves by Φ/(2K): auto (corrected for lcg with an exact line search while a correction costs at most a quarter of an LMO call, else hull; wait for lpcg), hull (pairwise steps over the hull of the iterate and the cached vertices; lcg, lpcg), corrected (hull steps with quadratic corrections; quadratic objectives) or wait (default auto)",
		check: policyCheck(lazycg.ParseIdlePolicy, "auto, hull, wait or corrected"),
		field: func(c *Config) any { return &c.Idle }},
	{Flag: "dive", lazy: true, JSON: "dive", Aliases: []string{"no_dive"}, negFlag: true, negJSON: true, Kind: SettingBool,
		Usage: "lazy methods over MIP oracles: early-stopping weak separation calls dive for an improving vertex first; -dive=false makes them search best-first for the bound that certifies a negative answer (faster negative answers, slower positive ones; docs/DIVE.md)",
		field: func(c *Config) any { return &c.NoDive }},
	{Flag: "adaptive-dive", lazy: true, JSON: "adaptive_dive", Kind: SettingBool,
		Usage: "lazy methods over MIP oracles: an early-stopping weak separation call dives after a positive LMO answer (and first) and searches best-first after a negative one, whatever -dive says (docs/DIVE.md)",
		field: func(c *Config) any { return &c.AdaptiveDive }},
	{Flag: "call-budget", lazy: true, JSON: "call_budget", Kind: SettingDuration,
		Usage: "lazy methods with line search (lcg, lazy-afw, lazy-bpcg, lpcg): an early-stopping LMO call (MIP oracles) that has decided nothing after this `TIME` ends, and the method steps toward its best vertex if that improves at all (0: no budget)",
		field: func(c *Config) any { return &c.CallBudget }},
	{Flag: "lazy-gap", lazy: true, JSON: "lazy_gap", Kind: SettingFloat, lo: 0, hi: 0.999999,
		Usage: "lazy methods over MIP oracles: an early-stopping weak separation call may also end within this relative `GAP` of the improvement asked for, with a negative answer that proves only the solver's bound (the paper's Gurobi setting; dual bounds stay proven; 0: every negative answer proves the Wolfe gap ≤ Φ)",
		field: func(c *Config) any { return &c.LazyGap }},
	{Flag: "max-inexact", lazy: true, JSON: "max_inexact", Kind: SettingInt, lo: 0, hi: 1 << 20,
		Usage: "with -lazy-gap: at most `N` unproven negative answers between two proven ones; after N of them the calls are exact until one proves its answer, so Φ stays within 2^N of what the proofs allow (0: no bound)",
		field: func(c *Config) any { return &c.MaxInexact }},
	{Flag: "cache-bytes", lazy: true, JSON: "cache_bytes", Kind: SettingBytes, lo: 0, hi: 1 << 50, Usage: "memory budget of the vertex cache: `SIZE` such as 512MiB, or bytes (0: 1 GiB)",
		field: func(c *Config) any { return &c.CacheBytes }},
	{Flag: "memory", JSON: "memory_budget", Kind: SettingBytes, lo: -1, hi: 1 << 60,
		Usage: "memory budget of a run: `SIZE` such as 8GiB; larger specs are refused before allocating (0: $LAZYCG_MEMORY or half the memory the process may use: machine, cgroup limit, ulimit -v; -1: none)",
		field: func(c *Config) any { return &c.MemoryBudget }},
	{Flag: "hindsight-time", JSON: "hindsight_time", Kind: SettingDuration, Usage: "time limit of the hindsight solve of an online run (0: 1m)",
		field: func(c *Config) any { return &c.HindsightTime }},
	{Flag: "no-hindsight", JSON: "no_hindsight", Kind: SettingBool, Usage: "skip the hindsight solve of an online run (no regret)",
		field: func(c *Config) any { return &c.NoHindsight }},
}

// Settings returns the table of settings (copies).
func Settings() []Setting { return append([]Setting(nil), settings...) }

// LookupSetting returns the setting with the flag, field or alias name.
// The second result reports whether name is the negation of the Config
// field (-cache, "cache": the field is NoCache).
func LookupSetting(name string) (Setting, bool, error) {
	for _, s := range settings {
		switch {
		case name == s.Flag && name != "":
			return s, s.negFlag, nil
		case name == s.JSON && name != "":
			return s, s.negJSON, nil
		}
		for _, a := range s.Aliases {
			if name == a {
				// The no_ aliases name the field itself.
				return s, !strings.HasPrefix(a, "no_") && (s.negFlag || s.negJSON), nil
			}
		}
	}
	return Setting{}, false, fmt.Errorf("spec: unknown setting %q", name)
}

// Set sets the setting called name (a flag, a suite file field or an
// alias) from the text of its value, as a flag or a key=value pair gives
// it. Numbers must lie in the setting's range; durations are Go
// durations ("90s") or seconds. The error names neither the setting nor
// the source: callers add them.
func (c *Config) Set(name, value string) error {
	st, neg, err := LookupSetting(name)
	if err != nil {
		return err
	}
	return st.set(c, neg, value)
}

func (st *Setting) set(c *Config, neg bool, value string) error {
	value = strings.TrimSpace(value)
	if st.Kind == SettingBytes {
		b, err := ParseBytes(value)
		if err != nil {
			return err
		}
		if float64(b) < st.lo || float64(b) > st.hi {
			return st.rangeErr(value)
		}
		*st.field(c).(*int64) = b
		return nil
	}
	switch p := st.field(c).(type) {
	case *bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("must be true or false, got %q", value)
		}
		*p = b != neg
	case *float64:
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || !st.inRange(f) {
			return st.rangeErr(value)
		}
		*p = f
	case **float64:
		if value == "" {
			*p = nil
			return nil
		}
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || !st.inRange(f) {
			return st.rangeErr(value)
		}
		*p = &f
	case *int:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || float64(n) < st.lo || float64(n) > st.hi {
			return st.rangeErr(value)
		}
		*p = int(n)
	case *int64:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || float64(n) < st.lo || float64(n) > st.hi {
			return st.rangeErr(value)
		}
		*p = n
	case *uint64:
		u, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			return fmt.Errorf("must be a non-negative integer, got %q", value)
		}
		*p = u
	case *time.Duration:
		d, err := ParseDuration(value)
		if err != nil {
			return err
		}
		*p = d
	case *string:
		if st.check != nil && value != "" {
			if err := st.check(value); err != nil {
				return err
			}
		}
		*p = value
	}
	return nil
}

// inRange reports whether f lies in the setting's range [lo, hi], or
// [lo, hi) with hiOpen, and is 0 or at least tiny in magnitude.
func (st *Setting) inRange(f float64) bool {
	if f != 0 && math.Abs(f) < st.minAbs() {
		return false
	}
	return f >= st.lo && (f < st.hi || (f == st.hi && !st.hiOpen))
}

// minAbs is the smallest magnitude of a nonzero value of a float setting.
func (st *Setting) minAbs() float64 {
	if st.tiny > 0 {
		return st.tiny
	}
	return smallestNormal
}

func (st *Setting) rangeErr(value string) error {
	if st.Kind == SettingFloat && st.tiny > 0 {
		return fmt.Errorf("must be a number ≥ 0: 0 or in [%g, %g], got %q", st.tiny, st.hi, value)
	}
	if f, err := strconv.ParseFloat(value, 64); err == nil && st.Kind == SettingFloat && f != 0 && math.Abs(f) < smallestNormal {
		return fmt.Errorf("must be 0 or a normal number (magnitude ≥ %g), got the subnormal %q", float64(smallestNormal), value)
	}
	what := "a number"
	switch st.Kind {
	case SettingInt:
		what = "an integer"
	case SettingBytes:
		what = "a size in bytes"
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	if st.Kind != SettingFloat {
		num = func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	}
	if st.lo == -inf && st.hi == inf {
		return fmt.Errorf("must be a finite number, got %q", value)
	}
	if st.hi == inf {
		return fmt.Errorf("must be %s ≥ %s, got %q", what, num(st.lo), value)
	}
	closing := "]"
	if st.hiOpen {
		closing = ")"
	}
	return fmt.Errorf("must be %s in [%s, %s%s, got %q", what, num(st.lo), num(st.hi), closing, value)
}

// maxSeconds bounds durations (about 116 days).
const maxSeconds = 1e7

// ParseDuration reads a duration setting: a Go duration ("90s", "2m") or
// a number of seconds, at least 0 and at most 1e7 s. The error names
// neither the setting nor the source.
func ParseDuration(value string) (time.Duration, error) {
	d, err := time.ParseDuration(value)
	if err != nil {
		f, ferr := strconv.ParseFloat(value, 64)
		if ferr != nil {
			return 0, fmt.Errorf("must be a duration such as \"90s\" or \"2m\" (or seconds), got %q", value)
		}
		if !(f >= 0) {
			return 0, fmt.Errorf("must be a number of seconds ≥ 0, got %q", value)
		}
		if f > maxSeconds {
			return 0, fmt.Errorf("must be at most %g seconds, got %q", float64(maxSeconds), value)
		}
		d = time.Duration(f * float64(time.Second))
		if f > 0 && d == 0 {
			return 0, fmt.Errorf("must be 0 or at least 1ns, got %q (0 means none)", value)
		}
		return d, nil
	}
	if d < 0 || d.Seconds() > maxSeconds {
		return 0, fmt.Errorf("must be a duration in [0, %gs], got %q", float64(maxSeconds), value)
	}
	return d, nil
}

// text returns the setting's current value as its flag shows it.
func (st *Setting) text(c *Config, neg bool) string {
	switch p := st.field(c).(type) {
	case *bool:
		return strconv.FormatBool(*p != neg)
	case *float64:
		return strconv.FormatFloat(*p, 'g', -1, 64)
	case **float64:
		if *p == nil {
			return ""
		}
		return strconv.FormatFloat(**p, 'g', -1, 64)
	case *int:
		return strconv.Itoa(*p)
	case *int64:
		return strconv.FormatInt(*p, 10)
	case *uint64:
		return strconv.FormatUint(*p, 10)
	case *time.Duration:
		return p.String()
	case *string:
		return *p
	}
	return ""
}

// Validate checks the numeric settings of c against their ranges (for
// configs built in Go; Set checks each value it sets) and, when Method
// names a registered method, the method-specific settings (Params) and
// parameters its constructor rejects (see checkMethod). Errors name the
// suite file fields.
func (c *Config) Validate() error {
	if c.Phi0Search && c.Phi0LMO {
		return errors.New("phi0_search and phi0_lmo exclude each other (-phi0-search, -phi0-lmo)")
	}
	if c.Phi0 != 0 && (c.Phi0Search || c.Phi0LMO) {
		return errors.New("phi0 gives Φ0, which phi0_search and phi0_lmo would find: choose one (-phi0, -phi0-search, -phi0-lmo)")
	}
	if c.NoLineSearch && (c.LineSearch != "" || c.Smoothness != 0) {
		field, flag := "line_search_rule", "-line-search"
		if c.LineSearch == "" {
			field, flag = "smoothness", "-smoothness"
		}
		return fmt.Errorf("%s sets the line search that line_search false turns off: choose one (%s, -no-ls)", field, flag)
	}
	for i := range settings {
		st := &settings[i]
		if st.check != nil {
			if p, ok := st.field(c).(*string); ok && *p != "" {
				if err := st.check(*p); err != nil {
					return fmt.Errorf("%s %w", st.JSON, err)
				}
			}
			continue
		}
		if st.Kind != SettingFloat && st.Kind != SettingInt && st.Kind != SettingDuration && st.Kind != SettingBytes {
			continue
		}
		// Zero values are unset: the defaults apply.
		if text := st.text(c, false); text != "0" && text != "0s" && text != "" {
			err := st.set(&Config{}, false, text)
			if err == nil {
				continue
			}
			name := st.JSON
			if name == "" {
				name = st.Flag
			}
			return fmt.Errorf("%s %w", name, err)
		}
	}
	return c.checkMethod()
}

// checkMethod builds the method that Method names from the method
// parameters, so that what its constructor rejects — a Params key it does
// not know, a bad value, step rules that exclude each other — is reported
// before an instance is built or a suite runs. A curvature C left to the
// instance's estimate (0) is set to a placeholder here: Prepare estimates
// it and fails if a method needs it and there is none. An unknown or
// empty Method is left to the caller.
func (c *Config) checkMethod() error {
	info, err := Method(c.Method)
	if c.Method == "" || err != nil {
		return nil
	}
	if info.Online {
		err = noParams(info.Name, c.MethodParams)
	} else {
		p := c.MethodParams
		if p.C == 0 {
			p.C = 1
		}
		_, err = info.New(p)
	}
	if err != nil {
		// The constructors' errors start with the package's prefix, which
		// Prepare adds to Validate's errors.
		return errors.New(strings.TrimPrefix(err.Error(), "spec: "))
	}
	return nil
}

// flagValue binds a setting to a flag; errors are kept for Flags.Err so
// that they name the flag as the user wrote it.
type flagValue struct {
	st  *Setting
	cfg *Config
	neg bool
	f   *Flags
	as  string
}

func (v *flagValue) String() string {
	if v == nil || v.st == nil {
		return ""
	}
	return v.st.text(v.cfg, v.neg)
}

func (v *flagValue) Set(s string) error {
	if err := v.st.set(v.cfg, v.neg, s); err != nil && v.f.err == nil {
		v.f.err = fmt.Errorf("-%s %w", v.as, err)
	}
	return nil
}

func (v *flagValue) IsBoolFlag() bool { return v.st.Kind == SettingBool }

// Flags are settings registered on a flag.FlagSet (see RegisterFlags).
type Flags struct {
	err error
	// cfg is the Config the flags set; defaults its values before parsing.
	cfg      *Config
	defaults Config
}

// Err returns the first invalid flag value, naming the flag
// ("-K must be a number in [1, 1e+06], got \"0.5\"").
func (f *Flags) Err() error { return f.err }

// CheckMethod reports a flag of the weak separation oracle (-cache,
// -early, -concurrent, -lazy-gap, …) set to a value other than its
// default for a method that does not use it: a method that is not lazy
// calls the LMO directly, and such a flag would be silently ignored. An
// unknown method is left to the job's setup, which reports it.
func (f *Flags) CheckMethod(method string) error {
	info, err := Method(method)
	if err != nil || info.Lazy {
		return nil
	}
	if set := f.cfg.LazyOnly(&f.defaults); len(set) > 0 {
		return fmt.Errorf("-%s applies to the lazy methods (%s); %s calls the LMO directly",
			set[0].Flag, strings.Join(lazyMethods(info.Online), ", "), info.Name)
	}
	return nil
}

// LazyOnly returns the settings of the weak separation oracle, which only
// the lazy methods use, whose values in c differ from those in def.
func (c *Config) LazyOnly(def *Config) []Setting {
	var out []Setting
	for _, st := range settings {
		if st.lazy && st.text(c, false) != st.text(def, false) {
			out = append(out, st)
		}
	}
	return out
}

// RegisterFlags registers the named settings (by flag name) as flags of
// fs bound to c; their defaults are c's current values, and their
// deprecated spellings are registered too. After fs.Parse, Err reports
// the first invalid value.
func (c *Config) RegisterFlags(fs *flag.FlagSet, names ...string) *Flags {
	f := &Flags{cfg: c, defaults: *c}
	for _, name := range names {
		st, neg, err := LookupSetting(name)
		if err != nil || st.Flag != name {
			panic("spec: no flag " + name) // a programming error
		}
		stc := st
		fs.Var(&flagValue{st: &stc, cfg: c, neg: neg, f: f, as: name}, name, stc.Usage)
		for _, a := range st.Aliases {
			if !strings.Contains(a, "_") {
				aneg := neg
				fs.Var(&flagValue{st: &stc, cfg: c, neg: aneg, f: f, as: a}, a, "deprecated spelling of -"+name)
			}
		}
	}
	return f
}
