package main

import (
	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/crowdkit"
)

// tolFlag is fit's --tol, Crowd-Kit's tol for the models that take one of
// their own (crowdkit.Tolerancer: mmsr).
type tolFlag struct{ v float64 }

func (f *tolFlag) register(c *cobra.Command) {
	c.Flags().Float64Var(&f.v, "tol", 1e-10, "mmsr: stop when a sweep changes the rank-one estimate by less than this, as Crowd-Kit's tol (0: run every sweep of --max-iter)")
}

// apply returns ests with --tol set, when given; a model without a
// tolerance of its own refuses it.
func (f *tolFlag) apply(c *cobra.Command, ests []model.Estimator) ([]model.Estimator, error) {
	if !c.Flags().Changed("tol") {
		return ests, nil
	}
	if err := checkFinite("tol", f.v); err != nil {
		return nil, err
	}
	out := make([]model.Estimator, len(ests))
	for i, est := range ests {
		t, ok := est.(crowdkit.Tolerancer)
		if !ok {
			return nil, usagef("--tol: model %s does not use it; it applies to mmsr (other models: --func-tol)", est.Name())
		}
		out[i] = t.WithTol(f.v)
	}
	return out, nil
}
