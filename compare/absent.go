package compare

import (
	"fmt"
	"io"

	"github.com/consensuslab/consensus/internal/shared"
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
	// frequent label (unvoted.VoteShares), and Share its share of the
	// consensus: the mean over the tasks of its probability.
	Votes, Share float64
	// Agreement is the z-score of the class's agreement within tasks
	// (unvoted.ClassAgreement).
	Agreement float64
}

// AbsentBar, AbsentShare and AbsentAgreement are the bars of
// AbsentClasses: the least share of the tasks a class is the most frequent
// label of, the largest share of the consensus as a fraction of that, and
// the least z-score of agreement.
const (
	AbsentBar       = 0.01
	AbsentShare     = 0.2
	AbsentAgreement = 3
)

// AbsentClasses returns the classes that are the most frequent label of at
// least AbsentBar of the tasks and that the fit r gives under AbsentShare
// of that share of its consensus, though their labels agree within tasks
// beyond what their workers' shares give (unvoted.ClassAgreement at least
// AbsentAgreement). It is the opposite of UnvotedClasses: the fit reads a
// class's tasks as other classes', and the workers who give it as erring.
// That can be right (a rare class whose labels are mostly another class's
// errors) or wrong, and the labels do not tell which.
//
// At K = 7, 3000 tasks of 3 labels among 300 workers of accuracy U[0.3,
// 0.8] who err on the next class (TestAbsentClasses), the default gives
// class 4 (10% of the tasks, 9.9% of the labels, z = 9.5) 0.09% of its
// consensus and scores 0.612 (gibbs-kinds 0.724); at K = 3 with a class of
// 10% whose labels are half the next class's errors it gives that class
// 0.3% and scores 0.787, and a refit that holds it at its labels' share
// 0.598. The reference is the votes, not the labels: at K = 2 with a class
// of 5% that spammers and adversaries make 26-32% of the labels (agreeing
// at z = 4), the default's share of 4-5.5% is right (accuracy 0.988-0.999,
// the Bayes limit's 0.990-0.9995), and not reported. Nothing is reported
// for a result without probabilities.
func AbsentClasses(r *model.Result) []AbsentClass {
	if r == nil || len(r.Probs) == 0 {
		return nil
	}
	votes, fit := unvoted.VoteShares(r.Data), shared.ClassPrior(r.Data, r.Probs)
	var agree []float64
	var out []AbsentClass
	for z, v := range votes {
		if v < AbsentBar || fit[z] >= AbsentShare*v {
			continue
		}
		if agree == nil {
			agree = unvoted.ClassAgreement(r.Data)
		}
		if agree[z] >= AbsentAgreement {
			out = append(out, AbsentClass{Class: z, Votes: v, Share: fit[z], Agreement: agree[z]})
		}
	}
	return out
}

// WriteAbsentClasses writes to w a line for each class AbsentClasses
// reports for the fit r, and returns w's first write error.
func WriteAbsentClasses(w io.Writer, r *model.Result) error {
	for _, c := range AbsentClasses(r) {
		if _, err := fmt.Fprintf(w, "absent class: class %s is the most frequent label of %.1f%% of the tasks, and its labels agree within tasks (z = %.1f), but it is %.2f%% of the consensus: the fit reads its tasks as other classes; compare --model gibbs-kinds or mv, or gold labels\n",
			r.Data.Classes[c.Class], 100*c.Votes, c.Agreement, 100*c.Share); err != nil {
			return err
		}
	}
	return nil
}
