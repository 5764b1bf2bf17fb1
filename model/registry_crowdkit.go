package model

func init() {
	Register(Family{Name: "crowdkit", Section: SectionHeuristic, Entries: crowdKit})
}

// crowdKit lists the estimators that complete Crowd-Kit's categorical
// aggregators (Ustalov et al., "Learning from Crowds with Crowd-Kit",
// 2021): Wawa, ZeroBasedSkill, GoldMajorityVote, KOS and MMSR. Crowd-Kit's
// MajorityVote, DawidSkene, OneCoinDawidSkene, GLAD and MACE are mv,
// la-ds, la-onecoin, la-glad and la-mace; docs/crowdkit.md has the table.
func crowdKit() []Entry {
	return []Entry{
		{"wawa", "worker agreement with aggregate: majority vote weighted by each worker's agreement with the majority vote (Crowd-Kit's Wawa)", "", func() Estimator { return Wawa{} }},
		{"zbs", "zero-based skill: weighted majority vote with skills moved towards agreement with it, decaying step (Crowd-Kit's ZeroBasedSkill)", "", func() Estimator { return ZeroBasedSkill{} }},
		{"gmv", "gold majority vote: majority vote weighted by each worker's accuracy on training gold, tasks whose class is known (Crowd-Kit's GoldMajorityVote)", "", func() Estimator { return GoldMajorityVote{} }},
		{"kos", "Karger-Oh-Shah message passing, two classes only; the sign under which workers beat random (Crowd-Kit's KOS)", "", func() Estimator { return KOS{} }},
		{"mmsr", "matrix mean-subsequence-reduced: worker skills by robust rank-one completion of their agreement matrix, then a log-odds weighted vote (Crowd-Kit's MMSR)", "", func() Estimator { return MMSR{} }},
	}
}
