package compare

import (
	"fmt"
	"io"

	"github.com/consensuslab/consensus/internal/shared"
	"github.com/consensuslab/consensus/internal/unvoted"
	"github.com/consensuslab/consensus/model"
)

// AbsentClass is a class that many labels give and agree on within tasks,
// but that a fit gives almost none of its consensus (AbsentClasses).
type AbsentClass struct {
	// Class indexes the class (data.Dataset.Classes).
	Class int
	// Labels is the class's share of the labels (unvoted.LabelShares),
	// and Share its share of the consensus: the mean over the tasks of
	// its probability.
	Labels, Share float64
	// Agreement is the z-score of the class's agreement within tasks
	// (unvoted.ClassAgreement).
	Agreement float64
}

// AbsentBar, AbsentShare and AbsentAgreement are the bars of
// AbsentClasses: the least share of the labels, the largest share of the
// consensus as a fraction of the share of the labels, and the least
// z-score of agreement.
const (
	AbsentBar       = 0.01
	AbsentShare     = 0.2
	AbsentAgreement = 3
)

// AbsentClasses returns the classes of at least AbsentBar of the labels
// that the fit r gives under AbsentShare of their share of the labels,
// though their labels agree within tasks beyond what their workers'
// shares give (unvoted.ClassAgreement at least AbsentAgreement). It is
// the opposite of UnvotedClasses: the fit reads a class's tasks as other
// classes', and the workers who give it as erring. That can be right (a
// rare class whose labels are mostly another class's errors) or wrong,
// and the labels do not tell which. At K = 7, 3000 tasks of 3 labels
// among 300 workers of accuracy U[0.3, 0.8] who err on the next class
// (TestAbsentClasses), the default gives class 4, 10% of the tasks and
// 9.9% of the labels (z = 9.5), 0.1% of the consensus, and scores 0.612
// (gibbs-kinds 0.724); at K = 3 with a class of 10% whose labels (21%)
// are half the next class's errors it gives that class 0.3% and scores
// 0.787, and a refit that holds it at its labels' share 0.598. Nothing
// is reported for a result without probabilities.
func AbsentClasses(r *model.Result) []AbsentClass {
	if r == nil || len(r.Probs) == 0 {
		return nil
	}
	labels, fit := unvoted.LabelShares(r.Data), shared.ClassPrior(r.Data, r.Probs)
	var agree []float64
	var out []AbsentClass
	for z, s := range labels {
		if s < AbsentBar || fit[z] >= AbsentShare*s {
			continue
		}
		if agree == nil {
			agree = unvoted.ClassAgreement(r.Data)
		}
		if agree[z] >= AbsentAgreement {
			out = append(out, AbsentClass{Class: z, Labels: s, Share: fit[z], Agreement: agree[z]})
		}
	}
	return out
}

// WriteAbsentClasses writes to w a line for each class AbsentClasses
// reports for the fit r, and returns w's first write error.
func WriteAbsentClasses(w io.Writer, r *model.Result) error {
	for _, c := range AbsentClasses(r) {
		name := r.Data.Classes[c.Class]
		if _, err := fmt.Fprintf(w, "absent class: class %s is %.1f%% of the labels, which agree on it within tasks (z = %.1f), but %.2f%% of the consensus: the fit reads its tasks as other classes; compare --model gibbs-kinds or mv, or gold labels\n",
			name, 100*c.Labels, c.Agreement, 100*c.Share); err != nil {
			return err
		}
	}
	return nil
}
