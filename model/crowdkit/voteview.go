package crowdkit

import (
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/vote"
)

// withSkills sets r's workers to the skills acc of a skill-weighted vote
// (see vote.View) and returns r.
func withSkills(r *model.Result, acc []float64) *model.Result {
	return r.SetNoise(&vote.View{K: r.Data.NumClasses(), Acc: acc})
}

// voteParams is the number of parameters of a skill-weighted vote on d,
// one skill per worker (Parametric).
func voteParams(d *data.Dataset) int { return d.NumWorkers() }
