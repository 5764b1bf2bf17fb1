package sim

import (
	"slices"
	"testing"

	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// crowdPrior is what the oracle of kindOraclePosterior knows about a
// crowd drawn by Simulate with DS noise under LA: the class prior, how the
// confusion matrices are drawn (DSParams: the diagonal of row z uniform in
// Diag[z], the rest spread over the wrong classes y with weights
// e_y·exp(−Decay·(|y − z| − 1)), e_y ~ Exp(1)), and how many workers are
// spammers and adversaries (Settings.kinds: exactly round(share·W) of each,
// assigned by a uniformly random permutation independent of every other
// draw). It does not know which worker is of which kind nor any worker's
// matrix.
type crowdPrior struct {
	Prior                 []float64
	Diag                  []Range // one a class
	Decay                 float64
	Spammers, Adversaries int
}

// crowdPriorOf returns the crowdPrior of a simulation's truth, or an error
// for a crowd it does not cover: not DS under LA, near-random workers, a
// correlated group or ambiguity, or an error decay with more than three
// classes (whose wrong classes' shares have no closed-form marginal here).
func crowdPriorOf(tr *Truth) (crowdPrior, error) {
	c := tr.cfg
	k := c.Classes
	if c.Noise.Name() != "ds" || tr.Class == nil {
		return crowdPrior{}, fmt.Errorf("the oracle needs DS workers under LA, not %s", c.Noise.Name())
	}
	if c.Correlated != (Correlated{}) || c.Ambiguity != (Ambiguity{}) {
		return crowdPrior{}, fmt.Errorf("the oracle knows no correlated group nor ambiguity")
	}
	var p DSParams
	switch q := c.Params.(type) {
	case nil:
	case DSParams:
		p = q
	default:
		return crowdPrior{}, fmt.Errorf("the oracle needs DSParams, not %T", c.Params)
	}
	if p.NearRandom > 0 {
		return crowdPrior{}, fmt.Errorf("the oracle knows no near-random workers")
	}
	if p.ErrorDecay > 0 && k > 3 {
		return crowdPrior{}, fmt.Errorf("the oracle has an error decay for at most 3 classes, not %d", k)
	}
	cp := crowdPrior{Prior: tr.prior, Decay: p.ErrorDecay, Spammers: c.kindCount(c.Spammers), Adversaries: c.kindCount(c.Adversaries)}
	for z := range k {
		r := defaultAccuracy
		switch len(p.Diag) {
		case 1:
			r = p.Diag[0]
		case k:
			r = p.Diag[z]
		}
		cp.Diag = append(cp.Diag, r)
	}
	return cp, nil
}

// errWeight returns the weight exp(−Decay·(|y − z| − 1)) of the wrong
// class y in row z.
func (cp crowdPrior) errWeight(z, y int) float64 {
	return math.Exp(-cp.Decay * (math.Abs(float64(y-z)) - 1))
}

// unevenErrors returns, for row z with two wrong classes of unequal
// weights (three classes and a decay), the heavier and the lighter class
// and the ratio r < 1 of their weights; ok is false otherwise, when the
// wrong classes' shares are Dirichlet(1).
func (cp crowdPrior) unevenErrors(z int) (h, l int, r float64, ok bool) {
	if cp.Decay == 0 || len(cp.Prior) != 3 {
		return 0, 0, 0, false
	}
	h, l = (z+1)%3, (z+2)%3
	wh, wl := cp.errWeight(z, h), cp.errWeight(z, l)
	if wh == wl {
		return 0, 0, 0, false
	}
	if wh < wl {
		h, l, wh, wl = l, h, wl, wh
	}
	return h, l, wl / wh, true
}

// rowLogMarginal returns log E[Π_y π_z(y)^{n_y}] under the prior of row z
// of a normal worker's confusion matrix. The diagonal gives
// ∫ a^{n_z} (1 − a)^m da/(hi − lo) over Diag[z] (m the wrong labels);
// Dirichlet(1) shares of the wrong classes give Γ(K − 1)/Γ(K − 1 + m)
// Π_{y≠z} Γ(1 + n_y). With three classes and unequal weights w_h > w_l the
// share s of the heavier class has density r/(1 − (1 − r)s)² (r = w_l/w_h:
// normalised scaled Exp(1) draws), so E[s^{n_h} (1 − s)^{n_l}] =
// r·B(n_h + 1, n_l + 1)·₂F₁(2, n_h + 1; m + 2; 1 − r).
func (cp crowdPrior) rowLogMarginal(z int, n []float64) float64 {
	k := len(n)
	var m float64
	for y := range k {
		if y != z {
			m += n[y]
		}
	}
	rg := cp.Diag[z]
	l := logBetaFn(n[z]+1, m+1) + logTruncBetaMass(n[z]+1, m+1, rg) - math.Log(rg.Hi-rg.Lo)
	if h, lt, r, ok := cp.unevenErrors(z); ok {
		return l + math.Log(r) + logBetaFn(n[h]+1, n[lt]+1) + math.Log(hyp2F1Two(n[h]+1, m+2, 1-r))
	}
	g1, _ := math.Lgamma(float64(k - 1))
	g2, _ := math.Lgamma(float64(k-1) + m)
	l += g1 - g2
	for y := range k {
		if y != z {
			g, _ := math.Lgamma(1 + n[y])
			l += g
		}
	}
	return l
}

// sampleRow draws row z of a normal worker's confusion matrix given the
// counts n of its labels on objects of class z, into row (probabilities):
// the diagonal from Beta(n_z + 1, m + 1) truncated to Diag[z], the wrong
// classes' shares from Dirichlet(1 + n_y), or with unequal weights the
// heavier class's share s from Beta(n_h + 1, n_l + 1) accepted with
// probability (r/(1 − (1 − r)s))², the prior's density over its maximum.
func (cp crowdPrior) sampleRow(z int, n, row []float64, rng *rand.Rand) {
	k := len(n)
	var m float64
	for y := range k {
		if y != z {
			m += n[y]
		}
	}
	a := truncBeta(n[z]+1, m+1, cp.Diag[z], rng)
	row[z] = a
	if h, l, r, ok := cp.unevenErrors(z); ok {
		b := distuv.Beta{Alpha: n[h] + 1, Beta: n[l] + 1, Src: rng}
		for {
			s := b.Rand()
			f := r / (1 - (1-r)*s)
			if rng.Float64() < f*f {
				row[h], row[l] = (1-a)*s, (1-a)*(1-s)
				return
			}
		}
	}
	var g float64
	for y := range k {
		if y != z {
			row[y] = distuv.Gamma{Alpha: 1 + n[y], Beta: 1, Src: rng}.Rand()
			g += row[y]
		}
	}
	for y := range k {
		if y != z {
			row[y] *= (1 - a) / g
		}
	}
}

// hyp2F1Two returns ₂F₁(2, b; c; x) for 0 < b < c and 0 ≤ x < 1 by its
// series Σ_i (i + 1) (b)_i/(c)_i x^i, whose terms fall at least as fast as
// (i + 1) x^i.
func hyp2F1Two(b, c, x float64) float64 {
	sum, term := 1.0, 1.0
	for i := 0; i < 100000; i++ {
		term *= float64(i+2) / float64(i+1) * (b + float64(i)) / (c + float64(i)) * x
		sum += term
		if term < 1e-17*sum {
			break
		}
	}
	return sum
}

// logTruncBetaMass returns the log of the mass of Beta(a, b) in r, from
// the tail that keeps the regularised incomplete beta away from 1, and
// deep in a tail (where the mass underflows) by the tail's leading term
// pdf(x)/|d log pdf/dx| at r's end nearer the mode.
func logTruncBetaMass(a, b float64, r Range) float64 {
	lo, hi := mathext.RegIncBeta(a, b, r.Lo), mathext.RegIncBeta(a, b, r.Hi)
	if lo > 0.5 {
		lo, hi = mathext.RegIncBeta(b, a, 1-r.Hi), mathext.RegIncBeta(b, a, 1-r.Lo)
	}
	if mass := hi - lo; mass > 1e-250 {
		return math.Log(mass)
	}
	x := r.Lo
	if (a-1)/(a+b-2) > r.Hi {
		x = r.Hi
	}
	logPDF := (a-1)*math.Log(x) + (b-1)*math.Log1p(-x) - logBetaFn(a, b)
	return logPDF - math.Log(math.Abs((a-1)/x-(b-1)/(1-x)))
}

// kindLogMarginals writes into l (three, by Kind: Normal, Spammer,
// Adversary) the log probability of a worker's labels given the classes of
// its objects, n its counts K×K (class, label), under each kind with the
// kind's parameters integrated out: a spammer's labels are uniform; an
// adversary reports the class after its matrix's draw, so its label y
// counts as the draw y − 1 of a normal worker. shifted is scratch of K.
func (cp crowdPrior) kindLogMarginals(n, shifted, l []float64) {
	k := len(cp.Prior)
	var total float64
	l[Normal], l[Adversary] = 0, 0
	for z := range k {
		row := n[z*k : (z+1)*k]
		l[Normal] += cp.rowLogMarginal(z, row)
		for y := range k {
			shifted[y] = row[(y+1)%k]
			total += row[y]
		}
		l[Adversary] += cp.rowLogMarginal(z, shifted)
	}
	l[Spammer] = -total * math.Log(float64(k))
}

// kindOraclePosterior returns the posterior of every object's true class,
// J×K, for someone who knows the crowdPrior but not which worker is of
// which kind nor any worker's matrix: the Bayes-optimal consensus without
// gold on a crowd with spammers and adversaries. It also returns the
// posterior of every worker's kind, W×3 (by Kind), and every chain's class
// posterior.
//
// Each sweep of a chain draws, given the classes, the kinds with the
// workers' matrices integrated out (kindLogMarginals), by Gibbs moves on
// random pairs of workers of different kinds (swap their kinds or not, in
// proportion to the two assignments' probabilities), which keep the
// prior's exact counts of each kind; then every normal worker's and
// adversary's matrix given its kind and the classes (sampleRow); then the
// classes given the kinds and matrices. The class estimate is
// Rao-Blackwellised as in unknownWorkerPosterior.
func kindOraclePosterior(d *data.Dataset, cp crowdPrior, r oracleRun) (post, kinds []float64, chains [][]float64) {
	k := len(cp.Prior)
	chains = make([][]float64, r.Chains)
	chainKinds := make([][]float64, r.Chains)
	runChains(r.Chains, func(c int) {
		chains[c], chainKinds[c] = kindChain(d, cp, r.Burn, r.Sweeps, rand.New(rand.NewPCG(r.Seed, uint64(c))))
	})
	post = make([]float64, d.NumTasks()*k)
	kinds = make([]float64, d.NumWorkers()*3)
	for c := range chains {
		floats.Add(post, chains[c])
		floats.Add(kinds, chainKinds[c])
	}
	floats.Scale(1/float64(r.Chains), post)
	floats.Scale(1/float64(r.Chains), kinds)
	return post, kinds, chains
}

// kindChain runs one chain of kindOraclePosterior and returns its class
// posterior and the share of kept sweeps each worker spent in each kind.
func kindChain(d *data.Dataset, cp crowdPrior, burn, sweeps int, rng *rand.Rand) (post, kindShare []float64) {
	k := len(cp.Prior)
	nt, nw := d.NumTasks(), d.NumWorkers()
	logPrior := make([]float64, k)
	for z, p := range cp.Prior {
		logPrior[z] = math.Log(p)
	}
	// The kinds start at a uniform draw with the prior's counts; the
	// first classes are drawn under every worker at the prior's mean row
	// of a normal worker, as gibbsChain's.
	kind := make([]Kind, nw)
	for i, w := range rng.Perm(nw) {
		switch {
		case i < cp.Spammers:
			kind[w] = Spammer
		case i < cp.Spammers+cp.Adversaries:
			kind[w] = Adversary
		}
	}
	logPi := make([]float64, nw*k*k)
	for i := range logPi {
		z, y := (i/k)%k, i%k
		mid := (cp.Diag[z].Lo + cp.Diag[z].Hi) / 2
		if z == y {
			logPi[i] = math.Log(mid)
		} else {
			logPi[i] = math.Log((1 - mid) / float64(k-1))
		}
	}
	class := make([]int, nt)
	post = make([]float64, nt*k)
	kindShare = make([]float64, nw*3)
	counts := make([]float64, nw*k*k)
	logML := make([]float64, nw*3)
	lp := make([]float64, k)
	row := make([]float64, k)
	shifted := make([]float64, k)
	mixed := cp.Spammers+cp.Adversaries > 0 && (cp.Spammers+cp.Adversaries < nw || cp.Spammers > 0 && cp.Adversaries > 0)
	for s := -1; s < burn+sweeps; s++ {
		keep := s >= burn
		if s >= 0 {
			clear(counts)
			for j := range nt {
				for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
					counts[(int(d.Worker[i])*k+class[j])*k+int(d.Label[i])]++
				}
			}
			// The kinds given the classes.
			if mixed {
				for w := range nw {
					cp.kindLogMarginals(counts[w*k*k:(w+1)*k*k], shifted, logML[w*3:(w+1)*3])
				}
				for range 10 * nw {
					a, b := rng.IntN(nw), rng.IntN(nw)
					ka, kb := kind[a], kind[b]
					if ka == kb {
						continue
					}
					stay := logML[a*3+int(ka)] + logML[b*3+int(kb)]
					swap := logML[a*3+int(kb)] + logML[b*3+int(ka)]
					// P(swap) = 1/(1 + exp(stay − swap)); NaN (both −Inf) stays.
					if rng.Float64()*(1+math.Exp(stay-swap)) < 1 {
						kind[a], kind[b] = kb, ka
					}
				}
			}
			// The matrices given the kinds and the classes.
			for w := range nw {
				pi := logPi[w*k*k : (w+1)*k*k]
				n := counts[w*k*k : (w+1)*k*k]
				for z := range k {
					switch kind[w] {
					case Spammer:
						for y := range k {
							pi[z*k+y] = -math.Log(float64(k))
						}
					case Adversary:
						for y := range k {
							shifted[y] = n[z*k+(y+1)%k]
						}
						cp.sampleRow(z, shifted, row, rng)
						for y := range k {
							pi[z*k+y] = math.Log(row[(y+k-1)%k])
						}
					default:
						cp.sampleRow(z, n[z*k:(z+1)*k], row, rng)
						for y := range k {
							pi[z*k+y] = math.Log(row[y])
						}
					}
				}
				if keep {
					kindShare[w*3+int(kind[w])]++
				}
			}
		}
		// The classes given the kinds and the matrices.
		var acc []float64
		if keep {
			acc = post
		}
		drawClasses(d, k, logPrior, logPi, rng, class, lp, acc)
	}
	floats.Scale(1/float64(sweeps), post)
	floats.Scale(1/float64(sweeps), kindShare)
	return post, kindShare
}

