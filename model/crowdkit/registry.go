package crowdkit

import "github.com/consensuslab/consensus/model"

func init() {
	model.Register(model.Family{Name: "crowdkit", Section: model.SectionHeuristic, Entries: crowdKit})
}

// crowdKit lists the estimators that complete Crowd-Kit's categorical
// aggregators (Ustalov et al., "Learning from Crowds with Crowd-Kit",
// 2021): Wawa, ZeroBasedSkill, GoldMajorityVote, KOS and MMSR. Crowd-Kit's
// MajorityVote, DawidSkene, OneCoinDawidSkene, GLAD and MACE are mv,
// la-ds, la-onecoin, la-glad and la-mace; docs/crowdkit.md has the table.
func crowdKit() []model.Entry {
	return []model.Entry{
		{Name: "wawa", Summary: "worker agreement with aggregate: majority vote weighted by each worker's agreement with the majority vote (Crowd-Kit's Wawa)", New: func() model.Estimator { return Wawa{} }},
		{Name: "zbs", Summary: "zero-based skill: weighted majority vote with skills moved towards agreement with it, decaying step (Crowd-Kit's ZeroBasedSkill)", New: func() model.Estimator { return ZeroBasedSkill{} }},
		{Name: "gmv", Summary: "gold majority vote: majority vote weighted by each worker's accuracy on training gold, tasks whose class is known (Crowd-Kit's GoldMajorityVote)", New: func() model.Estimator { return GoldMajorityVote{} }},
		{Name: "kos", Summary: "Karger-Oh-Shah message passing, two classes only; the sign under which workers beat random (Crowd-Kit's KOS)", New: func() model.Estimator { return KOS{} }},
		{Name: "mmsr", Summary: "matrix mean-subsequence-reduced: worker skills by robust rank-one completion of their agreement matrix, then a log-odds weighted vote (Crowd-Kit's MMSR)", New: func() model.Estimator { return MMSR{} }},
	}
}
