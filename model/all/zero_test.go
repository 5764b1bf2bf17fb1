package all_test

import (
	"context"
	"errors"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/crowdkit"
	"github.com/consensuslab/consensus/model/hda"
	"github.com/consensuslab/consensus/model/vb"
)

// TestZeroValues checks that the zero value of every exported estimator
// either fits or returns an error, never panics: the composites without
// their parts (Model{}, HDA{}, Bayes{}) return an error wrapping
// model.ErrIncomplete and are named model.IncompleteName, the votes fit
// with their documented defaults or refuse with an error (typed where
// the package declares one).
func TestZeroValues(t *testing.T) {
	// errAny marks a fit that must fail with an error of any kind.
	errAny := errors.New("any error")
	d, err := data.FromIndices([]string{"t1", "t2"}, []string{"a", "b"}, []string{"x", "y"},
		[]int32{0, 0, 1, 1}, []int32{0, 1, 0, 1}, []uint16{0, 0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		est  model.Estimator
		want error // nil: the fit succeeds
	}{
		{model.Model{}, model.ErrIncomplete},
		{hda.HDA{}, model.ErrIncomplete},
		{vb.Bayes{}, model.ErrIncomplete},
		{model.RFE{}, nil},
		{model.WeightedVote{}, errAny}, // no skills: one per worker needed
		{crowdkit.Wawa{}, nil},
		{crowdkit.ZeroBasedSkill{}, nil},
		{crowdkit.GoldMajorityVote{}, crowdkit.ErrNoTrainingGold},
		{crowdkit.KOS{}, nil},
		{crowdkit.MMSR{}, nil},
	} {
		t.Run(tc.est.Name(), func(t *testing.T) {
			r, err := tc.est.Fit(context.Background(), d, nil)
			switch {
			case tc.want == nil && err != nil:
				t.Fatalf("%T{}: %v", tc.est, err)
			case tc.want == nil && len(r.Probs) != d.NumTasks()*d.NumClasses():
				t.Errorf("%T{}: %d probabilities, want %d", tc.est, len(r.Probs), d.NumTasks()*d.NumClasses())
			case tc.want == errAny && err == nil:
				t.Errorf("%T{}: no error", tc.est)
			case tc.want != nil && tc.want != errAny && !errors.Is(err, tc.want):
				t.Errorf("%T{}: error %v, want %v", tc.est, err, tc.want)
			}
			if errors.Is(tc.want, model.ErrIncomplete) && tc.est.Name() != model.IncompleteName {
				t.Errorf("%T{}: name %q, want %q", tc.est, tc.est.Name(), model.IncompleteName)
			}
		})
	}
}
