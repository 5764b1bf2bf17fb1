package sim

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

// regimeData simulates the named regime with seed 1.
func regimeData(t *testing.T, name string) (Settings, *Truth, []int, []int) {
	t.Helper()
	c, err := Regime(name, 1)
	if err != nil {
		t.Fatal(err)
	}
	d, tr := mustSimulate(t, c)
	perTask := make([]int, d.NumTasks())
	for j := range perTask {
		perTask[j] = d.Offsets[j+1] - d.Offsets[j]
	}
	return c, tr, perTask, workerCounts(d)
}

// classShare returns the share of the objects of class z.
func classShare(tr *Truth, z int) float64 {
	var n int
	for _, c := range tr.Class {
		if c == z {
			n++
		}
	}
	return float64(n) / float64(len(tr.Class))
}

// within fails the test unless got is within tol of want.
func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	t.Logf("%s = %.4f (want %.4f ± %.4f)", what, got, want, tol)
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.4f, want %.4f ± %.4f", what, got, want, tol)
	}
}

// activitySlope returns the least-squares slope of log(labels) on
// log(rank) over the workers of ranks lo to hi (1-based, inclusive).
func activitySlope(counts []int, lo, hi int) float64 {
	var sx, sy, sxx, sxy, n float64
	for r := lo; r <= hi; r++ {
		x, y := math.Log(float64(r)), math.Log(float64(counts[r-1]))
		sx, sy, sxx, sxy, n = sx+x, sy+y, sxx+x*x, sxy+x*y, n+1
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

// diag returns P(z | z) of DS worker w for k classes.
func diag(tr *Truth, k, w, z int) float64 {
	return math.Exp(tr.Worker[w*k*k+z*k+z])
}

func TestRegimeSparse(t *testing.T) {
	c, tr, perTask, counts := regimeData(t, "sparse")
	if len(perTask) != 8000 || len(counts) != 176 || c.Classes != 2 {
		t.Fatalf("%d objects, %d workers, %d classes; want 8000, 176 and 2", len(perTask), len(counts), c.Classes)
	}
	for j, n := range perTask {
		if n != 3 {
			t.Fatalf("object %d has %d labels, want 3", j, n)
		}
	}
	within(t, "share of class 1", classShare(tr, 1), 0.12, 4*math.Sqrt(0.12*0.88/8000))
	// The inclusion probability of a worker of small weight is nearly
	// proportional to its weight, so the tail of the activity falls off
	// as rank^-0.9.
	within(t, "activity slope over ranks 20-176", activitySlope(counts, 20, 176), -0.9, 0.1)
	var near int
	for w := range 176 {
		d0, d1 := diag(tr, 2, w, 0), diag(tr, 2, w, 1)
		switch {
		case d0 >= 0.4 && d0 <= 0.6 && d1 >= 0.4 && d1 <= 0.6:
			near++
		case d0 < 0.75 || d0 > 0.98 || d1 < 0.55 || d1 > 0.95:
			t.Errorf("worker %d: P(0|0) = %.3f, P(1|1) = %.3f", w, d0, d1)
		}
	}
	if near != 18 {
		t.Errorf("%d near-random workers, want 18 (10%% of 176)", near)
	}
}

func TestRegimeLight(t *testing.T) {
	_, tr, perTask, counts := regimeData(t, "light")
	if len(perTask) != 2000 || len(counts) != 700 {
		t.Fatalf("%d objects, %d workers; want 2000 and 700", len(perTask), len(counts))
	}
	for j, n := range perTask {
		if n != 5 {
			t.Fatalf("object %d has %d labels, want 5", j, n)
		}
	}
	var few int
	for _, n := range counts {
		if n < 10 {
			few++
		}
	}
	share := float64(few) / 700
	t.Logf("%.3f of the workers give fewer than 10 labels", share)
	if share <= 0.5 {
		t.Errorf("%.3f of the workers give fewer than 10 labels, want most", share)
	}
	for w, c := range tr.Worker {
		if a := 1 / (1 + math.Exp(-c)); a < 0.55 || a > 0.95 {
			t.Errorf("worker %d: accuracy %.3f outside [0.55, 0.95]", w, a)
		}
	}
	within(t, "activity slope over ranks 20-200", activitySlope(counts, 20, 200), -1, 0.1)
}

func TestRegimeManyClasses(t *testing.T) {
	const k = 10
	c, tr, perTask, _ := regimeData(t, "many-classes")
	if c.Classes != k {
		t.Fatalf("%d classes, want %d", c.Classes, k)
	}
	for j, n := range perTask {
		if n != 4 {
			t.Fatalf("object %d has %d labels, want 4", j, n)
		}
	}
	// Every row's error mass on the neighbouring classes, and the
	// expected share over the rows.
	var share float64
	for w := range c.Workers {
		for z := range k {
			var neighbours float64
			for y := range k {
				if y == z-1 || y == z+1 {
					neighbours += math.Exp(tr.Worker[w*k*k+z*k+y])
				}
			}
			share += neighbours / (1 - diag(tr, k, w, z))
		}
	}
	share /= float64(c.Workers * k)
	t.Logf("the neighbouring classes get %.3f of the errors", share)
	if share < 0.55 {
		t.Errorf("the neighbouring classes get %.3f of the errors, want most", share)
	}
	for z := range k {
		within(t, "share of class "+string(rune('0'+z)), classShare(tr, z), 0.1, 4*math.Sqrt(0.09/5000))
	}
}

func TestRegimeSpammers(t *testing.T) {
	_, tr, perTask, _ := regimeData(t, "spammers")
	count := map[Kind]int{}
	for _, k := range tr.Kind {
		count[k]++
	}
	if count[Spammer] != 10 || count[Adversary] != 5 || count[Normal] != 85 {
		t.Errorf("kinds %v, want 10 spammers, 5 adversaries, 85 normal workers", count)
	}
	for j, n := range perTask {
		if n != 5 {
			t.Fatalf("object %d has %d labels, want 5", j, n)
		}
	}
}

func TestRegimeAdversarial(t *testing.T) {
	c, tr, perTask, _ := regimeData(t, "adversarial")
	count := map[Kind]int{}
	for _, k := range tr.Kind {
		count[k]++
	}
	if c.Classes != 5 || count[Spammer] != 10 || count[Adversary] != 10 || count[Normal] != 30 {
		t.Errorf("%d classes and kinds %v, want 5 classes, 10 spammers, 10 adversaries, 30 normal workers", c.Classes, count)
	}
	for j, n := range perTask {
		if n != 3 {
			t.Fatalf("object %d has %d labels, want 3", j, n)
		}
	}
}

func TestRegimeSparseMany(t *testing.T) {
	c, _, perTask, counts := regimeData(t, "sparse-many")
	if c.Classes != 10 || len(perTask) != 5000 {
		t.Fatalf("%d classes, %d objects, want 10 and 5000", c.Classes, len(perTask))
	}
	for j, n := range perTask {
		if n != 2 {
			t.Fatalf("object %d has %d labels, want 2", j, n)
		}
	}
	var few int
	for _, n := range counts {
		if n < 20 {
			few++
		}
	}
	t.Logf("%d of 300 workers give fewer than 20 labels", few)
	if few < 150 {
		t.Errorf("%d of 300 workers give fewer than 20 labels, want most", few)
	}
	within(t, "activity slope over ranks 20-200", activitySlope(counts, 20, 200), -1, 0.1)
}

func TestRegimeCorrelated(t *testing.T) {
	c, err := Regime("correlated", 1)
	if err != nil {
		t.Fatal(err)
	}
	d, tr := mustSimulate(t, c)
	if !slices.Equal(tr.Kind[:2], []Kind{CorrelatedWorker, CorrelatedWorker}) || slices.Contains(tr.Kind[2:], CorrelatedWorker) {
		t.Fatal("the group is not workers 0 and 1")
	}
	var group, class0, sub int
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		if len(workers) != 5 {
			t.Fatalf("object %d has %d labels, want 5", j, len(workers))
		}
		if tr.Class[j] == 0 {
			class0++
		}
		if tr.Subtype[j] {
			sub++
			if tr.Class[j] != 0 {
				t.Fatalf("object %d of class %d is in the subtype", j, tr.Class[j])
			}
		}
		for i, w := range workers {
			if tr.Kind[w] != CorrelatedWorker {
				continue
			}
			group++
			if tr.Subtype[j] && labels[i] != 1 {
				t.Fatalf("object %d: group member %d says %d on the subtype", j, w, labels[i])
			}
		}
	}
	within(t, "the group's share of the labels", float64(group)/float64(d.NumLabels()), 1.0/3, 0.02)
	within(t, "the subtype's share of class 0", float64(sub)/float64(class0), 0.3, 4*math.Sqrt(0.21/float64(class0)))
}

// TestRegimeSharedMistake checks the shared-mistake regime's design: the
// pair w0, w1 labels every object (two of its five labels) and calls
// class 1 every object of the subtype, 30% of class 0, itself 60% of the
// objects.
func TestRegimeSharedMistake(t *testing.T) {
	c, err := Regime("shared-mistake", 1)
	if err != nil {
		t.Fatal(err)
	}
	d, tr := mustSimulate(t, c)
	var class0, sub int
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		if len(workers) != 5 || !slices.Contains(workers, 0) || !slices.Contains(workers, 1) {
			t.Fatalf("object %d: workers %v, want 5 with w0 and w1", j, workers)
		}
		if tr.Class[j] == 0 {
			class0++
		}
		if !tr.Subtype[j] {
			continue
		}
		sub++
		for i, w := range workers {
			if w < 2 && labels[i] != 1 {
				t.Fatalf("object %d of the subtype: w%d says %d", j, w, labels[i])
			}
		}
	}
	n := float64(d.NumTasks())
	within(t, "class 0's share", float64(class0)/n, 0.6, 4*math.Sqrt(0.24/n))
	within(t, "the subtype's share of class 0", float64(sub)/float64(class0), 0.3, 4*math.Sqrt(0.21/float64(class0)))
}

