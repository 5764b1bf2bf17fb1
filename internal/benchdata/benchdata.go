// Package benchdata describes and caches the simulated data sets of the
// performance benchmarks (model/bench_test.go and the consensus bench
// command), so that every benchmark of a given size runs on the same data.
//
// A data set of N labels and K classes has N/5 objects, each labelled by 5
// distinct workers out of max(50, N/2000), drawn with package sim from the
// model being benchmarked (its noise model under its own assumption).
package benchdata

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// LabelsPerTask is the number of labels of every simulated object.
const LabelsPerTask = 5

// Settings returns the simulation of about n labels with k classes from the
// given noise model under the given assumption.
func Settings(n, k int, nm noise.Model, lat latent.Assumption, seed uint64) sim.Settings {
	return sim.Settings{
		Tasks:         max(1, n/LabelsPerTask),
		Workers:       max(50, n/2000),
		Classes:       k,
		LabelsPerTask: LabelsPerTask,
		Noise:         nm,
		Latent:        lat,
		Seed:          seed,
	}
}

type key struct {
	n, k          int
	noise, latent string
}

var (
	mu    sync.Mutex
	cache = map[key]*data.Dataset{}
)

// Simulate draws the data set of Settings(n, k, nm, lat, seed) and its ground
// truth.
func Simulate(n, k int, nm noise.Model, lat latent.Assumption, seed uint64) (*data.Dataset, *sim.Truth, error) {
	d, tr, err := sim.Simulate(Settings(n, k, nm, lat, seed))
	if err != nil {
		return nil, nil, fmt.Errorf("benchdata: %v", err)
	}
	return d, tr, nil
}

// Get returns the data set of Settings(n, k, nm, lat, 1), simulated on the
// first call and cached afterwards. Only the most recent data set is kept,
// so that a series of benchmarks of growing size does not hold all of them.
// A nil nm or lat is an error.
func Get(n, k int, nm noise.Model, lat latent.Assumption) (*data.Dataset, error) {
	if nm == nil || lat == nil {
		return nil, fmt.Errorf("benchdata: no noise model or no assumption")
	}
	mu.Lock()
	defer mu.Unlock()
	kk := key{n, k, nm.Name(), lat.Name()}
	if d, ok := cache[kk]; ok {
		return d, nil
	}
	clear(cache)
	d, _, err := sim.Simulate(Settings(n, k, nm, lat, 1))
	if err != nil {
		return nil, fmt.Errorf("benchdata: %v", err)
	}
	cache[kk] = d
	return d, nil
}

// Sizes returns the numbers of labels to benchmark: 10⁵ and 10⁶, and 10⁷
// as well when the environment variable CONSENSUS_BENCH_LARGE is set to a
// true value ("1", "true"), so that go test -bench stays quick by default.
func Sizes() []int {
	s := []int{100_000, 1_000_000}
	if Large() {
		s = append(s, 10_000_000)
	}
	return s
}

// Large reports whether CONSENSUS_BENCH_LARGE asks for the large sizes.
func Large() bool {
	v, _ := strconv.ParseBool(os.Getenv("CONSENSUS_BENCH_LARGE"))
	return v
}

// Label returns a short name for n labels, such as "1e6".
func Label(n int) string {
	e := 0
	m := n
	for m >= 10 && m%10 == 0 {
		m /= 10
		e++
	}
	if m == 1 {
		return fmt.Sprintf("1e%d", e)
	}
	return strconv.Itoa(n)
}
