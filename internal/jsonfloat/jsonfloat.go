// Package jsonfloat is a float64 whose JSON form can hold NaN and ±Inf,
// which JSON numbers cannot: as the strings "NaN", "Inf" and "-Inf".
package jsonfloat

import (
	"fmt"
	"math"
	"strconv"
)

// Float is a float64 written as a JSON number, or as "NaN", "Inf" or
// "-Inf".
type Float float64

// MarshalJSON writes f as a number (strconv's shortest 'g' form), or as
// the string "NaN", "Inf" or "-Inf".
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsInf(v, 1):
		return []byte(`"Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON reads what MarshalJSON writes (and "+Inf"); null leaves f
// unchanged, as for a plain float64.
func (f *Float) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "null":
		return nil
	case `"Inf"`, `"+Inf"`:
		*f = Float(math.Inf(1))
		return nil
	case `"-Inf"`:
		*f = Float(math.Inf(-1))
		return nil
	case `"NaN"`:
		*f = Float(math.NaN())
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("not a number: %s (want a number, \"NaN\", \"Inf\" or \"-Inf\")", b)
	}
	*f = Float(v)
	return nil
}
