package lmo

import "testing"

// TestAnswerValueHugeFactors: c·v of finite value whose products overflow
// on both sides. answerValue scaled c alone by 2^−(a+b+…), which is 0 here
// (a + b ≈ 2000): 0/0 made the value NaN and the Box refuse its answer.
func TestAnswerValueHugeFactors(t *testing.T) {
	c := []float64{1e300, -1e300}
	v := []float64{1e300, 1e300}
	if got := answerValue(c, v); got != 0 {
		t.Fatalf("answerValue = %v, want 0", got)
	}
	if got, err := basicValue("test", []float64{1e300, -1e300, 1e10}, []float64{1e300, 1e300, 1e290}); err != nil || got != 1e300 {
		t.Fatalf("basicValue = %v, %v, want 1e300", got, err)
	}
	if _, err := basicValue("test", []float64{1e300, 1e300}, []float64{1e300, 1e300}); err == nil {
		t.Fatal("basicValue of 2e600: no error")
	}
}
