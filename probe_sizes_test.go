package lazycg

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lazycg/lazycg/internal/testutil"
)

// sizedAug is a 0/1 augmentation oracle that claims dimension n (it is
// never asked anything: the separator must refuse it first).
type sizedAug struct{ n int }

func (a sizedAug) Dim() int        { return a.n }
func (a sizedAug) L1Diameter() int { return 2 }
func (a sizedAug) Augment(_ context.Context, dst, _, x []float64) (bool, error) {
	copy(dst, x)
	return false, nil
}

// nilPtrAug is an augmentation oracle with pointer receivers, to be passed
// as a typed nil.
type nilPtrAug struct{ n int }

func (a *nilPtrAug) Dim() int        { return a.n }
func (a *nilPtrAug) L1Diameter() int { return 2 }
func (a *nilPtrAug) Augment(_ context.Context, dst, _, x []float64) (bool, error) {
	copy(dst, x)
	return false, nil
}

// shiftingDistance is ‖x − b‖² whose Dim answers len(b) once and 1<<62
// afterwards: an objective that lies about its dimension after the check.
type shiftingDistance struct {
	testDistance
	calls int
}

func (d *shiftingDistance) Dim() int {
	d.calls++
	if d.calls == 1 {
		return len(d.b)
	}
	return 1 << 62
}

// shiftingLMO is the simplex of testSimplex whose Dim answers the right
// dimension for its first k calls and 1<<62 afterwards: an LMO that lies
// about its dimension after the problem check.
type shiftingLMO struct {
	testSimplex
	k, calls int
}

func (l *shiftingLMO) Dim() int {
	l.calls++
	if l.calls <= l.k {
		return l.n
	}
	return 1 << 62
}

// TestProbeSizes checks that sizes out of range reach the user of the
// root package as errors naming the limit, not as a makeslice panic: an
// augmentation oracle's dimension (its working vectors are allocated by
// the constructor), an AugmentingSeparator without a usable oracle given
// to Minimize and Check (its Dim is its oracle's), an objective or an
// LMO whose Dim changes after the problem check (in concurrent mode too:
// its cache, hull stepper and call slots), and the augmentation bound of a
// huge ℓ1-diameter (its error blamed K).
func TestProbeSizes(t *testing.T) {
	simplex := testSimplex{3}
	b := []float64{0.2, 0.3, 0.5}
	var nilAug *nilPtrAug
	tests := []struct {
		name string
		run  func() error
		want string // in the error; "" for none
	}{
		{"NewAugmentingSeparator dim 0", func() error { _, err := NewAugmentingSeparator(sizedAug{0}); return err }, "dimension 0 is not in [1, 1099511627776]"},
		{"NewAugmentingSeparator dim -1", func() error { _, err := NewAugmentingSeparator(sizedAug{-1}); return err }, "dimension -1 is not in [1, 1099511627776]"},
		{"NewAugmentingSeparator dim 1<<62", func() error { _, err := NewAugmentingSeparator(sizedAug{1 << 62}); return err }, "dimension 4611686018427387904 is not in"},
		{"NewAugmentingSeparator dim MaxInt", func() error { _, err := NewAugmentingSeparator(sizedAug{math.MaxInt}); return err }, "(MaxDim)"},
		{"NewAugmentingSeparator dim MinInt", func() error { _, err := NewAugmentingSeparator(sizedAug{math.MinInt}); return err }, "(MaxDim)"},
		{"Separate dim -1", func() error {
			s := &AugmentingSeparator{Aug: sizedAug{-1}}
			_, err := s.Separate(context.Background(), nil, nil, nil, 1, 2)
			return err
		}, "dimension -1 is not in"},
		{"Remember dim -1", func() error {
			(&AugmentingSeparator{Aug: sizedAug{-1}}).Remember(nil)
			(&AugmentingSeparator{Aug: sizedAug{0}}).Remember(nil)
			return nil
		}, ""},
		{"Minimize separator without oracle", func() error {
			_, err := Minimize(context.Background(), Problem{Objective: testDistance{b}, LMO: simplex, Separator: &AugmentingSeparator{}}, nil, &LazyCG{})
			return err
		}, "lazycg: augmenting separator: no augmentation oracle"},
		{"Check separator without oracle", func() error {
			return Check(Problem{Objective: testDistance{b}, LMO: simplex, Separator: &AugmentingSeparator{}}, nil, &LazyCG{})
		}, "lazycg: augmenting separator: no augmentation oracle"},
		{"Minimize separator with typed-nil oracle", func() error {
			_, err := Minimize(context.Background(), Problem{Objective: testDistance{b}, LMO: simplex, Separator: &AugmentingSeparator{Aug: nilAug}}, nil, &LazyCG{})
			return err
		}, "the augmentation oracle is a nil *lazycg.nilPtrAug"},
		{"CheckProblem separator of dim 1<<62", func() error {
			return CheckProblem(3, simplex, &AugmentingSeparator{Aug: sizedAug{1 << 62}}, nil)
		}, "dimension 4611686018427387904 is not in"},
		{"Minimize objective whose Dim changes", func() error {
			res, err := Minimize(context.Background(), Problem{Objective: &shiftingDistance{testDistance: testDistance{b}}, LMO: simplex}, &Settings{MaxIterations: 5}, &FrankWolfe{})
			if err == nil && len(res.X) != 3 {
				t.Errorf("objective whose Dim changes: len(X) = %d, want 3", len(res.X))
			}
			return err
		}, ""},
		{"Minimize concurrent, LMO whose Dim changes", func() error {
			// k = 1: the check's read only; 2: the separator's cache
			// too; 3: the hull stepper too (then the call slots).
			for k := 1; k <= 3; k++ {
				for _, m := range []Method{&LazyCG{}, &LazyAwayFW{}, &LazyBPCG{}} {
					res, err := Minimize(context.Background(), Problem{Objective: testDistance{b}, LMO: &shiftingLMO{testSimplex: simplex, k: k}},
						&Settings{MaxIterations: 20, SeparatorConfig: SeparatorConfig{Concurrent: true}}, m)
					if err != nil {
						return err
					}
					if len(res.X) != 3 {
						t.Errorf("k=%d %T: len(X) = %d, want 3", k, m, len(res.X))
					}
				}
			}
			return nil
		}, ""},
		{"Minimize LMO whose Dim changes", func() error {
			for _, m := range []Method{&LazyCG{}, &FrankWolfe{}, &LazyAwayFW{}} {
				res, err := Minimize(context.Background(), Problem{Objective: testDistance{b}, LMO: &shiftingLMO{testSimplex: simplex, k: 1}},
					&Settings{MaxIterations: 20}, m)
				if err != nil {
					return err
				}
				if len(res.X) != 3 {
					t.Errorf("%T: len(X) = %d, want 3", m, len(res.X))
				}
			}
			return nil
		}, ""},
		{"AugmentationBound huge diameter", func() error { _, err := AugmentationBound(2, 1<<40); return err }, "ℓ1-diameter k = 1099511627776"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panicked: %v", r)
					}
				}()
				err = tc.run()
			}()
			if msg := testutil.ErrMismatch(err, tc.want); msg != "" {
				t.Fatal(msg)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "lazycg: ") {
				t.Fatalf("error %q lacks the prefix lazycg: ", err)
			}
		})
	}
}
