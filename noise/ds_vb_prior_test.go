package noise

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSharedPriorRecovers checks DS.SharedPrior's empirical Bayes on
// counts drawn from its own model: every worker's confusion row
// π_wz ~ Dirichlet(β_z), then 25 labels a row from π_wz. learnPrior must
// find the β_z it was drawn with, from the fixed prior's start, within the
// sampling error of 1,000 workers: each row's mean within 0.02 and its
// concentration Σ_y β_z(y) within 15%, after as many calls as a fit's
// passes would make.
func TestSharedPriorRecovers(t *testing.T) {
	const k, workers, perRow = 2, 1000, 25
	truth := []float64{8, 2, 3, 6} // β_0 and β_1, row-major
	acc := drawRowCounts(rand.New(rand.NewPCG(1, 2)), func(z, y int) float64 { return truth[z*k+y] }, k, workers, perRow)
	v := DS{SharedPrior: true}.newSharedPosteriorForTest(k, workers)
	for range 20 {
		v.learnPrior(acc)
	}
	t.Logf("β = %.3f, drawn with %v", v.beta, truth)
	for z := range k {
		got, want := v.beta[z*k:(z+1)*k], truth[z*k:(z+1)*k]
		if c, wc := sum(got), sum(want); math.Abs(c-wc) > 0.15*wc || math.Abs(got[0]/c-want[0]/wc) > 0.02 {
			t.Errorf("row %d: β_z = %.3f, drawn with %v", z, got, want)
		}
	}
}

// newSharedPosteriorForTest returns the variational posterior of m for
// workers workers and k classes without a data set, for learnPrior alone.
func (m DS) newSharedPosteriorForTest(k, workers int) *dsVB {
	diag, off := m.confusionPrior()
	return &dsVB{e: dsEval{k: k}, diag: diag, off: off, lam: make([]float64, workers*k*k), beta: startPrior(k, diag, off)}
}
