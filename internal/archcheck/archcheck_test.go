package archcheck

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all" // every family, for the registered names
)

// root is the module root, two levels above this package.
const root = "../.."

var (
	loadOnce sync.Once
	module   Module
	loadErr  error
)

// load returns the module, parsed once for all the tests.
func load(t *testing.T) Module {
	t.Helper()
	loadOnce.Do(func() { module, loadErr = Load(root) })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return module
}

// high are the packages above the low-level ones: the estimator families
// other than model's contracts, the tools built on fits, and the
// programs.
var high = []string{
	"model/vb", "model/hda", "model/crowdkit", "model/all",
	"compare", "report", "plan", "sim", "pairwise", "theory",
	"internal/experiments", "cmd", "scripts",
}

// TestLayers checks that no low-level package imports, directly or
// through another package, a higher one: the readers of data import no
// model, noise model, assumption, score or writer; noise models,
// assumptions and metrics import no model; output imports model's
// contracts (Result) but no family and none of the tools whose tables
// live with their types (plan, pairwise, sim).
func TestLayers(t *testing.T) {
	m := load(t)
	for _, c := range []struct {
		pkg       string
		forbidden []string
	}{
		{"data", append([]string{"model", "noise", "latent", "metrics", "output"}, high...)},
		{"noise", append([]string{"model", "metrics", "output"}, high...)},
		{"latent", append([]string{"model", "metrics", "output"}, high...)},
		{"metrics", append([]string{"model", "noise", "latent", "output"}, high...)},
		{"internal/table", append([]string{"model", "noise", "latent", "metrics", "output"}, high...)},
		{"output", high},
	} {
		t.Run(c.pkg, func(t *testing.T) {
			var pkgs []string
			for _, p := range m.Paths() {
				if Under(p, c.pkg) {
					pkgs = append(pkgs, p)
				}
			}
			if len(pkgs) == 0 {
				t.Fatalf("no package %s", c.pkg)
			}
			for _, p := range pkgs {
				for _, dep := range m.Deps(p) {
					for _, f := range c.forbidden {
						if Under(dep, f) {
							t.Errorf("%s imports %s (through %s): a low-level package must not import %s", p, dep, via(m, p, dep), f)
						}
					}
				}
			}
		})
	}
}

// via returns a chain of imports from p to dep, for the message.
func via(m Module, p, dep string) string {
	prev := map[string]string{p: ""}
	queue := []string{p}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		if q == dep {
			break
		}
		if m[q] == nil {
			continue
		}
		for _, ip := range m[q].Imports {
			if _, ok := prev[ip]; !ok {
				prev[ip] = q
				queue = append(queue, ip)
			}
		}
	}
	chain := []string{dep}
	for q := prev[dep]; q != ""; q = prev[q] {
		chain = append(chain, q)
	}
	slices.Reverse(chain)
	return strings.Join(chain, " → ")
}

// maxLines is the size above which a package is to be split.
const maxLines = 4000

// TestPackageSizes checks that no package has more than maxLines lines
// of non-test Go, and logs every package's size, largest first (go test
// ./internal/archcheck -run TestPackageSizes -v).
func TestPackageSizes(t *testing.T) {
	m := load(t)
	paths := m.Paths()
	slices.SortStableFunc(paths, func(a, b string) int { return m[b].Lines - m[a].Lines })
	var total int
	for _, p := range paths {
		if m[p].Lines == 0 {
			continue
		}
		total += m[p].Lines
		t.Logf("%6d  %s", m[p].Lines, p)
		if m[p].Lines > maxLines {
			t.Errorf("package %s has %d non-test lines, more than %d: split it", p, m[p].Lines, maxLines)
		}
	}
	t.Logf("%6d  in all", total)
}

// registry reports whether file is where the model package or a family
// builds and registers its estimators' names.
func registry(file string) bool {
	return file == "model/registry.go" || strings.HasPrefix(file, "model/") && strings.HasSuffix(file, "/registry.go")
}

// TestParamsNil checks that no code outside package model asks whether a
// result's Params is nil (Result.Solved answers that), test files
// included. sim.Settings has a field Params of its own, the sampler of the
// workers' parameters, which sim and the regime flags test.
func TestParamsNil(t *testing.T) {
	m := load(t)
	allowed := map[string]string{
		"sim/sim.go":                 "sim.Settings.Params",
		"sim/config.go":              "sim.Settings.Params",
		"cmd/consensus/simregime.go": "sim.Settings.Params",
	}
	outside := func(file string) bool { return pathDir(file) != "model" && allowed[file] == "" }
	for _, f := range m.NilTests("Params", outside) {
		t.Errorf("%s: a test of Params for nil outside package model; ask Result.Solved or a capability", f)
	}
	// The rule finds what it is written for.
	if len(m.NilTests("Params", func(file string) bool { return allowed[file] != "" })) == 0 {
		t.Error("no test of sim.Settings.Params found: is NilTests still finding anything?")
	}
}

// TestModelNames checks that no code outside the registries compares a
// string with the name of a registered model or a prefix of a family's
// names (la-, da-, hda-, vb-): code asks a capability (package model's
// Capabilities) instead.
func TestModelNames(t *testing.T) {
	m := load(t)
	names := model.Names()
	if len(names) < 10 {
		t.Fatalf("only %d registered models", len(names))
	}
	prefixes := []string{"la-", "da-", "hda-", "vb-", "vb-la-", "vb-da-", "vb-hda-"}
	isName := func(s string) bool { return slices.Contains(names, s) || slices.Contains(prefixes, s) }
	for _, f := range m.LiteralTests(isName, func(file string) bool { return !registry(file) }) {
		t.Errorf("%s: a model's name tested outside the registry; ask a capability", f)
	}
}

// TestRulesFind checks the finders on a small source with one instance
// of each pattern, so that an empty result of the rules above means that
// the module has none.
func TestRulesFind(t *testing.T) {
	src := `package p

import "strings"

func f(r struct{ Params []float64 }, name string) bool {
	if r.Params == nil || nil != r.Params {
		return false
	}
	switch name {
	case "mv", "csv":
		return true
	}
	return name == "vb-ds" || strings.HasPrefix(name, "vb-") || name != "auto"
}
`
	m, err := parseOne("p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	all := func(string) bool { return true }
	got := fmt.Sprint(m.NilTests("Params", all))
	if want := "[p/p.go:6: r.Params == nil p/p.go:6: nil != r.Params]"; got != want {
		t.Errorf("NilTests = %s, want %s", got, want)
	}
	isName := func(s string) bool { return s == "mv" || s == "vb-ds" || s == "vb-" }
	got = fmt.Sprint(m.LiteralTests(isName, all))
	if want := `[p/p.go:10: "mv" p/p.go:13: name == "vb-ds" p/p.go:13: strings.HasPrefix(name, "vb-")]`; got != want {
		t.Errorf("LiteralTests = %s, want %s", got, want)
	}
}
