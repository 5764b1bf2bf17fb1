package model_test

import (
	"strings"
	"testing"

	"github.com/consensuslab/consensus/model"
)

// TestNamesWith checks that a form all of whose models pass is named by
// its pattern, that a model alone is named by its name, and that no
// model is named when none passes.
func TestNamesWith(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   func(model.Capabilities) bool
		has  []string
		not  []string
	}{
		{"la form", func(c model.Capabilities) bool { return strings.HasPrefix(c.Name, "la-") }, []string{"la-*"}, []string{"la-ds", "da-"}},
		{"one model", func(c model.Capabilities) bool { return c.Name == "mv" }, []string{"mv"}, []string{","}},
		{"none", func(model.Capabilities) bool { return false }, nil, []string{"-"}},
		{"max-iter", model.ReadsSetting("max-iter"), []string{"la-*"}, []string{"mv,"}},
		{"glad prior", model.HasPrior("glad-prior"), []string{"glad"}, []string{"la-ds"}},
	} {
		got := model.NamesWith(c.ok)
		for _, s := range c.has {
			if !strings.Contains(got, s) {
				t.Errorf("%s: %q lacks %q", c.name, got, s)
			}
		}
		for _, s := range c.not {
			if strings.Contains(got, s) {
				t.Errorf("%s: %q has %q", c.name, got, s)
			}
		}
	}
}
