package model

import (
	"fmt"
	"strings"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// DefaultModel is the name of the estimator a user gets without naming
// one: Bayesian Dawid-Skene with workers from the LA fit and q_j under DA
// (see Bayes and docs/choosing-a-model.md).
const DefaultModel = "vb-da-ds"

// Entry describes one estimator known by name.
type Entry struct {
	// Name is the command-line name.
	Name string
	// Summary is a one-line description.
	Summary string
	// New returns the estimator.
	New func() Estimator
}

// pair returns the LA and DA entries of noise model n, described by
// summary. The LA form of Dawid-Skene learns the class prior; GLAD and
// minimax entropy keep it uniform, as in their original papers.
func pair(n noise.Model, summary string) []Entry {
	_, learn := n.(noise.DS)
	prior := "uniform class prior"
	if learn {
		prior = "learned class prior"
	}
	return []Entry{
		{"la-" + n.Name(), "LA " + summary + ", " + prior + ", output the posterior of the true class", func() Estimator {
			return Model{Noise: n, Latent: latent.LA{LearnPrior: learn}}
		}},
		{"da-" + n.Name(), "DA " + summary + ", output the label distribution q_j", func() Estimator {
			return Model{Noise: n, Latent: latent.DA{}}
		}},
	}
}

// Registry lists the estimators by name: rfe (and its alias mv), the LA
// and DA forms of Dawid-Skene, GLAD and minimax entropy (the paper's), then
// the models beyond the paper (see beyondPaper).
func Registry() []Entry {
	r := []Entry{
		{"rfe", "relative frequencies of the labels of each object (the baseline)", func() Estimator { return RFE{} }},
		{"mv", "majority vote: rfe read through its argmax", func() Estimator { return RFE{Alias: "mv"} }},
	}
	r = append(r, pair(noise.DS{}, "Dawid-Skene (confusion matrix per worker)")...)
	r = append(r, pair(noise.GLAD{}, "GLAD (worker ability x object difficulty)")...)
	r = append(r, pair(noise.MME{}, "minimax entropy (K x K matrices per worker and per object)")...)
	r = append(r, beyondPaper()...)
	r = append(r, bayesian()...)
	r = append(r, crowdKit()...)
	return r
}

// Names returns the names of all registered estimators.
func Names() []string {
	var names []string
	for _, e := range Registry() {
		names = append(names, e.Name)
	}
	return names
}

// ByName returns the estimator registered under name.
func ByName(name string) (Estimator, error) {
	for _, e := range Registry() {
		if e.Name == name {
			return e.New(), nil
		}
	}
	return nil, fmt.Errorf("unknown model %q (valid: %s)", name, strings.Join(Names(), ", "))
}