// TestRegimeAmbiguous checks the ambiguous regime's design: the true
// class's share of q_j distributed as Beta(3.5, 1) (mean 7/9, above 0.9 with
// probability 1 − 0.9^3.5, below 0.5 with 0.5^3.5), the true classes
// uniform, and the labels of a split object spread as its q_j says:
// workers with P(z|z) ~ U[0.7, 0.95] agree with the true class less often
// than on clear objects.
func TestRegimeAmbiguous(t *testing.T) {
	const k = 3
	c, err := Regime("ambiguous", 1)
	if err != nil {
		t.Fatal(err)
	}
	d, tr := mustSimulate(t, c)
	if d.NumTasks() != 5000 || d.NumWorkers() != 100 || d.NumClasses() != k {
		t.Fatalf("%d objects, %d workers, %d classes; want 5000, 100 and 3", d.NumTasks(), d.NumWorkers(), d.NumClasses())
	}
	var mean, clear, split float64
	var agreeClear, nClear, agreeSplit, nSplit int
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		if len(workers) != 5 {
			t.Fatalf("object %d has %d labels, want 5", j, len(workers))
		}
		share := tr.Q[j*k+tr.Class[j]]
		mean += share
		agree := 0
		for _, y := range labels {
			if int(y) == tr.Class[j] {
				agree++
			}
		}
		switch {
		case share > 0.9:
			clear++
			agreeClear += agree
			nClear += len(labels)
		case share < 0.5:
			split++
			agreeSplit += agree
			nSplit += len(labels)
		}
	}
	n := float64(d.NumTasks())
	within(t, "mean share of the true class in q_j", mean/n, 7.0/9, 4*math.Sqrt(0.037/n))
	within(t, "share of clear objects", clear/n, 1-math.Pow(0.9, 3.5), 4*math.Sqrt(0.31*0.69/n))
	within(t, "share of split objects", split/n, math.Pow(0.5, 3.5), 4*math.Sqrt(0.088*0.912/n))
	for z := range k {
		within(t, "share of class "+string(rune('0'+z)), classShare(tr, z), 1.0/3, 4*math.Sqrt(2.0/9/n))
	}
	ac, as := float64(agreeClear)/float64(nClear), float64(agreeSplit)/float64(nSplit)
	t.Logf("labels agree with the true class on %.3f of clear objects' labels and %.3f of split ones'", ac, as)
	if !(ac > 0.75 && as < 0.5) {
		t.Errorf("labels agree with the true class on %.3f of clear objects' labels and %.3f of split ones', want above 0.75 and below 0.5", ac, as)
	}
}

func TestRegimeDAPaper(t *testing.T) {
	c, err := Regime("da-paper", 5)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, Settings{Seed: 5}) {
		t.Errorf("da-paper is %+v, want the zero Settings with seed 5", c)
	}
	if _, err := Regime("nonesuch", 1); err == nil {
		t.Error("Regime(nonesuch) did not fail")
	}
	for _, name := range Regimes() {
		if RegimeSummary(name) == "" {
			t.Errorf("regime %s has no summary", name)
		}
	}
}
