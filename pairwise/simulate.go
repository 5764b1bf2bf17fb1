package pairwise

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// SimSettings sets up Simulate. The zero value is the default: 1,000 items, 50
// workers, 20,000 comparisons, scores with standard deviation 1, no
// spammers, seed 0.
type SimSettings struct {
	// Items, Workers and Comparisons are the numbers of each; 0 means
	// 1,000, 50 and 20,000.
	Items, Workers, Comparisons int
	// Spread is the standard deviation of the normal distribution of
	// the true scores; 0 means 1.
	Spread float64
	// Spammers is the fraction of workers whose skill γ_w is 0.05; the
	// others have γ_w uniform on [0.6, 1]. Every bias β_w is uniform on
	// [0.3, 0.7].
	Spammers float64
	// Seed seeds the random numbers (PCG): the same settings give the
	// same comparisons.
	Seed uint64
}

// Truth holds the parameters Simulate drew the comparisons from.
type Truth struct {
	// Scores, Skills and Biases are θ_i, γ_w and β_w, indexed as the
	// Comparisons' Items and Workers.
	Scores, Skills, Biases []float64
}

// Simulate draws comparisons from the noisy Bradley-Terry model: each
// comparison picks a worker and two distinct items uniformly at random, the
// left one first, and its label from P(left ≻ right | w) = γ_w σ(θ_left −
// θ_right) + (1 − γ_w) β_w. Items are named "i0", "i1", … and workers "w0",
// "w1", …, numbered in the order of their first appearance, as a read of
// the same comparisons numbers them, so that the Truth lines up with them.
func Simulate(s SimSettings) (*Comparisons, *Truth, error) {
	if s.Items == 0 {
		s.Items = 1000
	}
	if s.Workers == 0 {
		s.Workers = 50
	}
	if s.Comparisons == 0 {
		s.Comparisons = 20000
	}
	if s.Spread == 0 {
		s.Spread = 1
	}
	if s.Items < 2 || s.Workers < 1 || s.Comparisons < 1 || !(s.Spread > 0) || !(s.Spammers >= 0 && s.Spammers <= 1) {
		return nil, nil, fmt.Errorf("simulate: want at least 2 items, 1 worker and 1 comparison, a positive spread and a spammer fraction in [0, 1]")
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0xb7))
	theta := make([]float64, s.Items)
	for i := range theta {
		theta[i] = s.Spread * rng.NormFloat64()
	}
	skill := make([]float64, s.Workers)
	bias := make([]float64, s.Workers)
	for w := range skill {
		if rng.Float64() < s.Spammers {
			skill[w] = 0.05
		} else {
			skill[w] = 0.6 + 0.4*rng.Float64()
		}
		bias[w] = 0.3 + 0.4*rng.Float64()
	}
	c := &Comparisons{Worker: []int32{}}
	tr := &Truth{}
	itemAt := make(map[int]int)
	workerAt := make(map[int]int)
	for range s.Comparisons {
		w := rng.IntN(s.Workers)
		a := rng.IntN(s.Items)
		b := rng.IntN(s.Items - 1)
		if b >= a {
			b++
		}
		pLeft := skill[w]*sigmoid(theta[a]-theta[b]) + (1-skill[w])*bias[w]
		label := b
		if rng.Float64() < pLeft {
			label = a
		}
		if err := c.Add("w"+strconv.Itoa(w), "i"+strconv.Itoa(a), "i"+strconv.Itoa(b), "i"+strconv.Itoa(label)); err != nil {
			return nil, nil, err
		}
		for _, i := range [2]int{a, b} {
			if _, ok := itemAt[i]; !ok {
				itemAt[i] = len(tr.Scores)
				tr.Scores = append(tr.Scores, theta[i])
			}
		}
		if _, ok := workerAt[w]; !ok {
			workerAt[w] = len(tr.Skills)
			tr.Skills = append(tr.Skills, skill[w])
			tr.Biases = append(tr.Biases, bias[w])
		}
	}
	return c, tr, nil
}
