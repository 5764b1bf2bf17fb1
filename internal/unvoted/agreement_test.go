package unvoted

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// labelSet builds a data set of tasks labelled a or b: label(j, i) gives
// the i-th label of task j, by worker(j, i), for n labels a task.
func labelSet(t *testing.T, tasks, n int, worker func(j, i int) int, label func(j, i int) string) *data.Dataset {
	t.Helper()
	b, err := data.NewBuilder([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	for j := range tasks {
		for i := range n {
			if err := b.Add(fmt.Sprint("t", j), fmt.Sprint("w", worker(j, i)), label(j, i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAgreement checks Agreement's z-score: large where every task's
// labels agree, about standard normal where labels are drawn without
// regard to the task (whatever each worker's own shares), 0 where no task
// has labels of two workers, and blind to a worker's repeated labels of
// one task.
func TestAgreement(t *testing.T) {
	src := rand.New(rand.NewPCG(1, 2))
	coin := func(p float64) string {
		if src.Float64() < p {
			return "b"
		}
		return "a"
	}
	var last string
	for _, tc := range []struct {
		name     string
		tasks, n int
		worker   func(j, i int) int
		label    func(j, i int) string
		lo, hi   float64
	}{
		{"unanimous", 200, 3, func(j, i int) int { return (j + i) % 20 },
			func(j, _ int) string { return []string{"a", "b"}[j%2] }, 8, math.Inf(1)},
		{"independent", 1000, 3, func(j, i int) int { return (j*3 + i) % 30 },
			func(j, i int) string { return coin(0.5) }, -2.5, 2.5},
		{"biased workers", 1000, 3, func(j, i int) int { return (j*3 + i) % 30 },
			func(j, i int) string { return coin(float64((j*3+i)%30) / 30) }, -2.5, 2.5},
		{"one worker a task", 300, 2, func(j, _ int) int { return j % 7 },
			func(j, i int) string { return []string{"a", "b"}[j%2] }, 0, 0},
		{"repeats", 1000, 4, func(j, i int) int { return (j + i/3) % 30 },
			func(j, i int) string {
				if i == 0 || i == 3 {
					last = coin(0.5)
				}
				return last // the first worker's three labels agree
			}, -2.5, 2.5},
	} {
		d := labelSet(t, tc.tasks, tc.n, tc.worker, tc.label)
		z := Agreement(d)
		t.Logf("%s: %.3f", tc.name, z)
		if z < tc.lo || z > tc.hi || math.IsNaN(z) {
			t.Errorf("%s: Agreement %.3f, want %v to %v", tc.name, z, tc.lo, tc.hi)
		}
	}
}

// TestClassAgreement checks ClassAgreement class by class: where the
// tasks of one class in ten get all-b labels and the others a label b
// three times in ten, scattered, b's z-score is beyond 3; where every
// label is drawn without regard to the task, both classes' are about
// standard normal.
func TestClassAgreement(t *testing.T) {
	src := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name   string
		tasksB int     // of every 10 tasks, those whose labels are all b
		pB     float64 // the probability of b on the other tasks
	}{{"one class agrees", 1, 0.3}, {"independent", 0, 0.5}} {
		d := labelSet(t, 1000, 3, func(j, i int) int { return (j*7 + i*11) % 30 }, func(j, _ int) string {
			if j%10 < tc.tasksB || src.Float64() < tc.pB {
				return "b"
			}
			return "a"
		})
		z := ClassAgreement(d)
		t.Logf("%s: %.3f", tc.name, z)
		if tc.tasksB > 0 && z[1] < 3 {
			t.Errorf("%s: ClassAgreement %.3f, want b's at least 3", tc.name, z)
		}
		if tc.tasksB == 0 && (math.Abs(z[0]) > 2.5 || math.Abs(z[1]) > 2.5) {
			t.Errorf("%s: ClassAgreement %.3f, want both in ±2.5", tc.name, z)
		}
	}
}
