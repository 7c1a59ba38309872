package lazycg

import "math/bits"

// Bit-set kernels for the 0/1 vertices a Cache stores as bit sets (see
// storeEntry). Coordinate i is bit i%64 of word i/64.

// isBinary reports whether every entry of v is 0 or 1.
func isBinary(v []float64) bool {
	for _, x := range v {
		if x != 0 && x != 1 {
			return false
		}
	}
	return true
}

// bitsOf returns the bit set of the ones of the 0/1 vector v, reusing dst's
// storage when it is large enough.
func bitsOf(dst []uint64, v []float64) []uint64 {
	w := (len(v) + 63) / 64
	if cap(dst) < w {
		dst = make([]uint64, w)
	}
	dst = dst[:w]
	clear(dst)
	for i, x := range v {
		if x != 0 {
			dst[i>>6] |= 1 << (uint(i) & 63)
		}
	}
	return dst
}

// bitsDot returns Σ c_i over the set bits i, summed in increasing i: bit
// for bit the sum that a sparse entry with values 1 forms.
func bitsDot(b []uint64, c []float64) float64 {
	var s float64
	for k, w := range b {
		base := k << 6
		for w != 0 {
			s += c[base+bits.TrailingZeros64(w)]
			w &= w - 1
		}
	}
	return s
}

// bitsCopy writes the 0/1 vector of b into dst.
func bitsCopy(dst []float64, b []uint64) {
	clear(dst)
	for k, w := range b {
		base := k << 6
		for w != 0 {
			dst[base+bits.TrailingZeros64(w)] = 1
			w &= w - 1
		}
	}
}

// bitsEqual reports whether v is the 0/1 vector of b.
func bitsEqual(b []uint64, v []float64) bool {
	if (len(v)+63)/64 != len(b) {
		return false
	}
	for i, x := range v {
		if b[i>>6]>>(uint(i)&63)&1 == 1 {
			if x != 1 {
				return false
			}
		} else if x != 0 {
			return false
		}
	}
	return true
}
