package crowdkit

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
)

// crowd is a small hand-checked data set: three workers, four tasks,
// classes 0 and 1. Its majority votes are 0, 1, 1, 0; worker a agrees with
// them on 3 of 4 labels, b on 3 of 4, c on 2 of 3.
const crowd = `task,worker,label
t1,a,0
t1,b,0
t1,c,1
t2,a,1
t2,b,0
t2,c,1
t3,a,0
t3,b,1
t3,c,1
t4,a,0
t4,b,0
`

// readCrowd reads CSV labels for a test.
func readCrowd(t *testing.T, csv string) *data.Dataset {
	t.Helper()
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader(csv), "test.csv", dataio.ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkProbs compares the consensus distributions of r with want, one row
// per task.
func checkProbs(t *testing.T, r *model.Result, want [][]float64) {
	t.Helper()
	if len(r.Probs) != len(want)*r.K() {
		t.Fatalf("%d probabilities, want %d", len(r.Probs), len(want)*r.K())
	}
	for j, row := range want {
		for z, p := range row {
			if got := r.Dist(j)[z]; math.Abs(got-p) > 1e-12 {
				t.Errorf("task %s class %s: got %.15g, want %.15g", r.Data.Tasks[j], r.Data.Classes[z], got, p)
			}
		}
	}
}

func TestWawa(t *testing.T) {
	// Skills 3/4, 3/4, 2/3: the weighted votes have total 13/6 on t1, t2
	// and t3, and 3/2 on t4.
	tests := []struct {
		name string
		csv  string
		want [][]float64
	}{
		{"hand-checked", crowd, [][]float64{{9.0 / 13, 4.0 / 13}, {9.0 / 26, 17.0 / 26}, {9.0 / 26, 17.0 / 26}, {1, 0}}},
		// A 1-1 tie in the majority vote goes to the first class, as in
		// Crowd-Kit: a agrees (skill 1), b does not (skill 0).
		{"tie to first class", "task,worker,label\nt1,a,0\nt1,b,1\n", [][]float64{{1, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Wawa{}.Fit(context.Background(), readCrowd(t, tt.csv), nil)
			if err != nil {
				t.Fatal(err)
			}
			checkProbs(t, r, tt.want)
		})
	}
}
