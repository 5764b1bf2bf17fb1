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

// maxLines is the size above which a package is to be split: the rule is
// about 4,000 lines, and the test allows 2.5 % more so that it stops the
// growth of a package at the limit rather than every small change to it.
const maxLines = 4100

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
// workers' parameters, which only sim tests (Settings.CheckParams).
func TestParamsNil(t *testing.T) {
	m := load(t)
	allowed := map[string]string{
		"sim/config.go": "sim.Settings.Params",
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

// TestConventions checks the conventions of the API in every non-test
// file: a context is a function's first parameter and never an exported
// struct field; an options type is called Settings (or ends in Settings),
// never Options, Config or Opts; a number of goroutines is called Threads;
// a task is a task, never an object, in an exported name.
func TestConventions(t *testing.T) {
	m := load(t)
	all := func(string) bool { return true }
	for _, f := range m.ContextFields(all) {
		t.Errorf("%s: an exported struct field of type context.Context; pass the context as the first parameter", f)
	}
	for _, f := range m.ContextNotFirst(all) {
		t.Errorf("%s: a context.Context that is not the first parameter", f)
	}
	for _, f := range m.ExportedNames(badName, all) {
		t.Errorf("%s: %s", f, badNameWhy(f.Expr))
	}
}

// badNames are the parts of exported names that the conventions replace,
// with the name to use: a suffix, or for Object anywhere in the name.
var badNames = []struct{ part, want string }{
	{"Options", "Settings"}, {"Config", "Settings"}, {"Opts", "Settings"},
	{"Parallel", "Threads"}, {"Parallelism", "Threads"}, {"NumThreads", "Threads"}, {"Goroutines", "Threads"},
	{"Object", "Task"},
}

// badName reports whether an exported name breaks the conventions of
// TestConventions.
func badName(name string) bool { return badNameWhy(name) != "" }

// badNameWhy returns why name breaks the conventions, or "".
func badNameWhy(name string) string {
	for _, b := range badNames {
		if strings.HasSuffix(name, b.part) || b.part == "Object" && strings.Contains(name, b.part) {
			return fmt.Sprintf("an exported name with %s; the project's word is %s", b.part, b.want)
		}
	}
	return ""
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

	src = `package p

import "context"

type FitOptions struct {
	Ctx      context.Context
	ctx      context.Context
	Parallel int
	Threads  int
}

type Settings struct{ context.Context }

func ObjectDim() int { return 0 }

func Run(n int, ctx context.Context) {}

func run(ctx context.Context, f func(int, context.Context)) {}
`
	if m, err = parseOne("p/p.go", src); err != nil {
		t.Fatal(err)
	}
	got = fmt.Sprint(m.ContextFields(all))
	if want := "[p/p.go:6: Ctx p/p.go:12: context.Context]"; got != want {
		t.Errorf("ContextFields = %s, want %s", got, want)
	}
	got = fmt.Sprint(m.ContextNotFirst(all))
	if want := "[p/p.go:16: context.Context p/p.go:18: context.Context]"; got != want {
		t.Errorf("ContextNotFirst = %s, want %s", got, want)
	}
	got = fmt.Sprint(m.ExportedNames(badName, all))
	if want := "[p/p.go:5: FitOptions p/p.go:8: Parallel p/p.go:14: ObjectDim]"; got != want {
		t.Errorf("ExportedNames = %s, want %s", got, want)
	}
}
