package crowdkit

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// TestTypedErrors checks that the errors of the votes a program may act
// on are typed (errors.Is finds them) and name no flag of the command line.
func TestTypedErrors(t *testing.T) {
	two, err := data.FromIndices([]string{"t1", "t2"}, []string{"a", "b"}, []string{"x", "y"},
		[]int32{0, 0, 1}, []int32{0, 1, 0}, []uint16{0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	three, err := data.FromIndices([]string{"t1", "t2"}, []string{"a", "b"}, []string{"x", "y", "z"},
		[]int32{0, 0, 1}, []int32{0, 1, 0}, []uint16{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	fit := func(est model.Estimator, d *data.Dataset) error {
		_, err := est.Fit(context.Background(), d, nil)
		return err
	}
	for _, tc := range []struct {
		name string
		err  error
		want error
		text string
	}{
		{"gmv without gold", fit(GoldMajorityVote{}, two), ErrNoTrainingGold, "gmv needs training gold"},
		{"gmv with no gold task", fit(GoldMajorityVote{Gold: []int{-1, -1}}, two), ErrNoTrainingGold, "no task has a gold class"},
		{"kos on three classes", fit(KOS{}, three), ErrTwoClassesOnly, "the data have 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.want) {
				t.Fatalf("error %v is not %v", tc.err, tc.want)
			}
			if msg := tc.err.Error(); !strings.Contains(msg, tc.text) || strings.Contains(msg, "--") {
				t.Errorf("error %q: want %q and no flag name", msg, tc.text)
			}
		})
	}
}
