package compare_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// TestOverconfidentOnGold checks the hint's test on consensuses of 200
// two-class tasks whose labels are right on 160 (accuracy 0.8): at
// probability 0.99 on every label it is overconfident, at 0.8 it is not,
// and on fewer than MinHintGold gold tasks it does not judge.
func TestOverconfidentOnGold(t *testing.T) {
	const n = 200
	var tasks, workers []string
	var task, worker []int32
	var label []uint16
	for j := range n {
		tasks = append(tasks, fmt.Sprint("t", j))
		task, worker, label = append(task, int32(j)), append(worker, 0), append(label, 0)
	}
	workers = []string{"w"}
	d, err := data.FromIndices(tasks, workers, []string{"a", "b"}, task, worker, label)
	if err != nil {
		t.Fatal(err)
	}
	gold := &data.Gold{}
	for j := range n {
		g := uint16(0)
		if j%5 == 0 {
			g = 1
		}
		gold.Task, gold.Label = append(gold.Task, int32(j)), append(gold.Label, g)
	}
	few := &data.Gold{Task: gold.Task[:compare.MinHintGold-1], Label: gold.Label[:compare.MinHintGold-1]}
	for _, c := range []struct {
		name string
		p    float64
		gold *data.Gold
		want bool
	}{
		{"confident", 0.99, gold, true},
		{"calibrated", 0.8, gold, false},
		{"few gold", 0.99, few, false},
	} {
		probs := make([]float64, 0, 2*n)
		for range n {
			probs = append(probs, c.p, 1-c.p)
		}
		r := model.ClosedForm("test", d, probs, time.Now())
		got, conf, acc, err := compare.OverconfidentOnGold(r, c.gold, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s: OverconfidentOnGold = %v (mean %.3f, accuracy %.3f), want %v", c.name, got, conf, acc, c.want)
		}
	}
	if _, _, _, err := compare.OverconfidentOnGold(nil, gold, 1); err == nil {
		t.Error("nil result: no error")
	}
}
