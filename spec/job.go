package spec

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/lazycg/lazycg"
	"github.com/lazycg/lazycg/objective"
	"github.com/lazycg/lazycg/online"
)

// Prepared is a Config ready to run: its instance, separator and method,
// as an offline problem (Problem and Method) or an online one (Online,
// OnlineMethod and OnlineParams).
type Prepared struct {
	// Config is the configuration prepared.
	Config Config
	// Info describes the method.
	Info     MethodInfo
	Instance *Instance
	// Separator is the weak separation oracle built from the config (also
	// set in Problem or Online).
	Separator lazycg.WeakSeparator
	// Curvature is the estimate of C used (0 if none).
	Curvature float64

	// Problem and Method are set for offline methods.
	Problem lazycg.Problem
	Method  lazycg.Method
	// Concave is G of a difference-of-convex run (Config.Concave; nil
	// otherwise): the run minimizes Problem.Objective − G (see DCProblem).
	Concave lazycg.Objective

	// Online, OnlineMethod and OnlineParams are set for online methods.
	Online       online.Problem
	OnlineMethod online.Method
	OnlineParams online.Params
}

// Close releases the instance's resources.
func (p *Prepared) Close() {
	if p.Instance != nil && p.Instance.Close != nil {
		p.Instance.Close()
	}
}

// separatorBuilders realize the weak separation oracles selectable by
// Config.Oracle; registered by the files of this package.
var separatorBuilders = map[string]func(in *Instance, c *Config) (lazycg.WeakSeparator, error){
	"lmo": func(in *Instance, c *Config) (lazycg.WeakSeparator, error) {
		return lazycg.NewSeparator(in.LMO, c.SeparatorConfig()), nil
	},
}

// oracleName returns the normalized Oracle ("lmo" when empty) and checks it.
func (c *Config) oracleName() (string, error) {
	name := strings.ToLower(c.Oracle)
	if name == "" {
		name = "lmo"
	}
	if _, ok := separatorBuilders[name]; !ok {
		return "", fmt.Errorf("spec: unknown oracle %q (use %s)", c.Oracle, strings.Join(sortedStrings(mapKeys(separatorBuilders)), " or "))
	}
	return name, nil
}

// NewSeparator builds the weak separation oracle selected by Oracle over
// the instance: "lmo" is lazycg.NewSeparator with SeparatorConfig, "aug"
// an AugmentingSeparator with the same cache.
func (c *Config) NewSeparator(in *Instance) (lazycg.WeakSeparator, error) {
	name, err := c.oracleName()
	if err != nil {
		return nil, err
	}
	return separatorBuilders[name](in, c)
}

// PrepareContext is Prepare bounded by ctx: setup (reading files,
// building the oracle and generating the objective) counts against a
// deadline of ctx, and a canceled ctx ends it. When ctx ends first it
// returns at once with an error wrapping ctx.Err(); the setup's solver
// work (Options.Context) stops with ctx, and what it built is released in
// the background.
func (c Config) PrepareContext(ctx context.Context) (*Prepared, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("spec: setup not started: %w", err)
	}
	type built struct {
		p   *Prepared
		err error
	}
	ch := make(chan built, 1)
	go func() {
		p, err := c.prepare(ctx)
		ch <- built{p, err}
	}()
	select {
	case b := <-ch:
		return b.p, b.err
	case <-ctx.Done():
		select {
		case b := <-ch:
			return b.p, b.err
		default:
		}
		go func() {
			if b := <-ch; b.p != nil {
				b.p.Close()
			}
		}()
		return nil, fmt.Errorf("spec: setup stopped before the problem was built: %w", ctx.Err())
	}
}

// Prepare builds the polytope, the objective (or the loss stream), the
// separator and the method of the config. Non-lazy methods get the inexact
// oracle (OracleGap); lazy ones an exact, early-terminating one.
func (c Config) Prepare() (*Prepared, error) {
	return c.prepare(context.Background())
}