// TestKindOraclePosteriorExact checks kindOraclePosterior against the
// oracle's posterior by enumeration, of the classes and of the kinds, on
// crowds of four workers (one spammer, one adversary) small enough to sum
// over every assignment of classes and of kinds. The enumeration computes
// each row's probability independently of the sampler's closed forms: the
// diagonal's part as TestUnknownWorkerPosteriorExact does, the wrong
// classes' part by quadrature over the share t = e_1/(e_1 + e_2) of two
// Exp(1) draws, which is uniform, weighted as DSParams weights them.
func TestKindOraclePosteriorExact(t *testing.T) {
	const k = 3
	for _, tc := range []struct {
		name  string
		prior []float64
		decay float64
	}{{"decay1", []float64{0.5, 0.3, 0.2}, 1}, {"flat", nil, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			c := Settings{Tasks: 6, Workers: 4, Classes: k, LabelsPerTask: 3, Noise: noise.DS{}, Latent: latent.LA{},
				ClassPrior: tc.prior, Spammers: 0.25, Adversaries: 0.25, Params: DSParams{ErrorDecay: tc.decay}, Seed: 3}
			d, tr := mustSimulate(t, c)
			cp, err := crowdPriorOf(tr)
			if err != nil {
				t.Fatal(err)
			}
			r := defaultAccuracy
			// rowLog returns log E[Π_y π_z(y)^{n_y}] for row z.
			cache := map[[4]float64]float64{}
			rowLog := func(z int, n []float64) float64 {
				key := [4]float64{float64(z), n[0], n[1], n[2]}
				if v, ok := cache[key]; ok {
					return v
				}
				y1, y2 := (z+1)%k, (z+2)%k
				m := n[y1] + n[y2]
				a, b := n[z]+1, m+1
				l := logBetaFn(a, b) + math.Log(mathext.RegIncBeta(a, b, r.Hi)-mathext.RegIncBeta(a, b, r.Lo)) - math.Log(r.Hi-r.Lo)
				w1 := math.Exp(-tc.decay * (math.Abs(float64(y1-z)) - 1))
				w2 := math.Exp(-tc.decay * (math.Abs(float64(y2-z)) - 1))
				const steps = 20000
				var e float64
				for i := range steps {
					u := (float64(i) + 0.5) / steps
					s := w1 * u / (w1*u + w2*(1-u))
					e += math.Pow(s, n[y1]) * math.Pow(1-s, n[y2]) / steps
				}
				l += math.Log(e)
				cache[key] = l
				return l
			}
			nt, nw := d.NumTasks(), d.NumWorkers()
			kindSets := [][]Kind{
				{Normal, Normal, Spammer, Adversary}, {Normal, Normal, Adversary, Spammer}, {Normal, Spammer, Normal, Adversary},
				{Normal, Adversary, Normal, Spammer}, {Normal, Spammer, Adversary, Normal}, {Normal, Adversary, Spammer, Normal},
				{Spammer, Normal, Normal, Adversary}, {Adversary, Normal, Normal, Spammer}, {Spammer, Normal, Adversary, Normal},
				{Adversary, Normal, Spammer, Normal}, {Spammer, Adversary, Normal, Normal}, {Adversary, Spammer, Normal, Normal},
			}
			exact := make([]float64, nt*k)
			exactKind := make([]float64, nw*3)
			class := make([]int, nt)
			counts := make([]float64, nw*k*k)
			shifted := make([]float64, k)
			var logs []float64
			type state struct {
				class []int
				kinds []Kind
			}
			var states []state
			for {
				clear(counts)
				lp := 0.0
				for j := range nt {
					lp += math.Log(tr.prior[class[j]])
					for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
						counts[(int(d.Worker[i])*k+class[j])*k+int(d.Label[i])]++
					}
				}
				for _, ks := range kindSets {
					l := lp
					for w, kind := range ks {
						for z := range k {
							n := counts[(w*k+z)*k : (w*k+z+1)*k]
							switch kind {
							case Spammer:
								l -= floats.Sum(n) * math.Log(k)
							case Adversary:
								for y := range k {
									shifted[y] = n[(y+1)%k]
								}
								l += rowLog(z, shifted)
							default:
								l += rowLog(z, n)
							}
						}
					}
					logs = append(logs, l)
					states = append(states, state{slices.Clone(class), ks})
				}
				if !nextAssignment(class, k) {
					break
				}
			}
			lse := floats.LogSumExp(logs)
			for s, l := range logs {
				p := math.Exp(l - lse)
				for j, z := range states[s].class {
					exact[j*k+z] += p
				}
				for w, kind := range states[s].kinds {
					exactKind[w*3+int(kind)] += p
				}
			}
			got, gotKind, _ := kindOraclePosterior(d, cp, oracleRun{Chains: 2, Burn: 500, Sweeps: 20000, Seed: 1})
			for i := range exact {
				if math.Abs(got[i]-exact[i]) > 0.006 {
					t.Errorf("object %d, class %d: sampled posterior %.4f, exact %.4f", i/k, i%k, got[i], exact[i])
				}
			}
			for i := range exactKind {
				if math.Abs(gotKind[i]-exactKind[i]) > 0.01 {
					t.Errorf("worker %d, kind %v: sampled posterior %.4f, exact %.4f", i/3, Kind(i%3), gotKind[i], exactKind[i])
				}
			}
			t.Logf("true kinds %v\nexact kinds %.3f\nsampled     %.3f\nexact classes %.3f\nsampled       %.3f", tr.Kind, exactKind, gotKind, exact, got)
		})
	}
}

