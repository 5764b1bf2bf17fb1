package model

import (
	"slices"
	"strings"
)

// NamesWith returns, for a message, the registered models whose
// capabilities (Describe) satisfy ok: a form of every noise model
// (such as la-* for la-ds, la-glad, ...) as its pattern when all of the
// form's models do and the pattern matches no other model, the others by
// name. The list follows the registry, so that a message naming the models
// a flag applies to cannot go stale.
func NamesWith(ok func(Capabilities) bool) string {
	all := DescribeAll()
	form := func(c Capabilities) string {
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

// HasPrior returns a test, for NamesWith, of whether a model accepts the
// prior setting of that command-line name (Capabilities.Priors), such as
// "glad-prior".
func HasPrior(name string) func(Capabilities) bool {
	return func(c Capabilities) bool { return slices.Contains(c.Priors, name) }
}

// ReadsSetting returns a test, for NamesWith, of whether a model reads the
// setting of that command-line name (Capabilities.Settings), such as
// "max-iter".
func ReadsSetting(name string) func(Capabilities) bool {
	return func(c Capabilities) bool { return slices.Contains(c.Settings, name) }
}
