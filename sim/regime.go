package sim

import (
	"fmt"
	"strings"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// regime is the named settings of a simulation regime.
type regime struct {
	name, summary string
	config        func() Settings
}

// regimes lists the regimes in the order Regimes returns them.
var regimes = []regime{
	{"sparse", "LA Dawid-Skene, 8,000 objects with 3 distinct workers each among 176 whose activity falls off as 1/rank^0.9, class prior (0.88, 0.12); 10% of the workers near-random (every P(z|z) ~ U[0.4, 0.6]), the rest P(0|0) ~ U[0.75, 0.98] and P(1|1) ~ U[0.55, 0.95]",
		func() Settings {
			return Settings{
				Tasks: 8000, Workers: 176, Classes: 2, LabelsPerTask: 3, Activity: 0.9,
				ClassPrior: []float64{0.88, 0.12},
				Noise:      noise.DS{}, Latent: latent.LA{},
				Params: DSParams{Diag: []Range{{0.75, 0.98}, {0.55, 0.95}}, NearRandom: 0.1},
			}
		}},
	{"light", "LA one-coin, 2,000 objects with 5 labels each among 700 workers whose activity falls off as 1/rank, so that most give fewer than 10 labels; accuracies ~ U[0.55, 0.95]",
		func() Settings {
			return Settings{
				Tasks: 2000, Workers: 700, Classes: 2, LabelsPerTask: 5, Activity: 1,
				Noise: noise.OneCoin{}, Latent: latent.LA{},
				Params: OneCoinParams{Accuracy: Range{0.55, 0.95}},
			}
		}},
	{"many-classes", "LA Dawid-Skene with 10 classes, 5,000 objects with 4 labels each among 100 workers (activity 1/rank^0.5); P(z|z) ~ U[0.55, 0.95], errors concentrated on neighbouring classes (error decay 1)",
		func() Settings {
			return Settings{
				Tasks: 5000, Workers: 100, Classes: 10, LabelsPerTask: 4, Activity: 0.5,
				Noise: noise.DS{}, Latent: latent.LA{},
				Params: DSParams{ErrorDecay: 1},
			}
		}},
	{"spammers", "LA Dawid-Skene, 4,000 objects with 5 labels each among 100 workers chosen uniformly; 10% uniform spammers and 5% adversaries (labels shifted by one class), the rest P(z|z) ~ U[0.55, 0.95]",
		func() Settings {
			return Settings{
				Tasks: 4000, Workers: 100, Classes: 2, LabelsPerTask: 5,
				Noise: noise.DS{}, Latent: latent.LA{},
				Spammers: 0.1, Adversaries: 0.05,
			}
		}},
	{"adversarial", "LA Dawid-Skene with 5 classes, 4,000 objects with 3 labels each among 50 workers chosen uniformly; 20% uniform spammers and 20% adversaries (labels shifted by one class), the rest P(z|z) ~ U[0.55, 0.95] with errors of their own",
		func() Settings {
			return Settings{
				Tasks: 4000, Workers: 50, Classes: 5, LabelsPerTask: 3,
				Noise: noise.DS{}, Latent: latent.LA{},
				Spammers: 0.2, Adversaries: 0.2,
			}
		}},
	{"sparse-many", "LA Dawid-Skene with 10 classes, 5,000 objects with 2 labels each among 300 workers whose activity falls off as 1/rank; P(z|z) ~ U[0.55, 0.95] with errors of their own",
		func() Settings {
			return Settings{
				Tasks: 5000, Workers: 300, Classes: 10, LabelsPerTask: 2, Activity: 1,
				Noise: noise.DS{}, Latent: latent.LA{},
			}
		}},
	{"correlated", "LA Dawid-Skene, 4,000 objects with 5 labels each; two prolific workers label 5/6 of the objects (a third of all labels) and both call class 1 a subtype of 30% of class 0's objects; 98 other workers (activity 1/rank^0.5); P(z|z) ~ U[0.7, 0.95]",
		func() Settings {
			return Settings{
				Tasks: 4000, Workers: 100, Classes: 2, LabelsPerTask: 5, Activity: 0.5,
				Noise: noise.DS{}, Latent: latent.LA{},
				Params:     DSParams{Diag: []Range{{0.7, 0.95}}},
				Correlated: Correlated{Workers: 2, Coverage: 5.0 / 6, Subtype: 0.3, From: 0, To: 1},
			}
		}},
	{"shared-mistake", "LA Dawid-Skene, 4,000 objects with 5 labels each; two workers label every object and both call class 1 a subtype of 30% of class 0's objects; 148 other workers (activity 1/rank^0.8); class prior (0.6, 0.4), P(0|0) ~ U[0.75, 0.9], P(1|1) ~ U[0.6, 0.8], so that a model of independent workers takes the pair's mistake for the truth",
		func() Settings {
			return Settings{
				Tasks: 4000, Workers: 150, Classes: 2, LabelsPerTask: 5, Activity: 0.8,
				ClassPrior: []float64{0.6, 0.4},
				Noise:      noise.DS{}, Latent: latent.LA{},
				Params:     DSParams{Diag: []Range{{0.75, 0.9}, {0.6, 0.8}}},
				Correlated: Correlated{Workers: 2, Coverage: 1, Subtype: 0.3, From: 0, To: 1},
			}
		}},
	{"ambiguous", "LA Dawid-Skene with 3 classes, 5,000 objects with 5 labels each among 100 workers (activity 1/rank^0.5); every object's label distribution q_j ~ Dirichlet(3·e_z + 0.5·1) around its true class z, from clear to split (the true class's share of q_j is above 0.9 on 31% of the objects and below 0.5 on 9%), every label's subjective class drawn from q_j; P(z|z) ~ U[0.7, 0.95]",
		func() Settings {
			return Settings{
				Tasks: 5000, Workers: 100, Classes: 3, LabelsPerTask: 5, Activity: 0.5,
				Noise: noise.DS{}, Latent: latent.LA{},
				Params:    DSParams{Diag: []Range{{0.7, 0.95}}},
				Ambiguity: Ambiguity{Vertex: 3, Base: 0.5},
			}
		}},
	{"da-paper", "the paper's synthetic experiment (the zero Settings): DA-GLAD, 2,000 objects labelled by all 20 workers, q_j ~ U[0, 1], e_w ~ U[0, 4], log d_j ~ U[0, 3]",
		func() Settings { return Settings{} }},
}

// Regimes returns the names of the regimes Regime knows, in a fixed order:
// sparse, light, many-classes, spammers, adversarial, sparse-many,
// correlated, shared-mistake, ambiguous and da-paper.
func Regimes() []string {
	s := make([]string, len(regimes))
	for i, r := range regimes {
		s[i] = r.name
	}
	return s
}

// RegimeSummary returns a one-line description of the regime name, or ""
// if there is no such regime.
func RegimeSummary(name string) string {
	for _, r := range regimes {
		if r.name == name {
			return r.summary
		}
	}
	return ""
}

// Regime returns the settings of the named regime (see Regimes) with
// the given seed. The regimes are the hard cases of crowdsourced data a
// consensus model is benchmarked on:
//
//   - "sparse": few labels an object, skewed activity, imbalanced classes
//     and a share of near-random workers;
//   - "light": many workers of whom most give few labels;
//   - "many-classes": ten classes, confusions between neighbouring ones;
//   - "spammers": uniform spammers and adversaries;
//   - "adversarial": many spammers and adversaries, few labels an object,
//     five classes;
//   - "sparse-many": ten classes, two labels an object, most workers
//     giving few labels;
//   - "correlated": two prolific workers who share a systematic confusion;
//   - "shared-mistake": two workers on every object who share one, where
//     the rest of the crowd is weaker on the class they call it;
//   - "ambiguous": objects whose label distributions spread around their
//     true class, from clear to split;
//   - "da-paper": the paper's synthetic DA experiment.
//
// RegimeSummary gives every number. The returned Settings may be changed
// before it is passed to Simulate.
func Regime(name string, seed uint64) (Settings, error) {
	for _, r := range regimes {
		if r.name == name {
			c := r.config()
			c.Seed = seed
			return c, nil
		}
	}
	return Settings{}, fmt.Errorf("sim: no regime %q; the regimes are %s", name, strings.Join(Regimes(), ", "))
}
