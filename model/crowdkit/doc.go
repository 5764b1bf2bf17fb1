// Package crowdkit holds the ports of Crowd-Kit's categorical aggregators
// that are not a noise model under a latent assumption (Ustalov et al.,
// "Learning from Crowds with Crowd-Kit", 2021): Wawa, ZeroBasedSkill,
// GoldMajorityVote, KOS and MMSR, and WeightedVote, the majority vote
// weighted by given skills (Crowd-Kit's MajorityVote with skills).
// Crowd-Kit's MajorityVote, DawidSkene, OneCoinDawidSkene, GLAD and MACE
// are model.RFE and the forms of package model; docs/crowdkit.md has the
// table.
//
// The package registers wawa, zbs, gmv, kos and mmsr with model.Register
// when imported; package all imports it with every other family. The
// skill-weighted votes give their results a noise view of their own
// (model.Result.SetNoise): the one-coin model at each worker's skill,
// whose skills model.Result.WorkerSkills reports as Crowd-Kit's skills_.
package crowdkit
