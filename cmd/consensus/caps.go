package main

import (
	"slices"
	"strings"

	"github.com/consensuslab/consensus/model"
)

// modelsWith returns, for a message, the registered models whose
// capabilities (model.Describe) satisfy ok: a form of every noise model
// (such as la-* for la-ds, la-glad, ...) as its pattern when all of the
// form's models do and the pattern matches no other model, the others by
// name. The list follows the registry, so that a message naming the models
// a flag applies to cannot go stale.
func modelsWith(ok func(model.Capabilities) bool) string {
	all := model.DescribeAll()
	form := func(c model.Capabilities) string {
		if c.Noise == "" {
			return ""
		}
		return strings.TrimSuffix(c.Name, "-"+c.Noise)
	}
	var out []string
	done := map[string]bool{}
	for _, c := range all {
		f := form(c)
		if !ok(c) || done[f] {
			continue
		}
		var members []string
		whole, alone := true, true
		for _, o := range all {
			switch {
			case f != "" && form(o) == f:
				members = append(members, o.Name)
				whole = whole && ok(o)
			case f != "" && strings.HasPrefix(o.Name, f+"-"):
				alone = false
			}
		}
		if f != "" && whole && alone && len(members) > 1 {
			done[f] = true
			out = append(out, f+"-*")
			continue
		}
		out = append(out, c.Name)
	}
	return strings.Join(out, ", ")
}

// hasPrior reports whether c accepts the prior setting of that
// command-line name (model.Capabilities.Priors).
func hasPrior(name string) func(model.Capabilities) bool {
	return func(c model.Capabilities) bool { return slices.Contains(c.Priors, name) }
}

// readsSetting reports whether c reads the setting of that command-line
// name (model.Capabilities.Settings).
func readsSetting(name string) func(model.Capabilities) bool {
	return func(c model.Capabilities) bool { return slices.Contains(c.Settings, name) }
}
