package jsonfloat

import (
	"encoding/json"
	"math"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, v := range []float64{0, -0.5, 1e300, 5e-324, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()} {
		b, err := json.Marshal(Float(v))
		if err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		var back Float
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%v: %s: %v", v, b, err)
		}
		if w := float64(back); w != v && !(math.IsNaN(v) && math.IsNaN(w)) {
			t.Errorf("%v: %s read back as %v", v, b, w)
		}
	}
	f := Float(3)
	if err := json.Unmarshal([]byte("null"), &f); err != nil || f != 3 {
		t.Errorf("null: %v, %v", f, err)
	}
	for _, bad := range []string{`"inf"`, `"x"`, `true`, `[1]`} {
		if err := json.Unmarshal([]byte(bad), &f); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
