package lmo

// selectLargest permutes idx (a permutation of 0 … len(key)−1 on entry is
// not required: selectLargest fills it) so that its first k entries are
// indices of k largest key values. It uses quickselect with three-way
// partitioning (runs of equal keys cost linear time) and pseudo-random
// pivots from a fixed seed, so the selected set is a deterministic function
// of key. Expected O(len(key)); it allocates nothing. 0 ≤ k ≤ len(key) =
// len(idx).
func selectLargest(idx []int32, key []float64, k int) {
	for i := range idx {
		idx[i] = int32(i)
	}
	rng := uint64(0x9e3779b97f4a7c15) // fixed seed: deterministic per call
	lo, hi := 0, len(idx)
	for hi-lo > 1 && k > lo && k < hi {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		p := key[idx[lo+int(rng%uint64(hi-lo))]]
		// Invariant: [lo, lt) > p, [lt, i) == p, [gt, hi) < p.
		lt, i, gt := lo, lo, hi
		for i < gt {
			v := key[idx[i]]
			switch {
			case v > p:
				idx[lt], idx[i] = idx[i], idx[lt]
				lt++
				i++
			case v < p:
				gt--
				idx[gt], idx[i] = idx[i], idx[gt]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k <= gt:
			return
		default:
			lo = gt
		}
	}
}
