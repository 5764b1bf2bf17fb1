package report

import (
	"slices"
	"testing"

	"github.com/consensuslab/consensus/plan"
)

func TestFlagOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []plan.WorkerFlag
		want  []int
	}{
		{"sum beats the larger kind", []plan.WorkerFlag{{Spammer: 0.6}, {Spammer: 0.35, Adversarial: 0.35}}, []int{1, 0}},
		{"one kind each", []plan.WorkerFlag{{Adversarial: 0.2}, {Spammer: 0.9}, {Adversarial: 0.5}}, []int{1, 2, 0}},
		{"ties in worker order", []plan.WorkerFlag{{Spammer: 0.25, Adversarial: 0.25}, {Spammer: 0.5}, {Adversarial: 0.5}, {}}, []int{0, 1, 2, 3}},
	} {
		if got := flagOrder(tc.flags); !slices.Equal(got, tc.want) {
			t.Errorf("%s: flagOrder = %v, want %v", tc.name, got, tc.want)
		}
	}
}
