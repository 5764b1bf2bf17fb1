package metrics

import (
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
	if got := KrippendorffAlpha(d); math.Abs(got-0.743) > 0.0005 {
		t.Errorf("alpha = %.4f, want 0.743", got)
	}
}

// TestKrippendorffAlphaHand checks cases computed by hand from the
// coincidence matrix: units {a,a}, {b,b}, {a,b} give o_ab = o_ba = 1,
// n_a = n_b = 3, n = 6 and alpha = 1 − 5·2/18 = 4/9; perfect agreement
// gives 1; one class only or no pairable unit gives NaN.
func TestKrippendorffAlphaHand(t *testing.T) {
	d := buildRows(t, nil, "1 x a", "1 y a", "2 x b", "2 y b", "3 x a", "3 y b", "4 x a")
	if got := KrippendorffAlpha(d); math.Abs(got-4.0/9) > 1e-12 {
		t.Errorf("alpha = %v, want 4/9", got)
	}
	d = buildRows(t, nil, "1 x a", "1 y a", "2 x b", "2 y b", "2 z b")
	if got := KrippendorffAlpha(d); got != 1 {
		t.Errorf("perfect agreement: alpha = %v, want 1", got)
	}
	d = buildRows(t, []string{"a", "b"}, "1 x a", "1 y a", "2 x b")
	if got := KrippendorffAlpha(d); !math.IsNaN(got) {
		t.Errorf("one class among the pairable units: alpha = %v, want NaN", got)
	}
	d = buildRows(t, nil, "1 x a", "2 y b")
	if got := KrippendorffAlpha(d); !math.IsNaN(got) {
		t.Errorf("no pairable unit: alpha = %v, want NaN", got)
	}
}

// TestTaskEntropy checks the entropy of hand-made label frequencies.
func TestTaskEntropy(t *testing.T) {
	d := buildRows(t, []string{"a", "b", "c"}, "1 x a", "1 y a", "1 z a", "2 x a", "2 y b", "3 x a", "3 y b", "3 z c", "3 w c")
	want := []float64{0, math.Ln2, -(0.25*math.Log(0.25)*2 + 0.5*math.Log(0.5))}
	got := TaskEntropy(d)
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
	a, n := WorkerAgreement(d, []int{0, 0, -1, 1})
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
