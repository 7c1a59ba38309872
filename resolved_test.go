package lazycg

import "testing"

// scaledFG is a FuncGrader whose value identifies it (a pointer type).
type scaledFG struct{ k float64 }

func (f *scaledFG) FuncGrad(dst, x []float64) float64 { return f.k }

// sliceFG is a FuncGrader of a dynamic type that == cannot compare (a
// slice), held by value: every conversion to an interface boxes it anew.
type sliceFG []float64

func (f sliceFG) FuncGrad(dst, x []float64) float64 { return f[0] }

// plain has no FuncGrad.
type plain struct{ k float64 }

// TestResolvedFollowsTheValue: a resolved assertion answers for the value
// it is given, also when the value changes between calls — to another
// pointer of the same type, to a type without the interface and back, to
// a value of a type == cannot compare (no panic) — so that a hot path may
// keep it across calls while a caller reassigns State.Obj.
func TestResolvedFollowsTheValue(t *testing.T) {
	var r resolved[FuncGrader]
	a, b := &scaledFG{1}, &scaledFG{2}
	val := func(v any) (float64, bool) {
		fg, ok := r.get(v)
		if !ok {
			return 0, false
		}
		return fg.FuncGrad(nil, nil), true
	}
	steps := []struct {
		v    any
		want float64
		ok   bool
	}{
		{a, 1, true},
		{a, 1, true},
		{b, 2, true},
		{&plain{3}, 0, false},
		{plain{3}, 0, false},
		{a, 1, true},
		{sliceFG{4}, 4, true},
		{sliceFG{5}, 5, true}, // same type, another box
		{b, 2, true},
		{nil, 0, false},
		{b, 2, true},
	}
	for i, st := range steps {
		got, ok := val(st.v)
		if ok != st.ok || got != st.want {
			t.Fatalf("step %d (%T): got (%v, %v), want (%v, %v)", i, st.v, got, ok, st.want, st.ok)
		}
	}
}
