package noise_test

import (
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/noise"
)

// TestDSInitPaper checks DS's initialisation against a hand computation:
// one worker labels two objects whose label frequencies are (1, 0) and
// (0.5, 0.5), saying class 0 on both. The count matrix is column 0 =
// (1.5, 0.5), column 1 = 0, so with pseudo-count s = 0.01 the confusion rows
// are ((1.5+s)/(1.5+2s), s/(1.5+2s)) and ((0.5+s)/(0.5+2s), s/(0.5+2s)).
func TestDSInitPaper(t *testing.T) {
	d, err := data.FromIndices([]string{"a", "b"}, []string{"w", "v"}, []string{"0", "1"},
		[]int32{0, 1, 1}, []int32{0, 0, 1}, []uint16{0, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, 2*4)
	noise.DS{}.Init(d, d.FrequencyWeights(), w, nil)
	const s = 0.01
	want := []float64{(1.5 + s) / (1.5 + 2*s), s / (1.5 + 2*s), (0.5 + s) / (0.5 + 2*s), s / (0.5 + 2*s)}
	for i, p := range want {
		if got := math.Exp(w[i]); math.Abs(got-p) > 1e-12 {
			t.Errorf("π(%d,%d) = %v, want %v", i/2, i%2, got, p)
		}
	}
}
