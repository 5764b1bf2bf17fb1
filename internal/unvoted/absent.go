package unvoted

import (
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/shared"
)

// Absent is a class that many tasks' votes give and that the labels agree
// on within tasks, but that a fit gives almost none of its consensus
// (AbsentClasses).
type Absent struct {
	// Class indexes the class (data.Dataset.Classes).
	Class int
	// Votes is the share of the tasks on which the class is the most
	// frequent label (VoteShares), and Share its share of the consensus:
	// the mean over the tasks of its probability.
	Votes, Share float64
	// Agreement is the z-score of the class's agreement within tasks
	// (ClassAgreement), and Crowd that of all the labels (Agreement).
	Agreement, Crowd float64
}

// AbsentBar, AbsentShare, AbsentAgreement and AbsentCrowd are the bars of
// AbsentClasses: the least share of the tasks a class is the most frequent
// label of, the largest share of the consensus as a fraction of that, and
// the least z-score of agreement, the class's or all the labels'.
const (
	AbsentBar       = 0.01
	AbsentShare     = 0.2
	AbsentAgreement = 3
	AbsentCrowd     = 5
)

// AbsentClasses returns the classes that are the most frequent label of at
// least AbsentBar of d's tasks and that the consensus probs (J×K) gives
// under AbsentShare of that share, though their labels agree within tasks
// beyond what their workers' shares give (ClassAgreement at least
// AbsentAgreement), or all the labels do (Agreement at least AbsentCrowd).
// It is the opposite of Unvoted: the fit reads a class's tasks as other
// classes', and the workers who give it as erring. That can be right (a
// rare class whose labels are mostly another class's errors) or wrong, and
// the labels do not tell which.
//
// A middle class, to which the errors of the classes on both sides fall,
// agrees within tasks little more than its workers' shares give: at K = 3,
// classes of 60%, 30% and 10%, 3 labels a task among 300 workers of
// accuracy U[0.3, 0.8] or U[0.35, 0.7] who err on the next class (10%
// spammers; seeds 1, 2), the default gave the middle class 0.2-1% of its
// consensus though it is the most frequent label of 41-43% of the tasks,
// at z = 0.4-1.3 (all labels: 7.8-8.9), and scored 0.589-0.652 (ECE up to
// 0.27; gibbs-kinds 0.669-0.706). Where all the labels agree no more than
// z = 3.2 (workers of U[0.33, 0.5] at K = 3, or of U[0.45, 0.65] at K = 2
// with classes of 90% and 10%), a class all but dropped is read right, and
// gibbs-kinds's answer would lose 3-34 points.
//
// At K = 7, 3000 tasks of 3 labels among 300 workers of accuracy U[0.3,
// 0.8] who err on the next class, a mean-field Dawid-Skene fit gives class
// 4 (10% of the tasks, 9.9% of the labels, z = 9.5) 0.09% of its consensus
// and scores 0.612 (gibbs-kinds 0.724); at K = 3 with a class of 10% whose
// labels are half the next class's errors it gives that class 0.3% and
// scores 0.787, and a refit that holds it at its labels' share 0.598. The
// reference is the votes, not the labels: at K = 2 with a class of 5% that
// spammers and adversaries make 26-32% of the labels (agreeing at z = 4),
// the default's share of 4-5.5% is right (accuracy 0.988-0.999, the Bayes
// limit's 0.990-0.9995), and not reported. Nothing is reported for empty
// probs.
func AbsentClasses(d *data.Dataset, probs []float64) []Absent {
	if len(probs) == 0 {
		return nil
	}
	votes, fit := VoteShares(d), shared.ClassPrior(d, probs)
	var agree []float64
	var crowd float64
	var out []Absent
	for z, v := range votes {
		if v < AbsentBar || fit[z] >= AbsentShare*v {
			continue
		}
		if agree == nil {
			agree, crowd = ClassAgreement(d), Agreement(d)
		}
		if agree[z] >= AbsentAgreement || crowd >= AbsentCrowd {
			out = append(out, Absent{Class: z, Votes: v, Share: fit[z], Agreement: agree[z], Crowd: crowd})
		}
	}
	return out
}
