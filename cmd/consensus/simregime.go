package main

import (
	"errors"
	"strings"

	"github.com/spf13/pflag"

	"github.com/consensuslab/consensus/sim"
)

// simRegimeFlags are simulate's flags for the regimes of package sim: a
// named preset and the settings that depart from the paper's experiment.
type simRegimeFlags struct {
	regime     string
	classPrior string
	correlated string
	ambiguity  string
	cfg        sim.Settings // --activity, --spammers and --adversaries
	accuracy   string       // --accuracy
	nearRandom float64      // --near-random
	errorDecay float64      // --error-decay
	workers    string       // --truth-workers
	bayes      string       // --bayes
}

// add registers the flags on fl.
func (f *simRegimeFlags) add(fl *pflag.FlagSet) {
	fl.StringVar(&f.regime, "regime", "", "start from a named regime ("+strings.Join(sim.Regimes(), ", ")+"; see docs/simulation.md); the other flags given override its settings")
	fl.StringVar(&f.classPrior, "class-prior", "", "class prior, K probabilities summing to 1 such as 0.88,0.12: the true class (la-*) or every label's latent class (da-*) is drawn from it (default uniform)")
	fl.Float64Var(&f.cfg.Activity, "activity", 0, "worker activity skew a: an object's workers are drawn with probability proportional to 1/rank^a, worker w<i> having rank i+1 (default 0: uniform)")
	fl.Float64Var(&f.cfg.Spammers, "spammers", 0, "share of workers whose labels are uniform at random, 0 to 1")
	fl.Float64Var(&f.cfg.Adversaries, "adversaries", 0, "share of workers who report the class after the one their noise model draws (for 2 classes, every label flipped), 0 to 1")
	fl.StringVar(&f.correlated, "correlated", "", `a group of workers w0, w1, ... sharing one confusion, as workers=N,coverage=F,subtype=S[,from=A,to=B]: they label a share F of the objects, and call class B every object of class A in the subtype (a share S of class A); "off" for none`)
	fl.StringVar(&f.ambiguity, "ambiguity", "", `la-* models: objects ambiguous around their true class, as vertex=S,base=A: every object's label distribution is drawn from Dirichlet(S at its true class + A at every class), and every label's subjective class from it; "off" for none`)
	fl.StringVar(&f.accuracy, "accuracy", "", "ds and onecoin workers: the range LO:HI of every worker's accuracy P(z|z), or for ds one range per class separated by commas, such as 0.75:0.98,0.55:0.95 (default 0.55:0.95)")
	fl.Float64Var(&f.nearRandom, "near-random", 0, "ds and onecoin workers: share of workers, 0 to 1, whose accuracies are drawn from 0.4:0.6 instead")
	fl.Float64Var(&f.errorDecay, "error-decay", 0, "ds workers: concentrate errors on neighbouring classes, the weight of a wrong class falling by exp(-D) with each step of distance beyond the first (default 0: no decay)")
	fl.StringVar(&f.workers, "truth-workers", "", "also write every worker's kind (normal, spammer, adversary, correlated), number of labels and true noise parameters; format by extension, as --output")
	fl.StringVar(&f.bayes, "bayes", "", "also write the posterior of the true class under the true parameters, the Bayes limit (task,label,p_<class>...); la-* and vb-la-* models only; format by extension, as --output")
}

// apply completes cfg, whose sizes, seed and concentration come from their
// flags and whose noise model and assumption come from --model, with the
// regime and the settings of these flags. A regime's settings give way to
// the flags set on the command line.
func (f *simRegimeFlags) apply(fl *pflag.FlagSet, cfg *sim.Settings) error {
	out := *cfg
	if f.regime != "" {
		r, err := sim.Regime(f.regime, cfg.Seed)
		if err != nil {
			return usagef("--regime %s: no such regime; the regimes are %s", f.regime, strings.Join(sim.Regimes(), ", "))
		}
		out = r
		for _, o := range []struct {
			flag string
			set  func()
		}{
			{"objects", func() { out.Tasks = cfg.Tasks }},
			{"workers", func() { out.Workers = cfg.Workers }},
			{"classes", func() { out.Classes = cfg.Classes }},
			{"labels-per-object", func() { out.LabelsPerTask = cfg.LabelsPerTask }},
			{"concentration", func() { out.Concentration = cfg.Concentration }},
		} {
			if fl.Changed(o.flag) {
				o.set()
			}
		}
		if fl.Changed("model") || out.Noise == nil {
			out.Noise, out.Latent = cfg.Noise, cfg.Latent
		}
		if err := out.CheckParams(); err != nil {
			p := out.Params.Model().Name()
			return usagef("--regime %s with --model %s: %v; use a model of noise %s (such as la-%s)", f.regime, fl.Lookup("model").Value, err, p, p)
		}
		if out.ClassPrior != nil && len(out.ClassPrior) != out.Classes && !fl.Changed("class-prior") {
			return usagef("--classes %d: --regime %s has a class prior of %d classes; give --class-prior for %d", out.Classes, f.regime, len(out.ClassPrior), out.Classes)
		}
	}
	if err := f.applyFlags(fl, &out); err != nil {
		return err
	}
	if err := f.applyParams(fl, &out); err != nil {
		return err
	}
	*cfg = out
	return nil
}

