package unvoted

import (
	"gonum.org/v1/gonum/floats"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/shared"
)

// LabelShares returns the share of every class among d's labels, with one
// pseudo-count a class. Package vb reads it as the base measure of the
// ambiguity model's distractors, from the labels rather than from a fit's
// class prior, which a fit that collapses onto one class would pass on
// (vb-onecoin on adult: the LA fit's prior 0.949 on one class made it
// every other class's distractor, and accuracy fell from 0.6697 to 0.5616;
// 0.6727 with the labels' shares).
func LabelShares(d *data.Dataset) []float64 {
	base := make([]float64, d.NumClasses())
	for _, y := range d.Label {
		base[y]++
	}
	for y := range base {
		base[y] = (base[y] + 1) / float64(d.NumLabels()+d.NumClasses())
	}
	return base
}

// VoteShares returns the share of d's tasks on which every class is the
// most frequent label (data.Dataset.TaskCounts), a tie split evenly among
// its classes; a task without labels counts for none.
func VoteShares(d *data.Dataset) []float64 {
	k := d.NumClasses()
	out, row := make([]float64, k), make([]float64, k)
	for j := range d.Tasks {
		d.TaskCounts(j, row)
		top := floats.Max(row)
		if top == 0 {
			continue
		}
		tied := 0.0
		for _, c := range row {
			if c == top {
				tied++
			}
		}
		for y, c := range row {
			if c == top {
				out[y] += 1 / tied
			}
		}
	}
	floats.Scale(1/float64(max(d.NumTasks(), 1)), out)
	return out
}

// Implied returns the class shares that d's labels imply for workers of a
// symmetric Dirichlet prior's mean with twice the pseudo-count on the
// diagonal, P(z | z) = 2/(K + 1) and 1/(K + 1) for every other label:
// the labels' share of class z is s_z = (p_z + 1)/(K + 1), so p_z =
// (K + 1) s_z − 1 (s from LabelShares), clipped at 0 and normalised.
func Implied(d *data.Dataset) []float64 {
	k := d.NumClasses()
	imply := LabelShares(d)
	for z, s := range imply {
		imply[z] = max(0, float64(k+1)*s-1)
	}
	floats.Scale(1/floats.Sum(imply), imply)
	return imply
}

// DroppedShare, DroppedShare2, DroppedImplied and DroppedAgreement are
// the bars of Dropped.
const (
	DroppedShare     = 0.2 // of the implied share
	DroppedShare2    = 0.5 // the same at K = 2
	DroppedImplied   = 0.8 // times 1/K
	DroppedAgreement = 1   // the z-score of Agreement
	DroppedAgreed    = 2   // the same where the implied share is lower
)

// Dropped reports whether the consensus probs (J×K) of the tasks of d all
// but drops a class that the labels give: the class's share of the
// consensus (shared.ClassPrior) is below DroppedShare of its share by
// Implied, and the labels agree within tasks beyond what workers who
// ignore the task would give, which a consensus that reads every worker
// as random cannot explain: Agreement at least DroppedAgreement where the
// implied share is at least DroppedImplied/K, at least DroppedAgreed
// where it is lower. It is the opposite failure of Classes: where workers
// are weak, a class prior learned by mean field can run to one class. On
// 3000 tasks of 50 Dawid-Skene workers of accuracy U[0.5, 0.65] or U[0.55,
// 0.7], balanced classes, 3 or 5 labels a task, the default model of
// package vb gave 95-99% of the tasks one class on 8 of 12 crowds
// (accuracy 0.49-0.51 against majority vote's 0.60-0.71), and refits with
// its class prior held at the labels' shares when its first fit shows
// one. With two labels a task and a prolific worker's bias, the labels
// lean 55/45 on balanced classes, and agree far beyond chance (z = 5.6):
// the first fit gave 0.503, the refit 0.653 (majority vote 0.664).
//
// At K = 2 the bar is DroppedShare2: there a class prior that drifts
// moves the threshold of every task, and with weak workers most tasks sit
// near it. On 2000 tasks of 5 labels from 100 or 300 Dawid-Skene workers
// of accuracy U[0.55, 0.7] and balanced classes, the first fit gave one
// class 0.16-0.34 on 8 of 12 crowds (accuracy 0.55-0.67 against majority
// vote's 0.71-0.74, the Bayes limit's 0.71-0.74); the refit at the held
// shares of HeldShares gave 0.71-0.74. At K > 2 that bar also refitted
// crowds whose errors fall on the next class, where the refit lost up to
// 9 points.
//
// Where the labels lean to a class and do not agree beyond chance, a
// prior run to it can be right, and is not reported: with classes of 90%
// and 10%, workers of U[0.45, 0.65] and two labels a task, with or
// without 30% spammers (labels split 53/47 or 54/46), the fit's 0.89-0.91
// is the Bayes limit, and a uniform prior gave 0.54-0.59. A rare class,
// which noisy workers' labels overstate, implies a share of 0.
//
// The refit held at HeldShares (package vb) is kept where its labels are a
// most frequent vote on as many tasks: a held prior can send the workers
// to another optimum, the classes read through each other. On 14 crowds
// of K = 3 and 5, classes of (0.6, 0.3, 0.1) or (0.5, …, 0.05), 3 labels
// a task, workers of accuracy U[0.3, 0.8], U[0.35, 0.7] or U[0.4, 0.9]
// whose errors fall on the next class and 10% spammers, a refit at a
// uniform prior gave 0.20-0.55 (mean 0.34; the first fit 0.63-0.71,
// majority vote 0.54-0.72, mean 0.59); at the labels' shares and with this
// check, 0.55-0.76 (mean 0.65).
func Dropped(d *data.Dataset, probs []float64) bool {
	share := DroppedShare
	if d.NumClasses() == 2 {
		share = DroppedShare2
	}
	return below(d, probs, share)
}

