package sim

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrShortClassPrior is the error of ParseClassPrior for fewer than two
// probabilities.
var ErrShortClassPrior = errors.New("want at least two probabilities separated by commas, such as 0.88,0.12")

// ParseClassPrior parses a class prior: at least two probabilities above
// 0, separated by commas, summing to 1 within 10⁻⁶, such as "0.88,0.12".
// With fewer than two, the error is ErrShortClassPrior.
func ParseClassPrior(s string) ([]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) < 2 {
		return nil, ErrShortClassPrior
	}
	p := make([]float64, len(parts))
	var sum float64
	for i, part := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || !(v > 0 && v <= 1) {
			return nil, fmt.Errorf("%q is not a probability above 0", part)
		}
		p[i] = v
		sum += v
	}
	if math.Abs(sum-1) > 1e-6 {
		return nil, fmt.Errorf("the probabilities sum to %v, not 1", sum)
	}
	return p, nil
}

// ParseCorrelated parses a correlated group: "off" (no group, the zero
// Correlated), or key=value pairs separated by commas with the keys
// workers, coverage and subtype, and optionally from and to together, such
// as "workers=3,coverage=0.5,subtype=0.3". The error names the pair at
// fault.
func ParseCorrelated(s string) (Correlated, error) {
	var g Correlated
	if s == "off" {
		return g, nil
	}
	bad := func(format string, a ...any) (Correlated, error) {
		return Correlated{}, fmt.Errorf(format, a...)
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return bad("%q is not key=value (want workers=N,coverage=F,subtype=S[,from=A,to=B])", part)
		}
		if seen[key] {
			return bad("%s given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "workers":
			if g.Workers, err = strconv.Atoi(val); err != nil || g.Workers < 1 {
				return bad("workers=%s is not a number of workers above 0", val)
			}
		case "from", "to":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return bad("%s=%s is not a class index", key, val)
			}
			if key == "from" {
				g.From = n
			} else {
				g.To = n
			}
		case "coverage":
			if g.Coverage, err = strconv.ParseFloat(val, 64); err != nil || !(g.Coverage > 0 && g.Coverage <= 1) {
				return bad("coverage=%s is not a share above 0 and at most 1", val)
			}
		case "subtype":
			if g.Subtype, err = strconv.ParseFloat(val, 64); err != nil || !(g.Subtype >= 0 && g.Subtype <= 1) {
				return bad("subtype=%s is not a share from 0 to 1", val)
			}
		default:
			return bad("unknown key %q (want workers, coverage, subtype, from, to)", key)
		}
	}
	for _, key := range []string{"workers", "coverage", "subtype"} {
		if !seen[key] {
			return bad("%s= is missing (want workers=N,coverage=F,subtype=S[,from=A,to=B])", key)
		}
	}
	if seen["from"] != seen["to"] {
		return bad("give both from= and to=, or neither (class 0 called 1)")
	}
	if seen["from"] && g.From == g.To {
		return bad("from= and to= are the same class")
	}
	return g, nil
}

// ParseAmbiguity parses ambiguous objects: "off" (none, the zero
// Ambiguity), or "vertex=S,base=A" with S and A above 0 (the keys in
// either order), such as "vertex=3,base=0.5". The error names the pair at
// fault.
func ParseAmbiguity(s string) (Ambiguity, error) {
	var a Ambiguity
	if s == "off" {
		return a, nil
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Ambiguity{}, fmt.Errorf("%q is not key=value (want vertex=S,base=A)", part)
		}
		if seen[key] {
			return Ambiguity{}, fmt.Errorf("%s given twice", key)
		}
		seen[key] = true
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return Ambiguity{}, fmt.Errorf("%s=%s is not a number above 0", key, val)
		}
		switch key {
		case "vertex":
			a.Vertex = v
		case "base":
			a.Base = v
		default:
			return Ambiguity{}, fmt.Errorf("unknown key %q (want vertex, base)", key)
		}
	}
	for _, key := range []string{"vertex", "base"} {
		if !seen[key] {
			return Ambiguity{}, fmt.Errorf("%s= is missing (want vertex=S,base=A)", key)
		}
	}
	return a, nil
}

// ParseRanges parses accuracy ranges LO:HI with 0 < LO ≤ HI < 1,
// separated by commas, such as "0.75:0.98,0.55:0.95" (one range per class
// of DSParams.Diag). The error names the part that is not such a range.
func ParseRanges(s string) ([]Range, error) {
	var rs []Range
	for _, part := range strings.Split(s, ",") {
		lo, hi, ok := strings.Cut(strings.TrimSpace(part), ":")
		a, errA := strconv.ParseFloat(lo, 64)
		b, errB := strconv.ParseFloat(hi, 64)
		if !ok || errA != nil || errB != nil || !(a > 0 && a <= b && b < 1) {
			return nil, fmt.Errorf("%q is not a range LO:HI with 0 < LO ≤ HI < 1", part)
		}
		rs = append(rs, Range{Lo: a, Hi: b})
	}
	return rs, nil
}

// Sizes returns the numbers of workers, of labels an object and of
// classes of c with the defaults Simulate fills in for the zero values.
func (c Settings) Sizes() (workers, per, k int) {
	workers, per, k = c.Workers, c.LabelsPerTask, c.Classes
	if workers == 0 {
		workers = 20
	}
	if per <= 0 || per > workers {
		per = workers
	}
	if k == 0 {
		k = max(2, len(c.ClassPrior))
	}
	return workers, per, k
}
