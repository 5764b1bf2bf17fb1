package vb

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// sampledRounds bounds the rounds of sampledPrecisions; sampledSettle is
// the change of log κ below which no round is run; sampledRelax
// multiplies a round's step in log κ after the first, until the steps
// change direction (the EM steps converge linearly, on the crowd below
// two thirds of the way: the doubled steps settle in three rounds, the
// plain ones in nine).
const (
	sampledRounds = 10
	sampledSettle = 0.02
	sampledRelax  = 2
	// betaSettle is the change of the logarithm of any Beta prior's
	// pseudo-count below which no round is run for them: rounds cost a
	// fit each, and rounds of less than a tenth moved accuracy by less
	// than 0.1 point (K = 10, 3,000 tasks of two labels among 2,000
	// workers, seeds 1-3: one round and 20 CPU-seconds, against ten
	// rounds and 128 with 0.02, the LA fit alone 9.8).
	betaSettle = 0.1
	// roundLoose multiplies the fit's tolerances in a round's refit: it
	// only supplies the next round's values, and one refit at the fit's
	// own tolerances follows the last round (K = 10, 3,000 tasks of two
	// labels among 2,000 workers, seed 1: 98 passes in the rounds
	// against 47, the same accuracy to one task).
	roundLoose = 1000
)

// sampledPrecisions refits the LA fit r of the default form, where most
// labels are on tasks of one or two workers (K > 2), with the shared
// priors of the one-coin and per-class kinds that ran to their caps
// estimated again (noise.PrecisionSampler): the workers' errors'
// precisions from counts drawn from the task posteriors, where the
// confusion's pattern is fixed at uniform errors (pairsFallback: the crowd
// shows none), and the accuracies' Beta priors by cavity empirical Bayes.
//
// The precisions: expected counts spread every label's errors over the
// classes its task might be, so that the workers' errors look uniform (K =
// 5, 2,000 tasks of two labels among 10 Dawid-Skene workers whose errors
// differ, seed 3: capped 0.7950, vb-la-ds 0.8305, drawn counts 0.8265).
// The precision that maximises the likelihood averaged over drawn counts is
// the EM step of the precision with the errors integrated out
// (dsmix.Mix.SampledPrecision); a round takes that step (over-relaxed,
// sampledRelax) at the cavity posteriors of the last fit's tasks, drawing
// with the same seed every round; none runs on one-coin workers (drawn
// counts keep them at the cap). From three labels a task the expected
// counts are sharper: on websearch and trec2010 drawn ones cost accuracy
// (0.8168 → 0.8081, 0.5185 → 0.5105) and ten rounds.
//
// The Beta priors: a label on a task of two counts for its own worker's
// accuracy twice, in its task's posterior and in its worker's counts, so
// that a spammer looks as accurate as the crowd and the priors'
// concentrations run to their cap (K = 3, 3,000 tasks of two labels among
// 200 workers, 20% spammers: spammers fitted at 0.65). Each kind's prior
// maximises the labels' likelihood with each label's class from its cavity
// posterior and the worker's accuracy integrated out
// (dsmix.Mix.CavityBetas), the kinds' shares held: 0.699, 0.712, 0.686 on
// seeds 1-3 became 0.737, 0.736, 0.704 (vb-la-ds 0.725, 0.741, 0.722).
//
// A round sets both, held in a refit from the last fit's pseudo-counts
// with the rest of the shared priors learned, until neither moves by more
// than sampledSettle in its logarithm. On tasks of three labels and more
// (d.Tripled) only the Beta priors are taken so, and only on crowds of
// light workers (the median worker at most cebLight labels), where they
// collapse as in cavityPriors at K = 2 (K = 3, 3 labels a task among 1,000
// workers of activity 0.5, 30% spammers, seeds 1, 2: 0.7392, 0.7345, ECE
// 0.044, 0.040 collapsed; 0.7462, 0.7390 and 0.019, 0.030 with these).
func (b Bayes) sampledPrecisions(ctx context.Context, d *data.Dataset, set model.Settings, nv noise.Variational, r *model.Result, weight data.TaskWeights) (*model.Result, noise.Variational, string, error) {
	ps, ok := nv.(noise.PrecisionSampler)
	cp, ok2 := nv.(noise.CavityProber)
	if !ok || !ok2 || set.Start != nil || set.Fixed != nil {
		return r, nv, "", nil
	}
	// On tasks of three labels and more the Beta priors alone, and only
	// where workers are light (as cavityPriors at K = 2).
	tripled := d.Tripled()
	if tripled && d.UpperMedianWorkerLabels() > cebLight {
		return r, nv, "", nil
	}
	drawKap, drawBetas := ps.PrecisionsCollapsed() && !tripled, ps.BetasCollapsed()
	if !drawKap && !drawBetas {
		return r, nv, "", nil
	}
	first := r
	var rounds, iters, evals int
	var runtime time.Duration
	var search kapSearch
	kapMoved := false // whether a round moved the precisions
	// A round's refit only supplies the next round's values: it stops at
	// roundLoose times the tolerances, and the values that settle are
	// refitted once at the fit's own after the last round.
	loose := set
	loose.FunctionTol *= roundLoose
	loose.ParamTol *= roundLoose
	var held []int // the held values' positions in the state's last tail values
	var tail int
	for rounds < sampledRounds {
		cur := nv.Params(nil)
		st, kapAt, betaAt := ps.SampledPrecisions(r.Probs, cavityTruth(d, r.Probs, cp, b.Gold), 1, drawKap, drawBetas)
		off := len(cur) - len(st)
		settled := true
		for _, i := range betaAt {
			if math.Abs(math.Log(st[i]/cur[off+i])) > betaSettle {
				settled = false
			}
		}
		if drawKap {
			x := math.Log(max(cur[off+kapAt[0]], cur[off+kapAt[1]]))
			to, moved := search.next(x, math.Log(st[kapAt[0]])-x, rounds)
			kapMoved = kapMoved || moved
			settled = settled && !moved
			for _, i := range kapAt {
				st[i] = cur[off+i] // settled: as they are
				if moved {
					st[i] = math.Exp(to) // the posterior clamps it
				}
			}
		}
		if settled {
			break
		}
		held, tail = append(kapAt, betaAt...), len(st)
		// From the last fit's pseudo-counts, with the new values held.
		nr, next, err := b.withHeld(ctx, d, loose, cur, st, held, weight)
		if err != nil {
			return nil, nil, "", err
		}
		iters, evals = iters+nr.Iterations, evals+nr.Evaluations
		runtime += nr.Runtime
		r, nv, rounds = nr, next, rounds+1
		ps, cp = next.(noise.PrecisionSampler), next.(noise.CavityProber)
	}
	if rounds == 0 {
		return r, nv, "", nil
	}
	cur := nv.Params(nil)
	nr, next, err := b.withHeld(ctx, d, set, cur, cur[len(cur)-tail:], held, weight)
	if err != nil {
		return nil, nil, "", err
	}
	iters, evals = iters+nr.Iterations, evals+nr.Evaluations
	runtime += nr.Runtime
	r, nv = nr, next
	r.Iterations = first.Iterations + iters
	r.Evaluations = first.Evaluations + evals
	r.Runtime = first.Runtime + runtime
	var what []string
	if kapMoved {
		what = append(what, "the errors' precisions from drawn counts")
	}
	if drawBetas {
		what = append(what, "the accuracies' priors by cavity empirical Bayes")
	}
	return r, nv, ", " + strings.Join(what, " and ") + roundsNote(rounds, iters), nil
}

