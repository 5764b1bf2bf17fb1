package model

import (
	"cmp"
	"slices"

	"github.com/consensuslab/consensus/data"
)

// SmallerModels returns the names of the registered models, other than
// est, that fit on d with the settings s in avail bytes and need less
// memory than est (FitMemory): the two of them with a generative process
// (a worker model, Capabilities.Generative) that need the least, and the
// one without that needs the least, in registry order. Models that cannot
// fit d (a number of classes they do not support, training gold they
// need) and aliases are left out, so that the advice for a fit refused for
// its memory names only models that would not be refused in turn.
func SmallerModels(est Estimator, d *data.Dataset, s *Settings, avail float64) []string {
	k := d.NumClasses()
	need := min(FitMemory(est, d, s), avail)
	type cand struct {
		name string
		mem  float64
		i    int
	}
	var gen, other []cand
	for i, e := range Registry() {
		c := Describe(e)
		if c.Name == est.Name() || c.SameAs != "" || c.NeedsGold || k < c.MinClasses || k > c.MaxClasses {
			continue
		}
		m := FitMemory(e.New(), d, s)
		if m > need {
			continue
		}
		if c.Generative {
			gen = append(gen, cand{c.Name, m, i})
		} else {
			other = append(other, cand{c.Name, m, i})
		}
	}
	byMem := func(a, b cand) int { return cmp.Or(cmp.Compare(a.mem, b.mem), cmp.Compare(a.i, b.i)) }
	slices.SortStableFunc(gen, byMem)
	slices.SortStableFunc(other, byMem)
	picked := slices.Concat(gen[:min(2, len(gen))], other[:min(1, len(other))])
	slices.SortFunc(picked, func(a, b cand) int { return cmp.Compare(a.i, b.i) })
	var out []string
	for _, c := range picked {
		out = append(out, c.name)
	}
	return out
}
