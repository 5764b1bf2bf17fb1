package vb

import (
	"context"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/sim"
)

// TestJointDAHeld checks the joint DA fit of the default's label
// distributions (jointDA) on the paper's synthetic DA design, seed 1, from
// the LA fit's workers: learning the shared state throughout, it
// converges without holding it, and a learning phase at least that long
// gives the same fit; holding the state after 5 passes, it says so,
// converges, and its distributions' mean squared error against the true
// q_j is within 5% of the fully learned fit's.
func TestJointDAHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a simulation three times")
	}
	d, tr, err := sim.Simulate(sim.Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	est, err := model.ByName(model.DefaultModel)
	if err != nil {
		t.Fatal(err)
	}
	b := est.(Bayes)
	own := model.Settings{FunctionTol: VBFunctionTol, ParamTol: VBParamTol}
	set := own.WithDefaults()
	ctx := context.Background()
	nv, err := b.posterior(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vbFit(ctx, b.Name(), d, set, nv, newVBLA(d, nil), vbFresh, nil); err != nil {
		t.Fatal(err)
	}
	start, a := nv.Params(nil), symmetric(d.NumClasses(), JeffreysPrior)
	free, how, err := b.jointDA(ctx, d, set, start, a, nil, set.MaxIterations)
	if err != nil {
		t.Fatal(err)
	}
	if !free.Converged || strings.Contains(how, "held") {
		t.Fatalf("learning throughout: converged %v, %s", free.Converged, how)
	}
	same, _, err := b.jointDA(ctx, d, set, start, a, nil, free.Iterations)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range same.Probs {
		if p != free.Probs[i] {
			t.Fatalf("learning for the %d passes the fit takes: q[%d] = %v, want %v", free.Iterations, i, p, free.Probs[i])
		}
	}
	held, how, err := b.jointDA(ctx, d, set, start, a, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !held.Converged || !strings.Contains(how, "held after 5") {
		t.Fatalf("held after 5 passes: converged %v, %s", held.Converged, how)
	}
	k := d.NumClasses()
	mFree, err := metrics.MSE(free.Probs, tr.Q, k)
	if err != nil {
		t.Fatal(err)
	}
	mHeld, err := metrics.MSE(held.Probs, tr.Q, k)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("MSE of q: learned throughout %.5f (%d passes), held after 5 %.5f (%s)", mFree, free.Iterations, mHeld, how)
	if mHeld > 1.05*mFree {
		t.Errorf("MSE of q held after 5 passes %.5f, more than 5%% above the learned fit's %.5f", mHeld, mFree)
	}
}
