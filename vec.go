package lazycg

// Small dense vector kernels used on hot paths. They panic on length
// mismatch (internal calls only).

func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1 float64
	i := 0
	for ; i+1 < len(a); i += 2 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
	}
	if i < len(a) {
		s0 += a[i] * b[i]
	}
	return s0 + s1
}

// axpy sets y += a·x.
func axpy(y []float64, a float64, x []float64) {
	x = x[:len(y)]
	for i := range y {
		y[i] += a * x[i]
	}
}

// sub sets dst = a − b.
func sub(dst, a, b []float64) {
	a = a[:len(dst)]
	b = b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - b[i]
	}
}

// norm2sq returns ‖a‖².
func norm2sq(a []float64) float64 { return dot(a, a) }

// convexStep sets x = (1−γ)x + γv.
func convexStep(x []float64, gamma float64, v []float64) {
	v = v[:len(x)]
	for i := range x {
		x[i] += gamma * (v[i] - x[i])
	}
}
