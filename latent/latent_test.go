package latent_test

import (
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
)

// oneTask is a data set with one object and two labels, K = 2.
func oneTask(t *testing.T) *data.Dataset {
	t.Helper()
	d, err := data.FromIndices([]string{"x"}, []string{"a", "b"}, []string{"0", "1"},
		[]int32{0, 0}, []int32{0, 1}, []uint16{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestHandComputed checks both assumptions on one object with two labels
// whose probabilities P(y_i | z) are given directly:
// label 1: P(y|0) = 0.2, P(y|1) = 0.9; label 2: P(y|0) = 0.4, P(y|1) = 0.6.
func TestHandComputed(t *testing.T) {
	d := oneTask(t)
	p := [][2]float64{{0.2, 0.9}, {0.4, 0.6}}
	l := []float64{math.Log(p[0][0]), math.Log(p[0][1]), math.Log(p[1][0]), math.Log(p[1][1])}

	// LA with uniform prior: L = log(0.5·0.2·0.4 + 0.5·0.9·0.6),
	// posterior of class 1 = 0.27/(0.04 + 0.27).
	la := evaluator(t, latent.LA{}, d)
	la.SetParams(nil, nil)
	g := make([]float64, 4)
	v := la.Task(0, l, g, nil, nil)
	if want := math.Log(0.5*0.2*0.4 + 0.5*0.9*0.6); math.Abs(v-want) > 1e-12 {
		t.Errorf("LA term %v, want %v", v, want)
	}
	out := make([]float64, 2)
	la.Output(0, l, out)
	if want := 0.27 / 0.31; math.Abs(out[1]-want) > 1e-12 || math.Abs(out[0]+out[1]-1) > 1e-12 {
		t.Errorf("LA posterior %v, want class 1 = %v", out, want)
	}
	for i := range 2 {
		if g[2*i+1] != out[1] {
			t.Errorf("LA weight of label %d = %v, want the posterior %v", i, g[2*i+1], out[1])
		}
	}

	// DA with q = (0.25, 0.75): L = log(0.25·0.2 + 0.75·0.9) + log(0.25·0.4 + 0.75·0.6).
	b := []float64{math.Log(0.25), math.Log(0.75)}
	da := evaluator(t, latent.DA{}, d)
	da.SetParams(nil, b)
	gb := make([]float64, 2)
	v = da.Task(0, l, g, nil, gb)
	m1, m2 := 0.25*0.2+0.75*0.9, 0.25*0.4+0.75*0.6
	if want := math.Log(m1) + math.Log(m2); math.Abs(v-want) > 1e-12 {
		t.Errorf("DA term %v, want %v", v, want)
	}
	// Responsibilities r_1(1) = 0.675/m1, r_2(1) = 0.45/m2; ∂L/∂b_1 = Σ r_i(1) - 2·0.75.
	if want := 0.675/m1 + 0.45/m2 - 1.5; math.Abs(gb[1]-want) > 1e-12 {
		t.Errorf("∂L/∂b_1 = %v, want %v", gb[1], want)
	}
	da.Output(0, l, out)
	if math.Abs(out[1]-0.75) > 1e-12 {
		t.Errorf("DA output %v, want q = (0.25, 0.75)", out)
	}
}

// evaluator returns a's evaluator on d, failing the test on an error.
func evaluator(tb testing.TB, a latent.Assumption, d *data.Dataset) latent.Evaluator {
	tb.Helper()
	ev, err := a.NewEvaluator(d)
	if err != nil {
		tb.Fatal(err)
	}
	return ev
}
