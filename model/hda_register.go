package model

import "github.com/consensuslab/consensus/noise"

func init() {
	Register(Family{Name: "hda", Section: SectionLikelihood, Rank: 1, Forms: hdaForms})
}

// hdaForms returns the hierarchical DA entry hda-X of n.
func hdaForms(n noise.Describer) []Entry {
	info := n.Info()
	return []Entry{
		{"hda-" + n.Name(), "hierarchical DA " + info.Summary + ", q_j ~ Dirichlet(alpha p) with alpha, p by empirical Bayes", info.Solver, func() Estimator {
			return HDA{Noise: n}
		}},
	}
}
