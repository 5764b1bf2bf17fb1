package model

import (
	"context"
	"fmt"

	"github.com/consensuslab/consensus/data"
)

// MultiLabels holds multi-label data: every label is the set of classes
// that a worker chose for a task, possibly empty. Label i is worker
// Worker[i]'s choice Chosen[i] (indices into Classes, each at most once)
// for task Task[i].
type MultiLabels struct {
	// Tasks, Workers and Classes name the indices.
	Tasks, Workers, Classes []string
	// Task and Worker hold every label's task and worker index.
	Task, Worker []int32
	// Chosen holds every label's classes.
	Chosen [][]uint16
}

// BinaryRelevance is the result of FitBinaryRelevance: for every class c,
// the fit of the binary labels "c chosen".
type BinaryRelevance struct {
	// Data is the multi-label data that was fitted.
	Data *MultiLabels
	// Fits holds the binary fit of every class, in the order of
	// Data.Classes; in each, class 0 is "not chosen" and class 1
	// "chosen".
	Fits []*Result
}

// FitBinaryRelevance aggregates multi-label data by binary relevance, as
// Crowd-Kit's BinaryRelevance: for every class c, est fits the binary
// labels "c is among the classes chosen" (classes "0" and "1") of every
// label of m, with the settings s. The fits are independent; an error of
// one names its class. A nil est or m is an error wrapping ErrArgument.
func FitBinaryRelevance(ctx context.Context, est Estimator, m *MultiLabels, s *Settings) (*BinaryRelevance, error) {
	if est == nil || m == nil {
		return nil, fmt.Errorf("%w: binary relevance without an estimator or labels", ErrArgument)
	}
	n := len(m.Task)
	if len(m.Worker) != n || len(m.Chosen) != n {
		return nil, fmt.Errorf("binary relevance: %d tasks, %d workers and %d label sets; want one of each per label", n, len(m.Worker), len(m.Chosen))
	}
	if len(m.Classes) == 0 {
		return nil, fmt.Errorf("binary relevance: no class is chosen in any label")
	}
	out := &BinaryRelevance{Data: m, Fits: make([]*Result, len(m.Classes))}
	label := make([]uint16, n)
	for c, name := range m.Classes {
		for i, set := range m.Chosen {
			label[i] = 0
			for _, z := range set {
				if int(z) == c {
					label[i] = 1
				}
			}
		}
		d, err := data.FromIndices(m.Tasks, m.Workers, []string{"0", "1"}, m.Task, m.Worker, label)
		if err != nil {
			return nil, fmt.Errorf("binary relevance, class %q: %w", name, err)
		}
		r, err := est.Fit(ctx, d, s)
		if err != nil {
			return nil, fmt.Errorf("binary relevance, class %q: %w", name, err)
		}
		out.Fits[c] = r
	}
	return out, nil
}

// Chosen returns, for every task of the data (in the order of the fits'
// objects), the probability that each class is chosen (tasks × classes)
// and the classes chosen: those whose binary consensus label is "chosen",
// ties broken with seed as Result.Labels breaks them.
func (b *BinaryRelevance) Chosen(seed uint64) (prob [][]float64, chosen [][]int) {
	first := b.Fits[0].Data
	prob = make([][]float64, first.NumTasks())
	chosen = make([][]int, first.NumTasks())
	for j := range prob {
		prob[j] = make([]float64, len(b.Fits))
	}
	for c, r := range b.Fits {
		labels := r.Labels(seed)
		for j := range prob {
			prob[j][c] = r.Probs[2*j+1]
			if labels[j] == 1 {
				chosen[j] = append(chosen[j], c)
			}
		}
	}
	return prob, chosen
}
