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

// checkUsed refuses, with a usage error, a flag of settingFlags given on the
// command line of c that no fit of an estimator of ests with the settings
// set reads (with all set: that some such fit does not read; see
// model.Settings.ReadBy), so that no setting is silently ignored.
func checkUsed(c *cobra.Command, set *model.Settings, ests []model.Estimator, all bool) error {
	for _, sf := range settingFlags {
		if !c.Flags().Changed(sf.name) {
			continue
		}
		models := model.NamesWith(model.ReadsSetting(sf.name)) + sf.note
		var ignoring []string
		for _, est := range ests {
			if !set.ReadBy(est, sf.setting) {
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