// kapSearch finds the precisions' fixed point log κ ↦ log F(κ) over the
// rounds of sampledPrecisions by the sign of g = log F − log κ, negative
// at the cap: steps of g, then of sampledRelax times g until g changes
// sign, then false position within the bracket (the step can jump where
// the kinds change, and over-relaxed steps then cycle around the jump).
type kapSearch struct {
	lo, hi         [2]float64 // (log κ, g) where g > 0 and g < 0
	haveLo, haveHi bool
}

// next returns the log κ of the next round from the current one, x, whose
// step is g in round round, and whether it moves: false once g or the
// bracket is within sampledSettle.
func (s *kapSearch) next(x, g float64, round int) (float64, bool) {
	if g > 0 {
		s.lo, s.haveLo = [2]float64{x, g}, true
	} else {
		s.hi, s.haveHi = [2]float64{x, g}, true
	}
	bracketed := s.haveLo && s.haveHi
	if math.Abs(g) <= sampledSettle || (bracketed && s.hi[0]-s.lo[0] <= sampledSettle) {
		return x, false
	}
	switch {
	case bracketed:
		return s.lo[0] - s.lo[1]*(s.hi[0]-s.lo[0])/(s.hi[1]-s.lo[1]), true
	case round > 0:
		return x + sampledRelax*g, true
	}
	return x + g, true
}