// TestSampleRowUnevenErrors checks the draw of a row's wrong classes'
// shares under an error decay against their posterior mean by quadrature
// over the uniform share t = e_1/(e_1 + e_2) of two Exp(1) draws.
func TestSampleRowUnevenErrors(t *testing.T) {
	cp := crowdPrior{Prior: []float64{1. / 3, 1. / 3, 1. / 3}, Diag: []Range{defaultAccuracy, defaultAccuracy, defaultAccuracy}, Decay: 1.5}
	rng := rand.New(rand.NewPCG(1, 2))
	row := make([]float64, 3)
	for _, tc := range []struct {
		z int
		n []float64
	}{{0, []float64{5, 0, 0}}, {0, []float64{3, 1, 2}}, {2, []float64{4, 0, 7}}, {2, []float64{9, 2, 1}}} {
		y1, y2 := (tc.z+1)%3, (tc.z+2)%3
		w1, w2 := cp.errWeight(tc.z, y1), cp.errWeight(tc.z, y2)
		const steps = 100000
		var num, den float64
		for i := range steps {
			u := (float64(i) + 0.5) / steps
			s := w1 * u / (w1*u + w2*(1-u))
			p := math.Pow(s, tc.n[y1]) * math.Pow(1-s, tc.n[y2])
			num += s * p
			den += p
		}
		want := num / den
		const draws = 100000
		var got float64
		for range draws {
			cp.sampleRow(tc.z, tc.n, row, rng)
			got += row[y1] / (row[y1] + row[y2]) / draws
		}
		if math.Abs(got-want) > 0.003 {
			t.Errorf("row %d, counts %v: mean share of class %d %.4f, want %.4f", tc.z, tc.n, y1, got, want)
		}
	}
}

