package num

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestExp compares Exp with math.Exp on random and special arguments.
func TestExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, 1, -1, 1e-300, -1e-300, 699.9, -699.9, 700, -700, 709, -745, 800, -800,
		math.Inf(1), math.Inf(-1), math.NaN(), math.Ln2 / 256, -math.Ln2 / 256}
	for range 200000 {
		xs = append(xs, (rng.Float64()*2-1)*700, rng.NormFloat64())
	}
	worst := 0.0
	for _, x := range xs {
		got, want := Exp(x), math.Exp(x)
		if math.IsNaN(want) {
			if !math.IsNaN(got) {
				t.Errorf("Exp(%v) = %v, want NaN", x, got)
			}
			continue
		}
		if got == want {
			continue
		}
		rel := math.Abs(got-want) / want
		worst = max(worst, rel)
		if rel > 4e-16 {
			t.Errorf("Exp(%v) = %v, math.Exp %v (relative error %.3g)", x, got, want, rel)
		}
	}
	t.Logf("largest relative difference from math.Exp: %.3g", worst)
}

var sink float64

func BenchmarkExp(b *testing.B) {
	x := make([]float64, 1024)
	for i := range x {
		x[i] = -float64(i%37) * 0.13
	}
	b.Run("num", func(b *testing.B) {
		s := 0.0
		for i := 0; b.Loop(); i++ {
			s += Exp(x[i&1023])
		}
		sink = s
	})
	b.Run("math", func(b *testing.B) {
		s := 0.0
		for i := 0; b.Loop(); i++ {
			s += math.Exp(x[i&1023])
		}
		sink = s
	})
}

// TestExpToLogTo checks that ExpTo and LogTo give Exp and Log of every
// element, into another slice and in place, special values included.
func TestExpToLogTo(t *testing.T) {
	xs := []float64{0, 1, -1, 0.5, 699.9, -699.9, 700, -700, -745, 800, 1e-300, 0x1p-1022,
		math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), -2}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		xs = append(xs, (rng.Float64()*2-1)*700, rng.Float64()*10)
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for _, f := range []struct {
		name   string
		scalar func(float64) float64
		slice  func(dst, x []float64)
	}{{"ExpTo", Exp, ExpTo}, {"LogTo", Log, LogTo}} {
		dst := make([]float64, len(xs)+1)
		f.slice(dst, xs)
		inPlace := slices.Clone(xs)
		f.slice(inPlace, inPlace)
		for i, x := range xs {
			want := f.scalar(x)
			if !same(dst[i], want) || !same(inPlace[i], want) {
				t.Errorf("%s(%v) = %v (in place %v), want %v", f.name, x, dst[i], inPlace[i], want)
			}
		}
		if dst[len(xs)] != 0 {
			t.Errorf("%s wrote past len(x)", f.name)
		}
	}
}
