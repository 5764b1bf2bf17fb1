package metrics

import (
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// FuzzScores checks the ranges of the scores on arbitrary probability
// rows: accuracy in [0, 1], log loss in [0, +Inf] and never NaN, Brier in
// [0, 2], ECE in [0, 1].
func FuzzScores(f *testing.F) {
	f.Add(0.5, 0.3, 0.0, 0.2, 1.0, 0.0, uint8(1), uint8(2), uint64(1))
	f.Add(0.0, 0.0, 0.0, 1.0, 1.0, 1.0, uint8(0), uint8(0), uint64(7))
	f.Fuzz(func(t *testing.T, a, b, c, d, e, g float64, t0, t1 uint8, seed uint64) {
		raw := []float64{a, b, c, d, e, g}
		pred := make([]float64, 6)
		for j := range 2 {
			var s float64
			for i := range 3 {
				v := raw[3*j+i]
				if !(v >= 0) || math.IsInf(v, 0) {
					return
				}
				s += v
			}
			if !(s > 0) || math.IsInf(s, 0) {
				return
			}
			for i := range 3 {
				pred[3*j+i] = raw[3*j+i] / s
			}
		}
		gold := &data.Gold{Task: []int32{0, 1}, Label: []uint16{uint16(t0 % 3), uint16(t1 % 3)}}
		s := must(Evaluate(pred, 3, gold, seed))
		if !(s.Accuracy >= 0 && s.Accuracy <= 1) {
			t.Errorf("accuracy %v", s.Accuracy)
		}
		if math.IsNaN(s.LogLoss) || s.LogLoss < -1e-12 {
			t.Errorf("log loss %v", s.LogLoss)
		}
		if !(s.Brier >= 0 && s.Brier <= 2+1e-12) {
			t.Errorf("Brier %v", s.Brier)
		}
		if !(s.ECE >= 0 && s.ECE <= 1+1e-12) {
			t.Errorf("ECE %v", s.ECE)
		}
		if ea := must(ExpectedAccuracy(pred, 3, gold)); !(ea >= 0 && ea <= 1) {
			t.Errorf("expected accuracy %v", ea)
		}
	})
}