// prepare is Prepare with the setup's solver work bounded by ctx.
func (c Config) prepare(ctx context.Context) (*Prepared, error) {
	if c.Polytope == "" {
		return nil, errors.New("spec: -polytope is required")
	}
	info, err := Method(c.Method)
	if err != nil {
		return nil, err
	}
	switch {
	case info.Online && c.Losses == "":
		return nil, fmt.Errorf("spec: %s is an online method: it needs a loss stream (run it with lazycg online -losses SPEC, or in a suite experiment with \"losses\")", info.Name)
	case !info.Online && c.Losses != "":
		return nil, fmt.Errorf("spec: %s is an offline method: it needs an objective, not losses", info.Name)
	case info.Online && c.Concave != "":
		return nil, fmt.Errorf("spec: -concave applies to offline methods, not to %s", info.Name)
	case c.Concave != "" && c.TargetPrimal != nil:
		return nil, errors.New("spec: -target does not apply with -concave (DCA stops at a proven DCA gap, -gap)")
	case c.Concave != "" && c.Concurrent:
		return nil, errors.New("spec: -concurrent does not apply with -concave")
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	oracle, err := c.oracleName()
	if err != nil {
		return nil, err
	}
	if (c.LineSearch != "" || c.Smoothness != 0) && !info.LineSearch {
		return nil, fmt.Errorf("spec: %s takes no -line-search or -smoothness (methods that do: %s)", info.Name,
			strings.Join(lineSearchMethods(), ", "))
	}
	if oracle != "lmo" && !info.Lazy {
		return nil, fmt.Errorf("spec: -oracle %s applies to %s (%s calls the LMO)", oracle,
			strings.Join(lazyMethods(info.Online), " and "), info.Name)
	}
	opt := Options{DataDir: c.DataDir, OracleGap: c.OracleGap, OracleTimeLimit: c.OracleTimeLimit, MemoryBudget: c.MemoryBudget,
		Context: ctx}
	if info.Lazy {
		opt.OracleGap = 0
	}
	if sp := c.stalePolicy(); c.Concurrent && sp.TwoInstances() {
		opt.SolverCopies = 2
	}
	in, err := Polytope(c.Polytope, opt)
	if err != nil {
		return nil, err
	}
	p := &Prepared{Config: c, Info: info, Instance: in}
	if err := p.prepare(ctx); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

func (p *Prepared) prepare(ctx context.Context) error {
	c, in := &p.Config, p.Instance
	var obj lazycg.Objective
	if !p.Info.Online {
		// First: an objective may reformulate the instance (completion
		// moves to Ω-coordinates), and the separator serves its LMO.
		var err error
		if obj, err = ObjectiveWith(seeded(c.Objective, c.Seed), in, Options{DataDir: c.DataDir, Context: ctx}); err != nil {
			return err
		}
	}
	sep, err := c.NewSeparator(in)
	if err != nil {
		return err
	}
	p.Separator = sep
	if p.Info.Online {
		if c.PhiFactor != 0 {
			return fmt.Errorf("spec: %s: phi_factor applies to the offline lazy methods (online LOCG keeps its own Φ_t)", c.Method)
		}
		stream, err := lossStream(c.Losses, in.Dim(), c.Seed, in.mem)
		if err != nil {
			return err
		}
		params := DeriveOnlineParams(in, stream, c.MethodParams)
		if params.Smoothing && !(params.L > 0) {
			return errors.New("spec: -smooth needs the Lipschitz constant -L for these losses")
		}
		_, run := onlineMethod(p.Info, params)
		if _, linear := stream.Loss(0).(*objective.Linear); run.Certified && !linear && (c.MethodParams.L == 0 || c.MethodParams.C == 0) {
			// Theorem 5.1's envelope needs C and L valid for every loss.
			cc, cl, err := CertifiedConstants(ctx, in, stream)
			if err != nil {
				return fmt.Errorf("%w; give the curvature -C and the Lipschitz constant -L of these losses for %s", err, p.Info.Name)
			}
			if c.MethodParams.C == 0 {
				params.C = cc
			}
			if c.MethodParams.L == 0 {
				params.L = cl
			}
		}
		if params.Smoothing && params.LineSearch {
			return errors.New("spec: -online-ls searches the cumulative loss, which -smooth replaces by a surrogate: use one of them")
		}
		if err := noParams(p.Info.Name, c.MethodParams); err != nil {
			return err
		}
		p.OnlineMethod, params = onlineMethod(p.Info, params)
		if err := params.Check(in.LMO); err != nil {
			return err
		}
		if params.Certified {
			// The envelope A·t^{1−e} of Theorem 5.1 bounds every round of
			// the certified variant: constants whose A overflows would
			// stop the run at its first round.
			if a, err := params.TheoremBound(in.LMO, 1); err == nil && (math.IsInf(a, 0) || math.IsNaN(a)) {
				return fmt.Errorf("spec: %s: Theorem 5.1's constant A of K=%g, C=%g, S=%g, L=%g, D=%g is not finite (overflow): give smaller constants",
					p.Info.Name, params.K, params.C, params.S, params.L, params.D)
			}
		}
		p.OnlineParams, p.Curvature = params, params.C
		p.Online = online.Problem{Losses: stream, LMO: in.LMO, X0: in.Start, Separator: sep}
		return nil
	}
	if c.PhiGrowth != 0 {
		return fmt.Errorf("spec: %s: phi_growth applies to parameter-free online LOCG (locg-pf, locg-cert)", c.Method)
	}
	params := c.MethodParams
	if params.C == 0 {
		params.C = Curvature(obj, in)
	}
	p.Curvature = params.C
	if p.Method, err = p.Info.New(params); err != nil {
		return err
	}
	p.Problem = lazycg.Problem{Objective: obj, LMO: in.LMO, X0: in.Start, Separator: sep}
	if err := p.check(); err != nil {
		return err
	}
	if c.Concave != "" {
		if p.Concave, err = ObjectiveWith(seeded(c.Concave, c.Seed), in, Options{DataDir: c.DataDir, Context: ctx}); err != nil {
			return fmt.Errorf("spec: -concave: %w", err)
		}
		if p.Concave.Dim() != obj.Dim() {
			return fmt.Errorf("spec: -concave %q has dimension %d, the objective %d", c.Concave, p.Concave.Dim(), obj.Dim())
		}
	}
	return nil
}

// check reports, before the run, why lazycg.Minimize would refuse it
// (lazycg.Check: the method's needs of the polytope and objective, the
// start point, the settings, concurrent weak separation and call
// budgets), so that the commands exit at once with a usage error instead
// of failing at the run's start. Runs of a difference of convex functions
// (Concave) are left to MinimizeDC, whose subproblems have another
// objective.
func (p *Prepared) check() error {
	if p.Info.Online || p.Config.Concave != "" {
		return nil
	}
	if err := lazycg.Check(p.Problem, p.Config.Settings(), p.Method); err != nil {
		return fmt.Errorf("spec: %s on %q: %w", p.Info.Name, p.Config.Polytope, err)
	}
	return nil
}

// DCProblem returns the difference-of-convex problem of a run with
// Concave set: F is the objective, G the concave spec's objective.
func (p *Prepared) DCProblem() lazycg.DCProblem {
	return lazycg.DCProblem{F: p.Problem.Objective, G: p.Concave, LMO: p.Problem.LMO, Separator: p.Problem.Separator, X0: p.Problem.X0}
}

// seeded adds seed=S to an objective or loss spec that has no seed (S = 0:
// the spec's default).
func seeded(text string, seed uint64) string {
	s, err := Parse(text)
	if err != nil || seed == 0 {
		return text
	}
	if _, has := s.Opts["seed"]; has {
		return text
	}
	sep := ","
	if !strings.Contains(text, ":") {
		sep = ":"
	}
	return text + sep + fmt.Sprintf("seed=%d", seed)
}

// lineSearchMethods lists the methods that take -line-search, sorted.
func lineSearchMethods() []string {
	var names []string
	for _, n := range MethodNames() {
		if methods[n].LineSearch {
			names = append(names, n)
		}
	}
	return names
}

func mapKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
