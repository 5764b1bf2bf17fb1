package model

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// DefaultModel is the name of the estimator a user gets without naming
// one: Bayesian Dawid-Skene under DA, workers and q_j fitted together with
// q_j ~ Dirichlet(1/2, …, 1/2) (see package vb and docs/choosing-a-model.md).
const DefaultModel = "vb-ds"

// NoiseModels returns the noise models of the registry, in the order
// Registry lists them. Each declares its summary, LA prior policy,
// supported numbers of classes and default solver (noise.Info); adding a
// noise model to the registry is adding it here.
func NoiseModels() []noise.Describer {
	return []noise.Describer{
		noise.DS{}, noise.GLAD{}, noise.MME{}, // the paper's
		noise.OneCoin{}, noise.MACE{}, noise.RegMME{},
		noise.TwoCoin{},
	}
}

// NoiseByName returns the registry's noise model of that name, such as
// "ds".
func NoiseByName(name string) (noise.Describer, error) {
	var names []string
	for _, n := range NoiseModels() {
		if n.Name() == name {
			return n, nil
		}
		names = append(names, n.Name())
	}
	return nil, fmt.Errorf("unknown noise model %q (valid: %s)", name, strings.Join(names, ", "))
}

// Entry describes one estimator known by name.
type Entry struct {
	// Name is the command-line name.
	Name string
	// Summary is a one-line description.
	Summary string
	// Solver is the default solver of the maximum-likelihood fits, as
	// Settings.Method's command-line spelling ("em" or "lbfgs"); empty
	// for an estimator without that choice (rfe, the variational fits,
	// the Crowd-Kit methods).
	Solver string
	// New returns the estimator.
	New func() Estimator
}

// Section places a family of estimators in Registry's order: the
// sections come in increasing order, and within a section the families
// in increasing Family.Rank.
type Section int

// The sections of the registered families.
const (
	// SectionBaseline holds the baselines, rfe and mv.
	SectionBaseline Section = 10
	// SectionLikelihood holds the forms fitted by maximum likelihood and
	// empirical Bayes: la-X, da-X and hda-X.
	SectionLikelihood Section = 20
	// SectionVariational holds the variational Bayes forms vb-*.
	SectionVariational Section = 30
	// SectionHeuristic holds the vote-based heuristics (Crowd-Kit's).
	SectionHeuristic Section = 40
)

// Family is a family of estimators that a package registers with
// Register, usually from its init function. Registry lists, section by
// section, first the families' Forms for every noise model of NoiseModels
// (for each noise model, every family of the section in the order of
// Rank), then their Entries (family by family). A family has Forms, or
// Entries, or both.
type Family struct {
	// Name names the family, such as "vb"; it must be unique.
	Name string
	// Section is where the family's estimators go in Registry.
	Section Section
	// Rank orders the families of a section, smallest first; families
	// of equal rank are ordered by Name.
	Rank int
	// Forms returns the family's estimators built on the noise model n,
	// none (nil) for a noise model the family does not support.
	Forms func(n noise.Describer) []Entry
	// Entries returns the family's estimators that are not built on a
	// noise model of NoiseModels.
	Entries func() []Entry
}

var (
	familiesMu sync.Mutex
	families   []Family
)

// Register adds the family f to the registry. A family package calls it
// from its init function, so that importing the package (for the side
// effect, as package all does for every family) makes its estimators
// known to ByName, Registry and every command. Register panics if f has
// no name, no estimators or the name of a family already registered, as
// these are programming errors found at start-up.
func Register(f Family) {
	familiesMu.Lock()
	defer familiesMu.Unlock()
	if f.Name == "" || (f.Forms == nil && f.Entries == nil) {
		panic("model: Register of a family without a name or estimators")
	}
	for _, g := range families {
		if g.Name == f.Name {
			panic("model: Register called twice for family " + f.Name)
		}
	}
	families = append(families, f)
	slices.SortStableFunc(families, func(a, b Family) int {
		return cmp.Or(cmp.Compare(a.Section, b.Section), cmp.Compare(a.Rank, b.Rank), strings.Compare(a.Name, b.Name))
	})
}

// Families returns the registered families in Registry's order.
func Families() []Family {
	familiesMu.Lock()
	defer familiesMu.Unlock()
	return slices.Clone(families)
}

func init() {
	Register(Family{Name: "baseline", Section: SectionBaseline, Entries: func() []Entry {
		return []Entry{
			{"rfe", "relative frequencies of the labels of each object (the baseline)", "", func() Estimator { return RFE{} }},
			{"mv", "majority vote: rfe read through its argmax", "", func() Estimator { return RFE{Alias: "mv"} }},
		}
	}})
	Register(Family{Name: "likelihood", Section: SectionLikelihood, Forms: forms})
}

// Registry lists the estimators by name, in the order of the registered
// families (Family, Register): rfe and its alias mv; for every noise model
// of NoiseModels its LA form la-X (the class prior learned or uniform as
// the model declares), its DA form da-X and its hierarchical DA form
// hda-X (package hda); the variational Bayes forms (package vb) vb-la-X,
// vb-X, vb-da-X and vb-hda-X of every conjugate noise model and of every
// one with a point posterior; and Crowd-Kit's other categorical
// aggregators (package crowdkit). Only the families of the imported
// packages are listed: a program imports package all for every one.
func Registry() []Entry {
	fs := Families()
	var r []Entry
	for i := 0; i < len(fs); {
		end := i
		for end < len(fs) && fs[end].Section == fs[i].Section {
			end++
		}
		for _, n := range NoiseModels() {
			for _, f := range fs[i:end] {
				if f.Forms != nil {
					r = append(r, f.Forms(n)...)
				}
			}
		}
		for _, f := range fs[i:end] {
			if f.Entries != nil {
				r = append(r, f.Entries()...)
			}
		}
		i = end
	}
	for i := range r {
		if r[i].Name == DefaultModel {
			r[i].Summary = "the default: " + r[i].Summary
		}
	}
	return r
}

// forms returns the LA and DA entries of n, fitted by maximum likelihood
// (Model).
func forms(n noise.Describer) []Entry {
	info := n.Info()
	prior := "uniform class prior"
	if info.LearnPrior {
		prior = "learned class prior"
	}
	return []Entry{
		{"la-" + n.Name(), "LA " + info.Summary + ", " + prior + ", output the posterior of the true class", info.Solver, func() Estimator {
			return Model{Noise: n, Latent: latent.LA{LearnPrior: info.LearnPrior}}
		}},
		{"da-" + n.Name(), "DA " + info.Summary + ", output the label distribution q_j", info.Solver, func() Estimator {
			return Model{Noise: n, Latent: latent.DA{}}
		}},
	}
}

// Names returns the names of all registered estimators.
func Names() []string {
	var names []string
	for _, e := range Registry() {
		names = append(names, e.Name)
	}
	return names
}

// ErrUnknownModel is returned, wrapped with the name and the valid names,
// by ByName for a name that is not registered.
var ErrUnknownModel = errors.New("unknown model")

// ByName returns the estimator registered under name. For a name not
// registered, the error wraps ErrUnknownModel.
func ByName(name string) (Estimator, error) {
	for _, e := range Registry() {
		if e.Name == name {
			return e.New(), nil
		}
	}
	return nil, fmt.Errorf("%w %q (valid: %s)", ErrUnknownModel, name, strings.Join(Names(), ", "))
}