// kindCrowd is a crowd of TestUnknownKindLimit: the arguments of consensus
// simulate after --model la-ds (and before --seed), and its Settings.
type kindCrowd struct {
	name, args string
	c          Settings
}

// kindCrowds returns the crowds of TestUnknownKindLimit with seed: five
// light crowds (A to E) and the spammers and adversarial regimes.
func kindCrowds(seed uint64) []kindCrowd {
	ds := func(s Settings) Settings {
		s.Noise, s.Latent, s.Seed = noise.DS{}, latent.LA{}, seed
		return s
	}
	regime := func(name string) Settings {
		s, err := Regime(name, seed)
		if err != nil {
			panic(err)
		}
		return s
	}
	return []kindCrowd{
		{"A", "--classes 3 --labels-per-object 3 --workers 1000 --objects 4000 --activity 0.5 --spammers 0.3",
			ds(Settings{Classes: 3, LabelsPerTask: 3, Workers: 1000, Tasks: 4000, Activity: 0.5, Spammers: 0.3})},
		{"B", "--classes 5 --labels-per-object 3 --workers 1000 --objects 3000 --activity 0.5 --spammers 0.3",
			ds(Settings{Classes: 5, LabelsPerTask: 3, Workers: 1000, Tasks: 3000, Activity: 0.5, Spammers: 0.3})},
		{"C", "--classes 2 --labels-per-object 3 --workers 200 --objects 2000 --activity 0 --spammers 0.3 --class-prior 0.85,0.15",
			ds(Settings{Classes: 2, LabelsPerTask: 3, Workers: 200, Tasks: 2000, Spammers: 0.3, ClassPrior: []float64{0.85, 0.15}})},
		{"D", "--classes 3 --labels-per-object 2 --workers 200 --objects 3000 --activity 0.5 --error-decay 1 --spammers 0.2",
			ds(Settings{Classes: 3, LabelsPerTask: 2, Workers: 200, Tasks: 3000, Activity: 0.5, Spammers: 0.2, Params: DSParams{ErrorDecay: 1}})},
		{"E", "--classes 3 --labels-per-object 3 --workers 1000 --objects 4000 --activity 0.5 --spammers 0.2 --adversaries 0.1",
			ds(Settings{Classes: 3, LabelsPerTask: 3, Workers: 1000, Tasks: 4000, Activity: 0.5, Spammers: 0.2, Adversaries: 0.1})},
		{"spammers", "--regime spammers", regime("spammers")},
		{"adversarial", "--regime adversarial", regime("adversarial")},
	}
}

