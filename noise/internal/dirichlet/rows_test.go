package dirichlet

import (
	"math"
	"testing"
)

// TestPatternGain checks PatternGain against the Dirichlet-multinomial log
// evidence of the row and of its symmetric form summed directly with
// math.Lgamma, on counts gathered by GatherRows (row 0 of a K = 4 crowd,
// one worker with no count in it).
func TestPatternGain(t *testing.T) {
	const k = 4
	beta := []float64{0.5, 3, 1.5, 0.25}
	cs := []float64{4, 0, 1.5, 0.5, 0, 0, 0, 0, 0, 2, 0, 1, 7.25, 0.5, 0.25, 0}
	w := len(cs) / k
	acc := make([]float64, w*k*k)
	for i := range w {
		for y, c := range cs[i*k : (i+1)*k] {
			acc[i*k*k+y*k+1] = c // row z = 1
		}
	}
	rows := make([]RowCounts, k)
	GatherRows(rows, acc, k, w, nil)
	direct := func(b []float64) float64 {
		var ll, sb float64
		for _, x := range b {
			sb += x
		}
		for i := range w {
			var n float64
			for _, c := range cs[i*k : (i+1)*k] {
				n += c
			}
			if n == 0 {
				continue
			}
			l1, _ := math.Lgamma(sb)
			l2, _ := math.Lgamma(sb + n)
			ll += l1 - l2
			for y, c := range cs[i*k : (i+1)*k] {
				l3, _ := math.Lgamma(b[y] + c)
				l4, _ := math.Lgamma(b[y])
				ll += l3 - l4
			}
		}
		return ll
	}
	off := (0.5 + 1.5 + 0.25) / 3
	got := rows[1].PatternGain(beta, 1, off)
	want := direct(beta) - direct([]float64{off, 3, off, off})
	if math.Abs(got-want) > 1e-12*math.Abs(direct(beta)) {
		t.Errorf("PatternGain = %v, want %v", got, want)
	}
	if len(rows[1].N) != 3 || len(rows[0].N) != 0 {
		t.Errorf("gathered %d workers in row 1 and %d in row 0, want 3 and 0", len(rows[1].N), len(rows[0].N))
	}
}