// DriftShare2 is the bar of Drifted: of the implied share.
const DriftShare2 = 0.9

// Drifted reports whether the consensus probs (J×K) of the tasks of d, K =
// 2, gives a class less than DriftShare2 of its share by Implied where the
// labels agree within tasks as Dropped asks: a class prior that has
// drifted from the labels, though not so far that Dropped reports it. The
// LA fits of package vb then refit with the prior held at HeldShares, and
// keep the refit where its labels are a most frequent vote on at least 1%
// more of the tasks and its bound on the evidence is at most 2 nats below
// the first fit's: a prior learned where the classes are imbalanced,
// or the workers biased, drifts from the implied shares and is right, and
// the data then say so.
//
// On 2000 tasks of 5 labels from 100 Dawid-Skene workers of accuracy
// U[0.55, 0.7] and balanced classes (seeds 1 to 6), the first fit gave one
// class 0.30-0.39 on 3 crowds, its labels a most frequent vote on 73-84%
// of the tasks (0.663-0.690 accurate; majority vote 0.722-0.748, the Bayes
// limit 0.727-0.742); the refit's on 99.5-100% (0.723-0.747), its bound
// 0.3-1.7 nats lower. On rte the first fit gives the classes 0.53 and 0.47
// (gold: half each), the labels imply 0.30 and 0.70, and the refit's bound
// is 80 nats lower. On 135 simulated crowds of K = 2 (the random sweeps,
// the regimes, the grid, the light and the weak crowds of scripts/) this
// changed the default's output on 4: those three (+3.3 to +6.3 points) and
// one of classes of 0.7 and 0.3 with 30% spammers (−0.3). With the votes'
// test alone it changed 10 more (−0.3 to +0.6 points, +1.2 together), and
// rte's prior to 0.30 and 0.70; with neither, one more lost 1 point and its
// ECE went from 0.014 to 0.063.
func Drifted(d *data.Dataset, probs []float64) bool {
	return d.NumClasses() == 2 && below(d, probs, DriftShare2)
}

// below reports whether the consensus probs gives a class under share of
// its implied share where the labels agree within tasks (Dropped).
func below(d *data.Dataset, probs []float64, share float64) bool {
	k := d.NumClasses()
	imply, fit := Implied(d), shared.ClassPrior(d, probs)
	dropped, bar := false, float64(DroppedAgreed)
	for z := range k {
		if fit[z] < share*imply[z] {
			dropped = true
			if imply[z] >= DroppedImplied/float64(k) {
				bar = DroppedAgreement
			}
		}
	}
	return dropped && Agreement(d) >= bar
}

// HeldShares returns the class prior at which the LA fits of package vb
// hold their refit where Dropped reports a class all but dropped: the
// labels' shares (LabelShares) for K > 2, and at K = 2 the implied shares
// (Implied) with a tenth of the uniform distribution mixed in, so that no
// class is held at 0. Implied deconvolves the labels by workers whose
// errors are spread evenly over the other classes, which at K = 2, with one
// other class, is no assumption; noisy workers' labels overstate a rare
// class, and a refit held at its labels' share then gives it too many
// tasks. On 2000 tasks of 3 labels among 200 workers, 30% of them
// spammers, classes of 85% and 15% (seeds 1-3), the first fit gave the
// rare class under half its implied share; held at the labels' shares the
// refit scored 0.81-0.83 against the first fit's 0.87-0.88, held here
// 0.86-0.89. At K > 2 errors that fall on neighbouring classes make the
// even deconvolution wrong: on 7 of 24 crowds of imbalanced classes whose
// workers err on the next class the refit held at the implied shares moved
// accuracy by −6.4 to +6.4 points.
func HeldShares(d *data.Dataset) []float64 {
	if d.NumClasses() != 2 {
		return LabelShares(d)
	}
	const uniform = 0.1
	held := Implied(d)
	floats.Scale(1-uniform, held)
	floats.AddConst(uniform/2, held)
	return held
}
