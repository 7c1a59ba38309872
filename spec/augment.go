package spec

import (
	"fmt"

	"github.com/lazycg/lazycg"
)

func init() {
	separatorBuilders["aug"] = buildAugmenting
}

// buildAugmenting realizes weak separation through augmentation
// (Algorithm 9) for 0/1 polytopes whose oracle is also an Augmenter, with
// the cache of the config's SeparatorConfig.
func buildAugmenting(in *Instance, c *Config) (lazycg.WeakSeparator, error) {
	aug, ok := in.LMO.(lazycg.Augmenter)
	if !ok {
		return nil, fmt.Errorf("spec: -oracle aug: polytope %q has no augmentation oracle (use spanningtree, flow, dag, hypersimplex, unithypersimplex, cut:N,oracle=enum or a MIP polytope of binary variables)", in.Spec)
	}
	if !lazycg.IsZeroOne(in.LMO) {
		return nil, fmt.Errorf("spec: -oracle aug: polytope %q is not a 0/1 polytope: augmenting separation (Algorithm 9) needs vertices that are 0/1 vectors (binary MIP variables, unit arc capacities, radius 1)", in.Spec)
	}
	if !(c.K > 1) {
		return nil, fmt.Errorf("spec: -oracle aug needs -K > 1 (Algorithm 9 makes ⌈log(1−1/K)/log(1−1/k)⌉ augmentation calls), got K=%g", c.K)
	}
	sep, err := lazycg.NewAugmentingSeparator(aug)
	if err != nil {
		return nil, err
	}
	if cfg := c.SeparatorConfig(); !cfg.NoCache {
		sep.Cache = lazycg.NewCache(in.Dim(), cfg.Cache)
	}
	return sep, nil
}
