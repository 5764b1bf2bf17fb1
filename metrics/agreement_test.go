package metrics

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// buildRows builds a data set from "task worker label" rows.
func buildRows(t *testing.T, classes []string, rows ...string) *data.Dataset {
	t.Helper()
	b, err := data.NewBuilder(classes)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		f := strings.Fields(r)
		if err := b.Add(f[0], f[1], f[2]); err != nil {
			t.Fatal(err)
		}
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestKrippendorffAlphaPublished checks the reliability data example of
// Krippendorff, Computing Krippendorff's Alpha-Reliability (2011): four
// observers, twelve units, values 1 to 5 with missing values; the nominal
// alpha is 0.743 (unit 12, with one value, is not pairable).
func TestKrippendorffAlphaPublished(t *testing.T) {
	matrix := map[string]string{
		"A": "1 2 3 3 2 1 4 1 2 . . .",
		"B": "1 2 3 3 2 2 4 1 2 5 . 3",
		"C": ". 3 3 3 2 3 4 2 2 5 1 .",
		"D": "1 2 3 3 2 4 4 1 2 5 1 .",
	}
	var rows []string
	for _, obs := range []string{"A", "B", "C", "D"} {
		for u, v := range strings.Fields(matrix[obs]) {
			if v != "." {
				rows = append(rows, string(rune('a'+u))+" "+obs+" "+v)
			}
		}
	}
	d := buildRows(t, nil, rows...)
	if got := must(KrippendorffAlpha(d)); math.Abs(got-0.743) > 0.0005 {
		t.Errorf("alpha = %.4f, want 0.743", got)
	}
}

// TestKrippendorffAlphaHand checks cases computed by hand from the
// coincidence matrix: units {a,a}, {b,b}, {a,b} give o_ab = o_ba = 1,
// n_a = n_b = 3, n = 6 and alpha = 1 − 5·2/18 = 4/9; perfect agreement
// gives 1; one class only or no pairable unit gives NaN.
func TestKrippendorffAlphaHand(t *testing.T) {
	d := buildRows(t, nil, "1 x a", "1 y a", "2 x b", "2 y b", "3 x a", "3 y b", "4 x a")
	if got := must(KrippendorffAlpha(d)); math.Abs(got-4.0/9) > 1e-12 {
		t.Errorf("alpha = %v, want 4/9", got)
	}
	d = buildRows(t, nil, "1 x a", "1 y a", "2 x b", "2 y b", "2 z b")
	if got := must(KrippendorffAlpha(d)); got != 1 {
		t.Errorf("perfect agreement: alpha = %v, want 1", got)
	}
	d = buildRows(t, []string{"a", "b"}, "1 x a", "1 y a", "2 x b")
	if got := must(KrippendorffAlpha(d)); !math.IsNaN(got) {
		t.Errorf("one class among the pairable units: alpha = %v, want NaN", got)
	}
	d = buildRows(t, nil, "1 x a", "2 y b")
	if got := must(KrippendorffAlpha(d)); !math.IsNaN(got) {
		t.Errorf("no pairable unit: alpha = %v, want NaN", got)
	}
}

// TestTaskEntropy checks the entropy of hand-made label frequencies.
func TestTaskEntropy(t *testing.T) {
	d := buildRows(t, []string{"a", "b", "c"}, "1 x a", "1 y a", "1 z a", "2 x a", "2 y b", "3 x a", "3 y b", "3 z c", "3 w c")
	want := []float64{0, math.Ln2, -(0.25*math.Log(0.25)*2 + 0.5*math.Log(0.5))}
	got := must(TaskEntropy(d))
	for j := range want {
		if math.Abs(got[j]-want[j]) > 1e-12 {
			t.Errorf("task %s: entropy %v, want %v", d.Tasks[j], got[j], want[j])
		}
	}
}

// TestWorkerAgreement checks the agreement with a consensus by hand: x
// agrees on 2 of 3 labels, y on 1 of 1 counted (task 3 has no consensus),
// z has no counted label.
func TestWorkerAgreement(t *testing.T) {
	d := buildRows(t, nil, "1 x a", "1 y a", "2 x b", "3 x a", "3 y b", "3 z a", "4 x b")
	a, n, err := WorkerAgreement(d, []int{0, 0, -1, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		a float64
		n int
	}{"x": {2.0 / 3, 3}, "y": {1, 1}, "z": {math.NaN(), 0}}
	for w, name := range d.Workers {
		e := want[name]
		if n[w] != e.n || !(a[w] == e.a || math.IsNaN(a[w]) && math.IsNaN(e.a)) {
			t.Errorf("worker %s: agreement %v of %d labels, want %v of %d", name, a[w], n[w], e.a, e.n)
		}
	}
}

// TestConsistencyCrowdKit checks Consistency against Crowd-Kit's own test of
// its consistency metric: on its toy data (five workers, five tasks, labels
// no and yes) with the majority vote (the tie of t1 goes to no, the first
// class, as Crowd-Kit's idxmax takes it) and the workers' agreement with it
// as skills (0.6, 0.8, 1, 0.4, 0.8), the mean is 0.9384615384615385
// (tests/metrics/test_metrics.py, test_consistency).
func TestConsistencyCrowdKit(t *testing.T) {
	d := buildRows(t, nil,
		"t1 w1 no", "t2 w1 yes", "t3 w1 yes", "t4 w1 yes", "t5 w1 yes",
		"t1 w2 yes", "t2 w2 yes", "t3 w2 no", "t4 w2 yes", "t5 w2 no",
		"t2 w3 yes", "t3 w3 no", "t4 w3 yes", "t5 w3 no",
		"t1 w4 yes", "t2 w4 no", "t3 w4 yes", "t4 w4 yes", "t5 w4 no",
		"t1 w5 no", "t2 w5 no", "t3 w5 no", "t4 w5 yes", "t5 w5 no")
	no, yes := 0, 1
	if d.Classes[0] != "no" {
		t.Fatalf("classes %v", d.Classes)
	}
	mv := []int{no, yes, no, yes, no}
	skills, _, err := WorkerAgreement(d, mv)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.6, 0.8, 1, 0.4, 0.8}
	for w, s := range skills {
		if math.Abs(s-want[w]) > 1e-15 {
			t.Fatalf("skills %v, want %v", skills, want)
		}
	}
	c := must(Consistency(d, mv, skills))
	var mean float64
	for _, x := range c {
		mean += x / float64(len(c))
	}
	if math.Abs(mean-0.9384615384615385) > 1e-15 {
		t.Errorf("mean consistency %v, want Crowd-Kit's 0.9384615384615385 (per task %v)", mean, c)
	}
	// By hand, t1: P(no) ∝ 0.6·0.2·0.6·0.8, P(yes) ∝ 0.4·0.8·0.4·0.2.
	pNo, pYes := 0.6*0.2*0.6*0.8, 0.4*0.8*0.4*0.2
	if math.Abs(c[0]-pNo/(pNo+pYes)) > 1e-15 {
		t.Errorf("t1: %v, want %v", c[0], pNo/(pNo+pYes))
	}
	// A task with 2000 labels, whose products underflow in float64, still
	// gets its posterior; a task without a consensus gets NaN.
	var rows []string
	for i := range 2000 {
		y := "a"
		if i%3 == 0 {
			y = "b"
		}
		rows = append(rows, "t "+"w"+string(rune('0'+i%10))+" "+y)
	}
	long := buildRows(t, nil, rows...)
	s := make([]float64, long.NumWorkers())
	for w := range s {
		s[w] = 0.7
	}
	if got := must(Consistency(long, []int{0}, s))[0]; !(got > 0.999) {
		t.Errorf("2000 labels: %v, want near 1", got)
	}
	if got := must(Consistency(long, []int{-1}, s))[0]; !math.IsNaN(got) {
		t.Errorf("no consensus: %v, want NaN", got)
	}
}

// TestWorkerEntropy is Crowd-Kit's test of uncertainty per worker
// (tests/metrics/test_metrics.py, test_uncertainty_per_worker): B always
// says cat (0), A says dog and cat twice each (ln 2 = 0.693147), C in
// between.
func TestWorkerEntropy(t *testing.T) {
	d := buildRows(t, nil,
		"1 A dog", "1 B cat", "1 C cat", "2 A cat", "2 B cat", "2 C cat",
		"3 A dog", "3 B cat", "3 C dog", "4 A cat", "4 B cat", "4 C cat")
	h := must(WorkerEntropy(d))
	a, b, c := h[0], h[1], h[2]
	if d.Workers[0] != "A" || math.Abs(a-math.Ln2) > 1e-15 || b != 0 || !(a > c && c > b) {
		t.Errorf("entropies A %v, B %v, C %v; want ln 2, 0 and between", a, b, c)
	}
	if want := -(0.25*math.Log(0.25) + 0.75*math.Log(0.75)); math.Abs(c-want) > 1e-15 {
		t.Errorf("C: %v, want %v", c, want)
	}
}

// TestAgreementArguments checks that the agreement statistics return an
// error wrapping the documented sentinel, instead of panicking, on a nil
// data set or a consensus or skills of the wrong shape.
func TestAgreementArguments(t *testing.T) {
	d := buildRows(t, nil, "t1 w1 a", "t1 w2 b", "t2 w1 a")
	skills := []float64{0.7, 0.7}
	for _, c := range []struct {
		name string
		err  error
		kind error
		want string
	}{
		{"alpha/nil", second(KrippendorffAlpha(nil)), ErrArgument, "nil data set"},
		{"task entropy/nil", second(TaskEntropy(nil)), ErrArgument, "nil data set"},
		{"worker entropy/nil", second(WorkerEntropy(nil)), ErrArgument, "nil data set"},
		{"agreement/nil", third(WorkerAgreement(nil, nil)), ErrArgument, "nil data set"},
		{"agreement/short", third(WorkerAgreement(d, []int{0})), ErrShape, "1 consensus classes for 2 tasks"},
		{"agreement/class", third(WorkerAgreement(d, []int{0, 2})), ErrShape, "task 1: consensus class 2 out of range [0, 2)"},
		{"consistency/nil", second(Consistency(nil, nil, nil)), ErrArgument, "nil data set"},
		{"consistency/short", second(Consistency(d, []int{0, 1, 0}, skills)), ErrShape, "3 consensus classes for 2 tasks"},
		{"consistency/class", second(Consistency(d, []int{5, 0}, skills)), ErrShape, "task 0: consensus class 5 out of range [0, 2)"},
		{"consistency/skills", second(Consistency(d, []int{0, 0}, skills[:1])), ErrShape, "1 skills for 2 workers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !errors.Is(c.err, c.kind) || !strings.Contains(c.err.Error(), c.want) {
				t.Errorf("error %v, want one wrapping %v with %q", c.err, c.kind, c.want)
			}
		})
	}
}

// third returns the error of a call that returns two values and an error.
func third[T, U any](_ T, _ U, err error) error { return err }
