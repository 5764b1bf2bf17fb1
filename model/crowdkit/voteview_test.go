package crowdkit

import (
	"context"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/vote"
)

// TestVoteSkills checks the skills the skill-weighted votes report
// (Result.WorkerSkills) and their worker parameters on the hand-checked
// crowd: Wawa's and ZeroBasedSkill's agreement with the vote (3/4, 3/4,
// 2/3 for Wawa, whose vote is the majority vote), GoldMajorityVote's
// accuracy on the gold tasks (the mean accuracy for a worker without gold
// labels), MMSR's one-coin accuracy of its signed skill, which it reports as
// "signed_skill"; and that the conditional distributions are the one-coin
// model of those skills.
func TestVoteSkills(t *testing.T) {
	d := readCrowd(t, crowd)
	w, err := Wawa{}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Gold: t1 is 1 (a, b wrong; c right), t2 is 1 (a, c right; b wrong).
	g, err := GoldMajorityVote{Gold: []int{1, 1, -1, -1}}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	z, err := ZeroBasedSkill{}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	// On crowd MMSR's rank-one iteration diverges (a and b agree on half
	// their tasks, so |C_ab| = 0, which the rank-one fit can only reach by
	// sending a skill to 0 and its partners' to infinity; Crowd-Kit's
	// gives NaN there from any start): its skills are checked on
	// Crowd-Kit's toy data, two classes too.
	dm := readCrowd(t, crowdKitToy)
	m, err := MMSR{}.Fit(context.Background(), dm, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		r    *model.Result
		want []float64
		cols int
	}{
		{w, []float64{3.0 / 4, 3.0 / 4, 2.0 / 3}, 0},
		{g, []float64{1.0 / 2, 0, 1}, 0},
		{z, agreement(d, z), 0},
		{m, nil, 1},
	} {
		got := c.r.WorkerSkills()
		if c.want != nil {
			for i := range got {
				if math.Abs(got[i]-c.want[i]) > 1e-12 {
					t.Errorf("%s: skills %v, want %v", c.r.Model, got, c.want)
					break
				}
			}
		}
		if n := len(c.r.WorkerColumns()); n != c.cols {
			t.Errorf("%s: %d worker columns, want %d", c.r.Model, n, c.cols)
		}
		p := make([]float64, d.NumClasses())
		for wk := range got {
			c.r.Conditional(int32(wk), 0, 1, p)
			if math.Abs(p[1]-got[wk]) > 1e-15 || math.Abs(p[0]+p[1]-1) > 1e-15 {
				t.Errorf("%s worker %d: conditional %v for skill %g", c.r.Model, wk, p, got[wk])
			}
		}
	}
	// MMSR: the skill is the one-coin accuracy of the signed skill, clipped.
	s := m.WorkerValues(0, nil)[0]
	sqJ := math.Sqrt(float64(dm.NumTasks()))
	clipped := max(min(s, 1-1/sqJ), -1+1/sqJ)
	if want := clipped/2 + 0.5; math.Abs(m.WorkerSkills()[0]-want) > 1e-15 {
		t.Errorf("mmsr: skill %g for signed skill %g, want %g", m.WorkerSkills()[0], s, want)
	}
}

// crowdKitToy is the toy data of Crowd-Kit's tests: five workers, five
// tasks, yes/no.
const crowdKitToy = `task,worker,label
t1,w1,no
t2,w1,yes
t3,w1,yes
t4,w1,yes
t5,w1,yes
t1,w2,yes
t2,w2,yes
t3,w2,no
t4,w2,yes
t5,w2,no
t2,w3,yes
t3,w3,no
t4,w3,yes
t5,w3,no
t1,w4,yes
t2,w4,no
t3,w4,yes
t4,w4,yes
t5,w4,no
t1,w5,no
t2,w5,no
t3,w5,no
t4,w5,yes
t5,w5,no
`

// agreement returns every worker's fraction of labels equal to r's
// consensus label (the first class of a tie).
func agreement(d *data.Dataset, r *model.Result) []float64 {
	right := make([]float64, d.NumWorkers())
	n := make([]float64, d.NumWorkers())
	votes := vote.FirstArgmax(r.Probs, r.K())
	for j, v := range votes {
		ws, ys := d.TaskLabels(j)
		for i, w := range ws {
			n[w]++
			if int(ys[i]) == v {
				right[w]++
			}
		}
	}
	for w := range right {
		right[w] /= n[w]
	}
	return right
}
