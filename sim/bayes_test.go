package sim

import (
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/noise"
)

// TestBayesPosteriorBruteForce checks BayesPosterior on a small data set
// with every kind of worker against the posterior by enumeration of the
// true class and the subtype, from confusion matrices computed here from
// the true logits.
func TestBayesPosteriorBruteForce(t *testing.T) {
	const k = 3
	c := Settings{
		Tasks: 300, Workers: 6, Classes: k, LabelsPerTask: 4,
		Noise: noise.DS{}, Latent: latent.LA{},
		ClassPrior:  []float64{0.5, 0.3, 0.2},
		Spammers:    0.2,
		Adversaries: 0.2,
		Correlated:  Correlated{Workers: 2, Coverage: 0.7, Subtype: 0.4, From: 0, To: 2},
		Seed:        3,
	}
	d, tr := mustSimulate(t, c)
	post, err := tr.BayesPosterior(d)
	if err != nil {
		t.Fatal(err)
	}
	conf := dsConf(tr, k)
	var subtypes int
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		var joint [k]float64
		for z := range k {
			for s, ps := range []float64{1 - c.Correlated.Subtype, c.Correlated.Subtype} {
				p := c.ClassPrior[z] * ps
				for i, w := range workers {
					y := int(labels[i])
					switch tr.Kind[w] {
					case Spammer:
						p *= 1.0 / k
					case Adversary:
						p *= conf(int(w), z, (y+k-1)%k)
					case CorrelatedWorker:
						if s == 1 && z == 0 {
							if y != 2 {
								p = 0
							}
						} else {
							p *= conf(int(w), z, y)
						}
					default:
						p *= conf(int(w), z, y)
					}
				}
				joint[z] += p
			}
		}
		sum := joint[0] + joint[1] + joint[2]
		for z := range k {
			if got, want := post[j*k+z], joint[z]/sum; math.Abs(got-want) > 1e-12 {
				t.Fatalf("object %d, class %d: posterior %v, want %v", j, z, got, want)
			}
		}
		if tr.Subtype[j] {
			subtypes++
		}
	}
	if subtypes == 0 {
		t.Error("no object in the subtype: the test does not exercise it")
	}

	other, trDA := mustSimulate(t, Settings{Tasks: 10})
	if _, err := tr.BayesPosterior(other); err == nil {
		t.Error("BayesPosterior of another data set did not fail")
	}
	if _, err := trDA.BayesPosterior(other); err == nil {
		t.Error("BayesPosterior under DA did not fail")
	}
}

// TestBayesPosteriorAmbiguous checks BayesPosterior under ambiguous
// objects, with spammers and adversaries, against the posterior by
// enumeration of every sequence of the labels' subjective classes, each
// weighted by the Dirichlet moment E[Π_x q(x)^{m_x}] = Γ(A)/Γ(A+n) ·
// Π_x Γ(α_x+m_x)/Γ(α_x) of its counts m, from confusion matrices computed
// here from the true logits.
func TestBayesPosteriorAmbiguous(t *testing.T) {
	const k = 3
	c := Settings{
		Tasks: 200, Workers: 6, Classes: k, LabelsPerTask: 4,
		Noise: noise.DS{}, Latent: latent.LA{},
		ClassPrior:  []float64{0.5, 0.3, 0.2},
		Spammers:    0.2,
		Adversaries: 0.2,
		Ambiguity:   Ambiguity{Vertex: 2, Base: 0.7},
		Seed:        4,
	}
	d, tr := mustSimulate(t, c)
	post, err := tr.BayesPosterior(d)
	if err != nil {
		t.Fatal(err)
	}
	conf := dsConf(tr, k)
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		n := len(workers)
		var joint [k]float64
		for z := range k {
			var alpha [k]float64
			for x := range k {
				alpha[x] = c.Ambiguity.Base
			}
			alpha[z] += c.Ambiguity.Vertex
			// Every sequence x_1 … x_n of subjective classes, as a
			// number in base K.
			seqs := 1
			for range n {
				seqs *= k
			}
			var ml float64
			for s := range seqs {
				var m [k]int
				p := 1.0
				for i, w := range workers {
					x := s
					for range i {
						x /= k
					}
					x %= k
					m[x]++
					y := int(labels[i])
					switch tr.Kind[w] {
					case Spammer:
						p *= 1.0 / k
					case Adversary:
						p *= conf(int(w), x, (y+k-1)%k)
					default:
						p *= conf(int(w), x, y)
					}
				}
				lg := func(v float64) float64 { l, _ := math.Lgamma(v); return l }
				moment := lg(alpha[0]+alpha[1]+alpha[2]) - lg(alpha[0]+alpha[1]+alpha[2]+float64(n))
				for x := range k {
					moment += lg(alpha[x]+float64(m[x])) - lg(alpha[x])
				}
				ml += p * math.Exp(moment)
			}
			joint[z] = c.ClassPrior[z] * ml
		}
		sum := joint[0] + joint[1] + joint[2]
		for z := range k {
			if got, want := post[j*k+z], joint[z]/sum; math.Abs(got-want) > 1e-12 {
				t.Fatalf("object %d, class %d: posterior %v, want %v", j, z, got, want)
			}
		}
	}
}

