package spec

import (
	"fmt"

	"github.com/lazycg/lazycg"
)

func init() {
	separatorBuilders["aug"] = buildAugmenting
}

// buildAugmenting realizes weak separation through augmentation
// (Algorithm 9) for 0/1 polytopes whose oracle is also an Augmenter.
func buildAugmenting(in *Instance, j Job) (lazycg.WeakSeparator, error) {
	aug, ok := in.LMO.(lazycg.Augmenter)
	if !ok {
		return nil, fmt.Errorf("spec: -oracle aug: polytope %q has no augmentation oracle", in.Spec)
	}
	if !(j.Params.K > 1) {
		return nil, fmt.Errorf("spec: -oracle aug needs K > 1 (Algorithm 9 makes ⌈log(1−1/K)/log(1−1/k)⌉ augmentation calls), got K=%g", j.Params.K)
	}
	sep, err := lazycg.NewAugmentingSeparator(aug)
	if err != nil {
		return nil, err
	}
	if !j.NoCache {
		sep.Cache = lazycg.NewCache(in.Dim(), j.cachePolicy())
	}
	return sep, nil
}
