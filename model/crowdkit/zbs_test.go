package crowdkit

import (
	"context"
	"testing"
)

func TestZeroBasedSkill(t *testing.T) {
	d := readCrowd(t, crowd)
	// One iteration with η halved at once: s_w = s0 + (a_w − s0)/2 with
	// s0 = 1/2 + 1e-5 and the accuracies a = 3/4, 3/4, 2/3 of TestWawa.
	s0 := 0.5 + 1e-5
	sa, sc := s0+(0.75-s0)/2, s0+(2.0/3-s0)/2
	half := [][]float64{
		{2 * sa / (2*sa + sc), sc / (2*sa + sc)},
		{sa / (2*sa + sc), (sa + sc) / (2*sa + sc)},
		{sa / (2*sa + sc), (sa + sc) / (2*sa + sc)},
		{1, 0},
	}
	tests := []struct {
		name  string
		e     ZeroBasedSkill
		want  [][]float64
		iters int
	}{
		// With η = 1 the first iteration sets the skills to Wawa's; the
		// second changes nothing, a fixed point.
		{"defaults reach Wawa", ZeroBasedSkill{}, [][]float64{{9.0 / 13, 4.0 / 13}, {9.0 / 26, 17.0 / 26}, {9.0 / 26, 17.0 / 26}, {1, 0}}, 2},
		{"halved step", ZeroBasedSkill{MaxIterations: 1, DecaySteps: 1}, half, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tt.e.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkProbs(t, r, tt.want)
			if r.Iterations != tt.iters {
				t.Errorf("%d iterations, want %d", r.Iterations, tt.iters)
			}
		})
	}
}
