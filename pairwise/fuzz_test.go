package pairwise

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
)

// FuzzReadComparisons: any text is either refused with a *dataio.InputError
// or read into consistent comparisons, which both fits take without a
// panic and give finite scores.
func FuzzReadComparisons(f *testing.F) {
	for _, s := range []string{
		"worker,left,right,label\nw1,a,b,a\nw2,b,c,c\nw1,c,a,a\n",
		"left,right,label\na,b,b\n",
		"left\tright\tlabel\na\tb\tc\n",
		"worker,left,right,label\nw,a,a,a\n",
		`{"worker":"w","left":"a","right":"b","label":"a"}` + "\n",
		"left,right,label\n\"a,b\",b,\"a,b\"\n",
	} {
		f.Add(s, "c.csv")
	}
	f.Add(`{"left":"x","right":"y","label":"y"}`, "c.jsonl")
	f.Fuzz(func(t *testing.T, text, name string) {
		if name != "c.csv" && name != "c.tsv" && name != "c.jsonl" {
			name = "c.csv"
		}
		c, err := ReadComparisons(context.Background(), strings.NewReader(text), name, "", Columns{}, dataio.ReadSettings{})
		if err != nil {
			var ie *dataio.InputError
			if !errors.As(err, &ie) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not a one-line *dataio.InputError", err)
			}
			return
		}
		n := int32(len(c.Items))
		for k, l := range c.Left {
			if l < 0 || l >= n || c.Right[k] < 0 || c.Right[k] >= n || l == c.Right[k] {
				t.Fatalf("comparison %d: items %d and %d of %d", k, l, c.Right[k], n)
			}
		}
		if c.HasWorkers() && len(c.Worker) != c.Len() {
			t.Fatalf("%d workers for %d comparisons", len(c.Worker), c.Len())
		}
		if c.Len() > 200 {
			return
		}
		fits := []func() (*Result, error){func() (*Result, error) { return BradleyTerry{}.Fit(context.Background(), c) }}
		if c.HasWorkers() {
			fits = append(fits, func() (*Result, error) { return NoisyBT{}.Fit(context.Background(), c) })
		}
		for _, fit := range fits {
			r, err := fit()
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range r.Scores {
				if math.IsNaN(s) || math.IsInf(s, 0) {
					t.Fatalf("%s: score %d is %v", r.Model, i, s)
				}
			}
		}
	})
}
