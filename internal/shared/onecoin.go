package shared

import (
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// oneCoinIterations is the number of expectation-maximisation passes of
// OneCoinPairs's reference fit.
const oneCoinIterations = 10

// OneCoinPairs returns Pairs of d (with its default settings) under a
// one-coin reference fit: every worker w is right with probability a_w
// and otherwise gives each wrong class with probability (1 − a_w)/(K − 1),
// fitted by expectation maximisation from the vote shares
// (oneCoinIterations passes; a_w with one pseudo-label of either kind,
// the class prior with one pseudo-task of each class) on the tasks Pairs
// reads (every m-th task, at most 20,000). A group of busy workers who
// share a mistake can fool a fit of full confusion matrices into reading
// their mistake as the truth, their agreement then explained; one
// accuracy a worker leaves no room for that, and their agreement beyond
// it shows.
func OneCoinPairs(d *data.Dataset) []Pair {
	k, nt := d.NumClasses(), d.NumTasks()
	set := Settings{WorkerOnly: true}
	stride := set.stride(d) // Pairs's tasks
	probs := make([]float64, nt*k)
	n := make([]float64, d.NumWorkers()) // each worker's labels read
	for j := 0; j < nt; j += stride {
		workers, labels := d.TaskLabels(j)
		for i, y := range labels {
			probs[j*k+int(y)] += 1 / float64(len(labels))
			n[workers[i]]++
		}
	}
	acc := make([]float64, d.NumWorkers())
	cond := func(w int32, _ int, z int, p []float64) {
		for y := range p {
			p[y] = (1 - acc[w]) / float64(k-1)
		}
		p[z] = acc[w]
	}
	right := make([]float64, d.NumWorkers())
	prior := make([]float64, k)
	odds := make([]float64, d.NumWorkers())
	for it := range oneCoinIterations {
		clear(right)
		for c := range prior {
			prior[c] = 1
		}
		for j := 0; j < nt; j += stride {
			workers, labels := d.TaskLabels(j)
			for i, w := range workers {
				right[w] += probs[j*k+int(labels[i])]
			}
			for c := range k {
				prior[c] += probs[j*k+c]
			}
		}
		for w := range acc {
			acc[w] = (right[w] + 1) / (n[w] + 2)
		}
		if it == oneCoinIterations-1 {
			break
		}
		// E-step: ρ_j(z) ∝ π_z Π_i P_wi(y_i | z); a label adds its
		// worker's log-odds of being right to its class.
		for w, a := range acc {
			odds[w] = math.Log(a * float64(k-1) / (1 - a))
		}
		for j := 0; j < nt; j += stride {
			row := probs[j*k : (j+1)*k]
			for z := range k {
				row[z] = math.Log(prior[z])
			}
			workers, labels := d.TaskLabels(j)
			for i, w := range workers {
				row[labels[i]] += odds[w]
			}
			num.SoftmaxFrom(row, row, num.LogSumExp(row))
		}
	}
	return Pairs(d, probs, cond, set)
}
