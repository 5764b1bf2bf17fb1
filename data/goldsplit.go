package data

import (
	"math"
	"math/rand/v2"
)

// Split splits g into a training part of round(fraction·n) tasks drawn
// without replacement by a generator seeded with seed (the same fraction
// and seed give the same split), and the rest, both in g's order.
func (g *Gold) Split(fraction float64, seed uint64) (train, rest *Gold) {
	n := g.Len()
	m := int(math.Round(fraction * float64(n)))
	rng := rand.New(rand.NewPCG(seed, 0x7a1))
	pick := make([]bool, n)
	for _, i := range rng.Perm(n)[:m] {
		pick[i] = true
	}
	train, rest = &Gold{}, &Gold{}
	for i := range n {
		dst := rest
		if pick[i] {
			dst = train
		}
		dst.Task = append(dst.Task, g.Task[i])
		dst.Label = append(dst.Label, g.Label[i])
	}
	return train, rest
}

// Without returns g without the tasks of train, keeping g's unmatched
// counts; a nil train removes none.
func (g *Gold) Without(train *Gold) *Gold {
	in := map[int32]bool{}
	if train != nil {
		for _, t := range train.Task {
			in[t] = true
		}
	}
	out := &Gold{Unmatched: g.Unmatched, UnmatchedTasks: g.UnmatchedTasks}
	for i, t := range g.Task {
		if !in[t] {
			out.Task = append(out.Task, t)
			out.Label = append(out.Label, g.Label[i])
		}
	}
	return out
}
