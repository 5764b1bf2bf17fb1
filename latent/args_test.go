package latent_test

import (
	"errors"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
)

// TestZeroWithGold checks that the zero WithGold answers its declarations
// without panicking and that Check and NewEvaluator refuse it, and that
// GoldClasses takes a nil data set.
func TestZeroWithGold(t *testing.T) {
	d, err := data.FromIndices([]string{"t1", "t2"}, []string{"a", "b"}, []string{"x", "y"},
		[]int32{0, 0, 1, 1}, []int32{0, 1, 0, 1}, []uint16{0, 0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	var a latent.WithGold
	if a.Name() != "gold" || a.GlobalDim(2) != 0 || a.TaskDim(2) != 0 {
		t.Errorf("zero WithGold: name %q, dimensions %d and %d", a.Name(), a.GlobalDim(2), a.TaskDim(2))
	}
	if err := a.Check(d); !errors.Is(err, latent.ErrUnsuited) {
		t.Errorf("Check: %v, want ErrUnsuited", err)
	}
	if _, err := a.NewEvaluator(d); !errors.Is(err, latent.ErrUnsuited) {
		t.Errorf("NewEvaluator: %v, want ErrUnsuited", err)
	}
	if c := latent.GoldClasses(nil, nil); c != nil {
		t.Errorf("GoldClasses(nil, nil) = %v", c)
	}
}
