package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/model"
)

// TestModelListsAgree checks that the lists of models a user reads agree
// with model.Registry: the output of 'consensus models', the --model help
// of fit, the root help's count and the README's model table. The first
// two and the README also name auto (fit --model auto).
func TestModelListsAgree(t *testing.T) {
	names := model.Names()
	withAuto := append(slices.Clone(names), autoName)
	r := runIn(t, t.TempDir(), "", "models")
	var listed []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		listed = append(listed, strings.Fields(line)[0])
	}
	if r.code != 0 || !slices.Equal(listed, withAuto) {
		t.Errorf("consensus models lists %v (exit %d), want %v", listed, r.code, withAuto)
	}
	help := runIn(t, t.TempDir(), "", "fit", "--help").stdout
	for _, n := range withAuto {
		if !regexp.MustCompile(`[ ,]` + regexp.QuoteMeta(n) + `[,\s]`).MatchString(help) {
			t.Errorf("fit --help does not name model %s", n)
		}
	}
	root := runIn(t, t.TempDir(), "", "--help").stdout
	if want := strconv.Itoa(len(names)) + " models in all"; !strings.Contains(root, want) {
		t.Errorf("the root help does not say %q", want)
	}

	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	section = section[strings.Index(section, "\n## Models\n"):]
	section = section[:strings.Index(section[1:], "\n## ")+1]
	var table []string
	name := regexp.MustCompile("`([a-z0-9-]+)`")
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			table = append(table, m[1])
		}
	}
	slices.Sort(table)
	sorted := slices.Sorted(slices.Values(withAuto))
	if !slices.Equal(table, sorted) {
		t.Errorf("README's model table names\n%v\nthe registry\n%v", table, sorted)
	}
}

// TestEveryNoiseModelEverywhere checks that registering a noise model is
// enough for every command: simulate from it, fit its la, da and hda forms
// with --workers and start them again with --init-workers from that file,
// compare them and contrast them in a report.
func TestEveryNoiseModelEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command about ten times per noise model")
	}
	for _, n := range model.NoiseModels() {
		t.Run(n.Name(), func(t *testing.T) {
			dir := t.TempDir()
			ok := func(args ...string) result { t.Helper(); return mustRun(t, dir, args...) }
			ok("simulate", "--model", "da-"+n.Name(), "--objects", "60", "--workers", "6", "--classes", "3", "--seed", "1", "-o", "labels.csv")
			for _, form := range []string{"la-", "da-", "hda-"} {
				m := form + n.Name()
				ok("fit", "-i", "labels.csv", "-m", m, "--max-iter", "50", "--workers", "w.csv", "-o", "o.csv", "--quiet")
				r := ok("fit", "-i", "labels.csv", "-m", m, "--max-iter", "50", "--init-workers", "w.csv", "-o", "o2.csv")
				if !strings.Contains(r.stderr, "6 of 6 workers start from w.csv") {
					t.Errorf("%s --init-workers: %s", m, r.stderr)
				}
				r = ok("fit", "-i", "labels.csv", "-m", m, "--max-iter", "50", "--init-workers", "w.csv", "--fix-workers", "--workers", "w2.csv", "-o", "o3.csv")
				if !strings.Contains(r.stderr, "6 of 6 workers are held at their parameters in w.csv, 0 are fitted") {
					t.Errorf("%s --fix-workers: %s", m, r.stderr)
				}
				sameWorkerParams(t, m, filepath.Join(dir, "w.csv"), filepath.Join(dir, "w2.csv"))
			}
			models := "la-" + n.Name() + ",da-" + n.Name() + ",hda-" + n.Name()
			r := ok("compare", "-i", "labels.csv", "--models", models, "--splits", "2", "--max-iter", "50")
			if !strings.Contains(r.stdout, "hda-"+n.Name()) {
				t.Errorf("compare does not show hda-%s:\n%s", n.Name(), r.stdout)
			}
			ok("report", "-i", "labels.csv", "--models", models, "--noise", n.Name(), "--max-iter", "50", "--bootstrap", "-1", "-o", "r.html", "--quiet")
		})
	}
}

// TestModelsJSON checks 'consensus models --format json': the default
// model, every registered model in registry order with the capabilities
// model.Describe gives it, auto with its candidates; and that another
// format is refused with one line and exit status 2.
func TestModelsJSON(t *testing.T) {
	r := runIn(t, t.TempDir(), "", "models", "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got modelList
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Default != model.DefaultModel || got.Auto.Name != autoName || !slices.Equal(got.Auto.Candidates, compare.AutoModels) {
		t.Errorf("default %q, auto %+v", got.Default, got.Auto)
	}
	want := model.DescribeAll()
	if len(got.Models) != len(want) {
		t.Fatalf("%d models, want %d", len(got.Models), len(want))
	}
	for i, c := range got.Models {
		if !reflect.DeepEqual(c, want[i]) {
			t.Errorf("model %d: %+v, want %+v", i, c, want[i])
		}
	}
	bad := runIn(t, t.TempDir(), "", "models", "--format", "yaml")
	if bad.code != 2 || strings.Count(strings.TrimSpace(bad.stderr), "\n") != 0 || !strings.Contains(bad.stderr, `--format "yaml"`) {
		t.Errorf("--format yaml: exit %d, stderr %q", bad.code, bad.stderr)
	}
}