// TestBayesPosteriorCalibrated checks that the Bayes posterior is
// calibrated (expected calibration error below 0.03 in 10 bins) and at
// least as accurate as majority vote, on the LA regimes and on LA data of
// the noise models whose conditionals depend on the object (GLAD) or have
// a spamming component (MACE).
func TestBayesPosteriorCalibrated(t *testing.T) {
	cases := map[string]Settings{
		"glad": {Tasks: 10000, Workers: 100, Classes: 5, LabelsPerTask: 3, Activity: 0.9, Noise: noise.GLAD{}, Latent: latent.LA{}, Seed: 2},
		"mace": {Tasks: 10000, Workers: 100, Classes: 3, LabelsPerTask: 5, Activity: 0.5, Noise: noise.MACE{}, Latent: latent.LA{}, Seed: 2},
	}
	names := []string{"sparse", "light", "many-classes", "spammers", "adversarial", "sparse-many", "correlated", "ambiguous", "glad", "mace"}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			c, ok := cases[name]
			if !ok {
				var err error
				if c, err = Regime(name, 2); err != nil {
					t.Fatal(err)
				}
			}
			d, tr := mustSimulate(t, c)
			post, err := tr.BayesPosterior(d)
			if err != nil {
				t.Fatal(err)
			}
			k, gold := d.NumClasses(), tr.Gold()
			acc := must(metrics.Accuracy(post, k, gold, 1))
			mv := must(metrics.Accuracy(d.Frequencies(), k, gold, 1))
			ece := must(metrics.ECE(post, k, gold, 10))
			t.Logf("%s: Bayes accuracy %.4f, majority vote %.4f, ECE %.4f", name, acc, mv, ece)
			if acc < mv {
				t.Errorf("Bayes accuracy %.4f below majority vote's %.4f", acc, mv)
			}
			if ece > 0.03 {
				t.Errorf("ECE %.4f, want at most 0.03", ece)
			}
		})
	}
}

// TestBayesPosteriorErrors checks that BayesPosterior returns an error,
// instead of panicking, without a truth or a data set, under DA and for
// another simulation's data set.
func TestBayesPosteriorErrors(t *testing.T) {
	d, tr := mustSimulate(t, Settings{Tasks: 20, Workers: 4, Latent: latent.LA{}, Seed: 1})
	other, _ := mustSimulate(t, Settings{Tasks: 30, Workers: 4, Latent: latent.LA{}, Seed: 1})
	dd, da := mustSimulate(t, Settings{Tasks: 20, Workers: 4, Seed: 1})
	var none *Truth
	for _, c := range []struct {
		name string
		t    *Truth
		d    *data.Dataset
		want string
	}{
		{"nil truth", none, d, "needs a simulation's truth"},
		{"nil data", tr, nil, "needs a simulation's truth"},
		{"da", da, dd, "one class per object"},
		{"other data", tr, other, "a data set of 30 objects"},
	} {
		if _, err := c.t.BayesPosterior(c.d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// must returns v; it panics, failing the test, if err is not nil.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// dsConf returns P(y | z) of worker w, computed from the Dawid-Skene
// logits of the simulation tr with k classes.
func dsConf(tr *Truth, k int) func(w, z, y int) float64 {
	return func(w, z, y int) float64 {
		row := tr.Worker[w*k*k+z*k : w*k*k+(z+1)*k]
		var sum float64
		for _, v := range row {
			sum += math.Exp(v)
		}
		return math.Exp(row[y]) / sum
	}
}
