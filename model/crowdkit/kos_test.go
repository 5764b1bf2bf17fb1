package crowdkit

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// biased returns labels of four tasks whose true classes are 0, 0, 1, 1:
// two workers always right and n workers who always answer 1.
func biased(n int) string {
	var b strings.Builder
	b.WriteString("task,worker,label\n")
	truth := []int{0, 0, 1, 1}
	for j, c := range truth {
		fmt.Fprintf(&b, "t%d,a,%d\nt%d,b,%d\n", j, c, j, c)
		for s := range n {
			fmt.Fprintf(&b, "t%d,s%d,1\n", j, s)
		}
	}
	return b.String()
}

func TestKOS(t *testing.T) {
	right := [][]float64{{1, 0}, {1, 0}, {0, 1}, {0, 1}}
	tests := []struct {
		name string
		csv  string
		e    KOS
		want [][]float64
	}{
		{"unanimous", biased(0), KOS{}, right},
		{"unanimous, raw", biased(0), KOS{Raw: true}, right},
		// Four workers who always say 1 outweigh the two right ones: the
		// leading direction of the raw labels is their bias, and every task
		// gets class 1. Centring each worker's labels removes it.
		{"biased workers, raw", biased(4), KOS{Raw: true}, [][]float64{{0, 1}, {0, 1}, {0, 1}, {0, 1}}},
		{"biased workers", biased(4), KOS{}, right},
		{"other seed", biased(4), KOS{Seed: 7}, right},
		// Every worker gives one label to all its tasks (Crowd-Kit's
		// data_with_bool_labels): centring would erase every label, and the
		// majority vote decides; identical tasks get identical labels, a
		// tie the uniform distribution.
		{"constant workers", "task,worker,label\nt1,w1,b\nt2,w1,b\nt1,w2,b\nt2,w2,b\nt1,w3,a\nt2,w3,a\n", KOS{},
			[][]float64{{0, 1}, {0, 1}}},
		{"constant workers, tie", "task,worker,label\nt1,w1,b\nt2,w1,b\nt1,w3,a\nt2,w3,a\nt3,w3,a\n", KOS{},
			[][]float64{{0.5, 0.5}, {0.5, 0.5}, {1, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tt.e.Fit(context.Background(), readCrowd(t, tt.csv), nil)
			if err != nil {
				t.Fatal(err)
			}
			checkProbs(t, r, tt.want)
		})
	}
}

func TestKOSRefusesOtherK(t *testing.T) {
	d := readCrowd(t, "task,worker,label\nt1,a,x\nt1,b,y\nt2,a,z\n")
	_, err := KOS{}.Fit(context.Background(), d, nil)
	if err == nil || !strings.Contains(err.Error(), "two classes only, and the data have 3") {
		t.Fatalf("error %v, want a refusal of 3 classes", err)
	}
}
