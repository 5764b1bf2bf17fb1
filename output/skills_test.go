package output

import (
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestWorkerTableSkills checks the skills read for a data set's workers:
// NaN for a worker not listed, a listed worker without labels left aside,
// and the refusal of a skill that is negative, NaN or infinite with the
// file and line.
func TestWorkerTableSkills(t *testing.T) {
	b, err := data.NewBuilder(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][3]string{{"t1", "a", "x"}, {"t1", "b", "y"}, {"t2", "c", "x"}} {
		if err := b.Add(r[0], r[1], r[2]); err != nil {
			t.Fatal(err)
		}
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
		want       []float64 // skills of a, b, c
		given      int
		err        string
	}{
		{"some workers", "worker,skill\nb,0.5\nz,0.9\na,1\n", []float64{1, 0.5, math.NaN()}, 2, ""},
		{"negative", "worker,skill\na,0.5\nb,-1\n", nil, 0, `skills.csv:3: worker "b" has skill -1: want a finite number, at least 0`},
		{"NaN", "worker,skill\na,NaN\n", nil, 0, `skills.csv:2: worker "a" has skill NaN`},
		{"infinite", "worker,skill\nc,+Inf\n", nil, 0, `skills.csv:2: worker "c" has skill +Inf`},
	} {
		tab, err := ReadWorkers(strings.NewReader(c.text), "skills.csv", "", []string{"skill"})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, given, err := tab.Skills(d, "skills.csv")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one with %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || given != c.given || len(got) != len(c.want) {
			t.Fatalf("%s: %v, %d given, error %v", c.name, got, given, err)
		}
		for w := range got {
			if got[w] != c.want[w] && !(math.IsNaN(got[w]) && math.IsNaN(c.want[w])) {
				t.Errorf("%s: skills %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}
