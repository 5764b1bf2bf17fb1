package noise

import "github.com/consensuslab/consensus/internal/num"

// coinTable holds what OneCoin and TwoCoin need of each accuracy logit c,
// which depends on the worker (and for TwoCoin the latent class) alone:
// SetParams fills it once per parameter vector, so that a label reads
// these numbers instead of computing them from c (a logarithm and an
// exponential each).
type coinTable struct {
	right []float64 // log σ(c): log P(y = z | z)
	wrong []float64 // log σ(-c) - log(K - 1): log P(y | z) for each y ≠ z
	acc   []float64 // σ(c), the accuracy: the gradient, Conditional and WorkerValues read it
}

// fill sets the table's entries for the logits c, with logKm1 = log(K - 1).
func (t *coinTable) fill(c []float64, logKm1 float64) {
	if len(t.acc) != len(c) {
		t.right = make([]float64, len(c))
		t.wrong = make([]float64, len(c))
		t.acc = make([]float64, len(c))
	}
	for i, v := range c {
		t.right[i] = num.LogSigmoid(v)
		t.wrong[i] = num.LogSigmoid(-v) - logKm1
		t.acc[i] = num.Sigmoid(v)
	}
}