// kindRecovery returns the mean posterior probability of its true kind
// over the workers of kind want, and over the others of their not being of
// kind want.
func kindRecovery(kinds []float64, truth []Kind, want Kind) (hit, reject float64) {
	var nh, nr float64
	for w, kind := range truth {
		if kind == want {
			hit += kinds[w*3+int(want)]
			nh++
		} else {
			reject += 1 - kinds[w*3+int(want)]
			nr++
		}
	}
	return hit / max(nh, 1), reject / max(nr, 1)
}

// TestUnknownKindLimit prints, on the crowds with spammers (and
// adversaries) of kindCrowds (a subtest each), over seeds 1 to 3,
// the Bayes limit beside the limit of a consensus that knows the crowd's
// population but not its workers (kindOraclePosterior), the spread of its
// chains' accuracies, majority vote's accuracy, and how well the oracle
// finds the spammers (mean posterior probability of spam for the true
// spammers / of not spam for the others), with the command that draws the
// crowd for consensus fit. -unknown-sweeps and -unknown-rng rerun the
// sampler longer or from other draws, as for TestUnknownWorkerLimit.
func TestUnknownKindLimit(t *testing.T) {
	if !*unknownLimit {
		t.Skip("run with -unknown-limit")
	}
	run := oracleRun{Chains: 4, Burn: *unknownSweeps / 4, Sweeps: *unknownSweeps}
	for i, cell := range kindCrowds(0) {
		t.Run(cell.name, func(t *testing.T) {
			t.Logf("consensus simulate --model la-ds %s --seed S", cell.args)
			t.Logf("seed\tbayes acc\tbayes ece\toracle acc\toracle ece\tchains' acc min..max\tmajority acc\tspammers found/rejected\tadversaries found/rejected")
			var bayes, oracle, be, oe float64
			for seed := uint64(1); seed <= 3; seed++ {
				c := kindCrowds(seed)[i].c
				d, tr := mustSimulate(t, c)
				gold := tr.Gold()
				k := tr.cfg.Classes
				_, ba, bEce := bayesScores(t, d, tr, k)
				cp, err := crowdPriorOf(tr)
				if err != nil {
					t.Fatal(err)
				}
				run.Seed = seed<<32 | *unknownRNG
				op, kinds, chains := kindOraclePosterior(d, cp, run)
				oa, oEce := scores(t, op, k, gold)
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, ch := range chains {
					a, _ := scores(t, ch, k, gold)
					lo, hi = min(lo, a), max(hi, a)
				}
				ma, _ := scores(t, majorityPosterior(d, k), k, gold)
				sh, sr := kindRecovery(kinds, tr.Kind, Spammer)
				ah, ar := kindRecovery(kinds, tr.Kind, Adversary)
				t.Logf("%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f..%.4f\t%.4f\t%.3f/%.3f\t%.3f/%.3f", seed, ba, bEce, oa, oEce, lo, hi, ma, sh, sr, ah, ar)
				bayes, oracle, be, oe = bayes+ba/3, oracle+oa/3, be+bEce/3, oe+oEce/3
			}
			t.Logf("mean\t%.4f\t%.4f\t%.4f\t%.4f\t(oracle %.2f points below the Bayes limit)", bayes, be, oracle, oe, 100*(bayes-oracle))
		})
	}
}

