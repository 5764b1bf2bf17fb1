package hda

import (
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

func init() {
	model.Register(model.Family{Name: "hda", Section: model.SectionLikelihood, Rank: 1, Forms: hdaForms})
}

// hdaForms returns the hierarchical DA entry hda-X of n.
func hdaForms(n noise.Describer) []model.Entry {
	info := n.Info()
	return []model.Entry{
		{
			Name:    "hda-" + n.Name(),
			Summary: "hierarchical DA " + info.Summary + ", q_j ~ Dirichlet(alpha p) with alpha, p by empirical Bayes",
			Solver:  info.Solver,
			New:     func() model.Estimator { return HDA{Noise: n} },
		},
	}
}
