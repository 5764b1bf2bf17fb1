package crowdkit

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestGoldMajorityVote(t *testing.T) {
	// Gold t1 = 0, t2 = 1: a is right on both (skill 1), b and c on one
	// of two (1/2); d has no gold label and gets the pooled accuracy 4/6.
	d := readCrowd(t, crowd+"t5,d,1\nt5,b,0\n")
	gold := []int{0, 1, -1, -1, -1}
	r, err := GoldMajorityVote{Gold: gold}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkProbs(t, r, [][]float64{
		{3.0 / 4, 1.0 / 4}, // a 1 + b 1/2 against c 1/2
		{1.0 / 4, 3.0 / 4}, // b 1/2 against a 1 + c 1/2
		{1.0 / 2, 1.0 / 2}, // a 1 against b 1/2 + c 1/2
		{1, 0},
		{3.0 / 7, 4.0 / 7}, // b 1/2 against d 2/3
	})

	// A worker wrong on all the gold has skill 0: a task with only its
	// labels gets the uniform distribution.
	r, err = GoldMajorityVote{Gold: []int{1, -1}}.Fit(context.Background(), readCrowd(t, "task,worker,label\nt1,a,0\nt2,a,1\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkProbs(t, r, [][]float64{{0.5, 0.5}, {0.5, 0.5}})

	errs := []struct {
		name string
		gold []int
		want string
	}{
		{"no gold", nil, "training gold"},
		{"all -1", []int{-1, -1, -1, -1, -1}, "training gold"},
		{"short", []int{0}, "1 gold entries for 5 tasks"},
		{"class out of range", []int{0, 2, -1, -1, -1}, "gold class index 2"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := GoldMajorityVote{Gold: tt.gold}.Fit(context.Background(), d, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if strings.Contains(tt.want, "training gold") && !errors.Is(err, ErrNoTrainingGold) {
				t.Errorf("error %v is not ErrNoTrainingGold", err)
			}
		})
	}
}
