package lazycg

import (
	"reflect"
	"testing"
)

// TestStatsAdd checks that Stats.add sums every counter, so that a field
// added to Stats cannot be forgotten there.
func TestStatsAdd(t *testing.T) {
	var one Stats
	v := reflect.ValueOf(&one).Elem()
	for i := 0; i < v.NumField(); i++ {
		switch f := v.Field(i); f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(i + 1))
		default:
			t.Fatalf("Stats.%s has kind %v: extend the test and Stats.add", v.Type().Field(i).Name, f.Kind())
		}
	}
	var sum Stats
	sum.add(one)
	sum.add(one)
	w := reflect.ValueOf(sum)
	for i := 0; i < w.NumField(); i++ {
		if got, want := w.Field(i).Int(), 2*int64(i+1); got != want {
			t.Errorf("Stats.add: %s = %d, want %d", w.Type().Field(i).Name, got, want)
		}
	}
}