// TestKindOracle checks kindOraclePosterior on a small crowd with
// spammers and adversaries: it is at most the Bayes limit, well above
// majority vote, calibrated, and finds the spammers and the adversaries
// far better than chance (the prior's share).
func TestKindOracle(t *testing.T) {
	c := Settings{Tasks: 1500, Workers: 100, Classes: 3, LabelsPerTask: 3, Activity: 0.5, Spammers: 0.3, Adversaries: 0.1,
		Noise: noise.DS{}, Latent: latent.LA{}, Seed: 7}
	d, tr := mustSimulate(t, c)
	gold := tr.Gold()
	_, ba, _ := bayesScores(t, d, tr, c.Classes)
	ma, _ := scores(t, majorityPosterior(d, c.Classes), c.Classes, gold)
	cp, err := crowdPriorOf(tr)
	if err != nil {
		t.Fatal(err)
	}
	op, kinds, _ := kindOraclePosterior(d, cp, oracleRun{Chains: 2, Burn: 50, Sweeps: 200, Seed: 1})
	oa, oe := scores(t, op, c.Classes, gold)
	sh, sr := kindRecovery(kinds, tr.Kind, Spammer)
	ah, ar := kindRecovery(kinds, tr.Kind, Adversary)
	t.Logf("Bayes %.4f, oracle %.4f (ECE %.4f), majority %.4f; spammers found %.3f, rejected %.3f; adversaries found %.3f, rejected %.3f", ba, oa, oe, ma, sh, sr, ah, ar)
	if oa > ba+0.005 {
		t.Errorf("oracle accuracy %.4f above the Bayes limit %.4f", oa, ba)
	}
	if oa < ma+0.05 {
		t.Errorf("oracle accuracy %.4f not 0.05 above majority vote's %.4f", oa, ma)
	}
	if oe > 0.03 {
		t.Errorf("oracle ECE %.4f: want a calibrated posterior", oe)
	}
	if sh < 0.6 || sr < 0.8 {
		t.Errorf("spammers found with mean probability %.3f (prior 0.3), others rejected with %.3f (prior 0.7): want 0.6 and 0.8", sh, sr)
	}
	if ah < 0.6 || ar < 0.95 {
		t.Errorf("adversaries found with mean probability %.3f (prior 0.1), others rejected with %.3f (prior 0.9): want 0.6 and 0.95", ah, ar)
	}
}
