package vb

import (
	"context"
	"fmt"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// jointLearnPasses is the number of passes for which the joint DA fit of
// the default's label distributions (jointDA) learns the shared state of
// its workers' posterior (the shared priors and, under DS.Averaged, the
// kinds' shares) before it holds that state where it is.
const jointLearnPasses = 100

// jointDA fits the label distributions jointly with the workers under DA
// (vb-da-ds's fit with this form's noise model), from the LA fit's noise
// posterior parameters start, with every task's q_j ~ Dirichlet(a). It
// returns the fit and the method's description.
//
// For learnPasses passes (jointLearnPasses in the default) the shared
// state is learned with the workers. If the fit has not converged by then
// it is refitted from where it is with that state held (Settings.Fixed),
// so that only the workers' pseudo-counts and the q_j move, until it
// converges or the rest of set.MaxIterations is spent. The kinds' shares
// and the choice of a row's error pattern are not an ascent of one bound,
// and under DA they can cycle: on seed 3 of the paper's synthetic DA
// design (consensus simulate --seed 3) the learning never converged in the
// 1,000 passes allowed; held after 100 it converges 2 passes later, and
// the distributions' mean squared error is the same to five decimals
// (TestDefaultDistributionLimit). On two public sets not shipped here,
// sentiment polarity (27,746 labels, K = 2) and dog breeds (8,070 labels,
// K = 4), the bound swung by up to ±20 nats for all 1,000 passes, and the
// whole fit took 5.3 and 3.0 CPU-s; held, 0.6 and 0.4.
func (b Bayes) jointDA(ctx context.Context, d *data.Dataset, set model.Settings, start, a []float64, weight data.TaskWeights, learnPasses int) (*model.Result, string, error) {
	joint, err := b.posterior(d)
	if err != nil {
		return nil, "", err
	}
	learn := set
	learn.Start, learn.Fixed = start, nil
	learn.MaxIterations = min(set.MaxIterations, learnPasses)
	q, err := vbFit(ctx, b.Name(), d, learn, joint, newVBDA(d, false, a, b.Gold), vbFresh, weight)
	if err != nil {
		return nil, "", err
	}
	how := fmt.Sprintf("fitted jointly with the workers under DA (%d iterations)", q.Iterations)
	shared := d.NumWorkers() * b.Noise.WorkerDim(d.NumClasses()) // where the shared state starts
	held := set
	held.Start = joint.Params(nil)
	held.MaxIterations = set.MaxIterations - q.Iterations
	if q.Converged || held.MaxIterations <= 0 || len(held.Start) <= shared {
		return q, how, nil
	}
	held.Fixed = make([]bool, len(held.Start))
	for i := shared; i < len(held.Fixed); i++ {
		held.Fixed[i] = true
	}
	if joint, err = b.posterior(d); err != nil {
		return nil, "", err
	}
	learned := q.Iterations
	if q, err = vbFit(ctx, b.Name(), d, held, joint, newVBDA(d, false, a, b.Gold), vbFresh, weight); err != nil {
		return nil, "", err
	}
	return q, fmt.Sprintf("fitted jointly with the workers under DA (%d iterations, the shared priors held after %d)", learned+q.Iterations, learned), nil
}
