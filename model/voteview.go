package model

import (
	"slices"

	"github.com/consensuslab/consensus/data"
)

// voteView is the worker side of a skill-weighted vote (Wawa,
// ZeroBasedSkill, GoldMajorityVote, MMSR): every worker's skill, the
// probability acc_w that the worker reports the class the vote takes as
// true, and optionally one more number per worker that the vote estimated
// (MMSR's signed skill). Result.WorkerSkills returns acc (as Crowd-Kit's
// skills_ for Wawa, ZeroBasedSkill and GoldMajorityVote), and the
// conditional distributions are those of the one-coin model with these
// accuracies, P(y = z | z) = acc_w and (1 − acc_w)/(K − 1) for each other
// class, which the votes' weights assume.
type voteView struct {
	k   int
	acc []float64
	col string    // the name of own, or ""
	own []float64 // the vote's own worker numbers, if col is set
}

var _ SkillReporter = (*voteView)(nil)

// Skills returns a copy of the vote's skills.
func (v *voteView) Skills() []float64 { return slices.Clone(v.acc) }

// Conditional writes the one-coin distribution of worker w.
func (v *voteView) Conditional(w int32, _ int, z int, p []float64) {
	a := v.acc[w]
	for y := range p[:v.k] {
		p[y] = (1 - a) / float64(v.k-1)
	}
	p[z] = a
}

// WorkerColumns names the vote's own worker numbers, if any.
func (v *voteView) WorkerColumns() []string {
	if v.col == "" {
		return nil
	}
	return []string{v.col}
}

// WorkerValues appends worker w's own number, if any.
func (v *voteView) WorkerValues(w int, dst []float64) []float64 {
	if v.col == "" {
		return dst
	}
	return append(dst, v.own[w])
}

// withSkills sets r's workers to the skills acc of a skill-weighted vote
// (see voteView) and returns r.
func withSkills(r *Result, acc []float64) *Result {
	r.view = &voteView{k: r.Data.NumClasses(), acc: acc}
	return r
}

// voteParams is the number of parameters of a skill-weighted vote on d,
// one skill per worker (Parametric).
func voteParams(d *data.Dataset) int { return d.NumWorkers() }

// skillsOf returns a copy of the skills of a skill-weighted vote's
// result, or nil for other results.
func skillsOf(r *Result) []float64 {
	if v, ok := r.view.(SkillReporter); ok {
		return v.Skills()
	}
	return nil
}