// applyParams sets the worker parameter ranges of cfg from --accuracy,
// --near-random and --error-decay, on top of those of the regime, and
// checks them against the number of classes (sim.Settings.WithPopulation).
func (f *simRegimeFlags) applyParams(fl *pflag.FlagSet, cfg *sim.Settings) error {
	var p sim.Population
	if fl.Changed("accuracy") {
		var err error
		if p.Accuracy, err = sim.ParseRanges(f.accuracy); err != nil {
			return usagef("--accuracy %s: %v", f.accuracy, err)
		}
	}
	if fl.Changed("near-random") {
		if !(f.nearRandom >= 0 && f.nearRandom <= 1) {
			return usagef("--near-random %v: want a share of the workers from 0 to 1", f.nearRandom)
		}
		p.NearRandom = &f.nearRandom
	}
	if fl.Changed("error-decay") {
		if err := checkFinite("error-decay", f.errorDecay); err != nil {
			return err
		}
		p.ErrorDecay = &f.errorDecay
	}
	out, err := cfg.WithPopulation(p)
	var rc *sim.RangeCountError
	switch {
	case errors.Is(err, sim.ErrOneCoinDecay):
		return usagef("--error-decay applies to ds workers, not to the onecoin workers of --model")
	case errors.Is(err, sim.ErrOneCoinRanges):
		return usagef("--accuracy %s: onecoin workers have one accuracy, give one range LO:HI", f.accuracy)
	case errors.Is(err, sim.ErrNotRanged):
		return usagef("--accuracy, --near-random and --error-decay apply to ds and onecoin workers, not to the %s workers of --model", cfg.Noise.Name())
	case errors.As(err, &rc) && fl.Changed("accuracy"):
		return usagef("--accuracy %s: %d ranges for %d classes; give one, or one per class", f.accuracy, rc.Ranges, rc.Classes)
	case rc != nil:
		return usagef("--classes %d: --regime %s draws workers with accuracy ranges for %d classes; give --accuracy", rc.Classes, f.regime, rc.Ranges)
	}
	*cfg = out
	return err
}

// applyFlags sets the fields of cfg whose flags were given, after checking
// their values.
func (f *simRegimeFlags) applyFlags(fl *pflag.FlagSet, cfg *sim.Settings) error {
	if fl.Changed("class-prior") {
		p, err := sim.ParseClassPrior(f.classPrior)
		switch {
		case errors.Is(err, sim.ErrShortClassPrior):
			return usagef("--class-prior %q: %v", f.classPrior, err)
		case err != nil:
			return usagef("--class-prior %s: %v", f.classPrior, err)
		}
		if cfg.Classes != 0 && len(p) != cfg.Classes {
			return usagef("--class-prior %s has %d probabilities for %d classes", f.classPrior, len(p), cfg.Classes)
		}
		cfg.ClassPrior = p
	}
	if fl.Changed("activity") {
		if err := checkFinite("activity", f.cfg.Activity); err != nil {
			return err
		}
		cfg.Activity = f.cfg.Activity
	}
	for _, s := range []struct {
		flag string
		v    float64
		dst  *float64
	}{{"spammers", f.cfg.Spammers, &cfg.Spammers}, {"adversaries", f.cfg.Adversaries, &cfg.Adversaries}} {
		if !fl.Changed(s.flag) {
			continue
		}
		if !(s.v >= 0 && s.v <= 1) {
			return usagef("--%s %v: want a share of the workers from 0 to 1", s.flag, s.v)
		}
		*s.dst = s.v
	}
	if cfg.Spammers+cfg.Adversaries > 1 {
		return usagef("--spammers %v and --adversaries %v: their sum must be at most 1", cfg.Spammers, cfg.Adversaries)
	}
	if fl.Changed("correlated") {
		g, err := sim.ParseCorrelated(f.correlated)
		if err != nil {
			return usagef("--correlated %s: %v", f.correlated, err)
		}
		cfg.Correlated = g
	}
	if err := cfg.CheckGroup(); err != nil {
		return usagef("--correlated %v", err)
	}
	if fl.Changed("ambiguity") {
		a, err := sim.ParseAmbiguity(f.ambiguity)
		if err != nil {
			return usagef("--ambiguity %s: %v", f.ambiguity, err)
		}
		cfg.Ambiguity = a
	}
	if err := cfg.CheckAmbiguity(); err != nil {
		return usagef("--ambiguity %v", err)
	}
	return nil
}
