package compare

import (
	"fmt"
	"io"

	"github.com/consensuslab/consensus/internal/unvoted"
	"github.com/consensuslab/consensus/model"
)

// AbsentClass is a class that many tasks' votes give and that the labels
// agree on within tasks, but that a fit gives almost none of its consensus
// (AbsentClasses).
type AbsentClass struct {
	// Class indexes the class (data.Dataset.Classes).
	Class int
	// Votes is the share of the tasks on which the class is the most
	// frequent label (ties split evenly), and Share its share of the
	// consensus: the mean over the tasks of its probability.
	Votes, Share float64
	// Agreement is the z-score of the class's agreement within tasks:
	// how much more often two labels of a task both give it than their
	// workers' shares of it predict, in standard errors; Crowd is the same
	// for any class.
	Agreement, Crowd float64
}

// AbsentBar, AbsentShare and AbsentAgreement are the bars of
// AbsentClasses: the least share of the tasks a class is the most frequent
// label of, the largest share of the consensus as a fraction of that, and
// the least z-score of agreement.
const (
	AbsentBar       = unvoted.AbsentBar
	AbsentShare     = unvoted.AbsentShare
	AbsentAgreement = unvoted.AbsentAgreement
	AbsentCrowd     = unvoted.AbsentCrowd
)

// AbsentClasses returns the classes that are the most frequent label of at
// least AbsentBar of the tasks and that the fit r gives under AbsentShare
// of that share of its consensus, though their labels agree within tasks
// beyond what their workers' shares give (z-score at least
// AbsentAgreement), or all the labels do (at least AbsentCrowd). It is
// the opposite of UnvotedClasses: the fit reads a class's tasks as other
// classes', and the workers who give it as erring. That can be right (a
// rare class whose labels are mostly another class's errors) or wrong,
// and the labels do not tell which. The default takes
// gibbs-kinds's answer where that keeps the class and agrees with the
// votes more often (gibbs.Challenge); other models are reported as they
// are. Nothing is reported for a result without probabilities.
func AbsentClasses(r *model.Result) []AbsentClass {
	if r == nil {
		return nil
	}
	var out []AbsentClass
	for _, a := range unvoted.AbsentClasses(r.Data, r.Probs) {
		out = append(out, AbsentClass(a))
	}
	return out
}

// WriteAbsentClasses writes to w a line for each class AbsentClasses
// reports for the fit r, and returns w's first write error.
func WriteAbsentClasses(w io.Writer, r *model.Result) error {
	for _, c := range AbsentClasses(r) {
		agree := fmt.Sprintf("its labels agree within tasks (z = %.1f)", c.Agreement)
		if c.Agreement < AbsentAgreement {
			agree = fmt.Sprintf("the labels agree within tasks (z = %.1f; its own, %.1f)", c.Crowd, c.Agreement)
		}
		if _, err := fmt.Fprintf(w, "absent class: class %s is the most frequent label of %.1f%% of the tasks, and %s, but it is %.2f%% of the consensus: the fit reads its tasks as other classes; compare --model gibbs-kinds or mv, or gold labels\n",
			r.Data.Classes[c.Class], 100*c.Votes, agree, 100*c.Share); err != nil {
			return err
		}
	}
	return nil
}
