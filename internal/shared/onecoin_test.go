package shared_test

import (
	"testing"

	"github.com/consensuslab/consensus/internal/shared"
)

// TestOneCoinPairs checks the one-coin reference check: it flags the two
// workers who share a mistake on 30% of class 0 (w0 and w1), and no pair
// among independent workers, on two seeds each.
func TestOneCoinPairs(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		p := shared.OneCoinPairs(crowd(t, 0.3, 2, seed))
		if len(p) == 0 || p[0].A != 0 || p[0].B != 1 {
			t.Errorf("seed %d: shared mistakes of w0 and w1: pairs %+v", seed, p)
		}
		if p := shared.OneCoinPairs(crowd(t, 0, 0, seed)); len(p) > 0 {
			t.Errorf("seed %d: independent workers: pairs %+v", seed, p)
		}
	}
}
