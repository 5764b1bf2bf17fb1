package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/model"
)

// settingFlags are the fit flags that set a field of model.Settings which
// some models do not read, and a note on the models they apply to (which
// the registry lists: model.Capabilities.Settings).
var settingFlags = []struct {
	name    string
	setting model.Setting
	note    string
}{
	{"solver", model.SetMethod, ""},
	{"max-iter", model.SetMaxIterations, ""},
	{"grad-tol", model.SetGradientTol, " fitted by a gradient method (their default solver lbfgs, or --solver lbfgs or cg)"},
	{"func-tol", model.SetFunctionTol, ""},
	{"ridge", model.SetRidge, ""},
}

// reads reports whether a fit of est with the flags f reads the setting of
// flag: est is a model.SettingsReader that reads it (for --grad-tol, and is
// not fitted by EM, which stops on --func-tol alone), or for --max-iter a
// model.IterationSetter.
func (f *fitFlags) reads(est model.Estimator, flag string, s model.Setting) bool {
	if _, ok := est.(model.IterationSetter); ok && s == model.SetMaxIterations {
		return true
	}
	r, ok := est.(model.SettingsReader)
	if !ok || !r.Reads(s) {
		return false
	}
	return s != model.SetGradientTol || !f.byEM(est)
}

// byEM reports whether est is fitted by EM with the flags f: --solver em,
// or no --solver and no --ridge for a model whose default solver is em.
func (f *fitFlags) byEM(est model.Estimator) bool {
	if f.solver != "" {
		return f.solver == "em"
	}
	if f.ridge != 0 {
		return false
	}
	for _, e := range model.Registry() {
		if e.Name == est.Name() {
			return e.Solver == "em"
		}
	}
	return false
}

// checkUsed refuses, with a usage error, a flag of settingFlags given on the
// command line of c that no estimator of ests reads (with all set: that
// some estimator of ests does not read), so that no setting is silently
// ignored.
func (f *fitFlags) checkUsed(c *cobra.Command, ests []model.Estimator, all bool) error {
	for _, sf := range settingFlags {
		if !c.Flags().Changed(sf.name) {
			continue
		}
		models := model.NamesWith(model.ReadsSetting(sf.name)) + sf.note
		var ignoring []string
		for _, est := range ests {
			if !f.reads(est, sf.name, sf.setting) {
				ignoring = append(ignoring, est.Name())
			}
		}
		switch {
		case len(ignoring) == 0 || !all && len(ignoring) < len(ests):
		case len(ests) == 1:
			return usagef("--%s: model %s does not use it; it applies to %s", sf.name, ests[0].Name(), models)
		case all:
			return usagef("--%s: model %s does not use it; it applies to %s", sf.name, ignoring[0], models)
		default:
			return usagef("--%s: none of the models (%s) uses it; it applies to %s", sf.name, strings.Join(ignoring, ", "), models)
		}
	}
	return nil
}

// withIterations returns ests with --max-iter, when given, set as the own
// iteration count of every model.IterationSetter among them (kos, zbs,
// mmsr), which model.Settings.MaxIterations does not set.
func (f *fitFlags) withIterations(c *cobra.Command, ests []model.Estimator) []model.Estimator {
	if !c.Flags().Changed("max-iter") || f.maxIter <= 0 {
		return ests
	}
	out := make([]model.Estimator, len(ests))
	for i, est := range ests {
		out[i] = est
		if s, ok := est.(model.IterationSetter); ok {
			out[i] = s.WithMaxIterations(f.maxIter)
		}
	}
	return out
}
