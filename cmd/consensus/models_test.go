package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/model"
)

// TestModelListsAgree checks that the lists of models a user reads agree
// with model.Registry: the output of 'consensus models', the --model help
// of fit, the root help's count and the README's model table.
func TestModelListsAgree(t *testing.T) {
	names := model.Names()
	r := runIn(t, t.TempDir(), "", "models")
	var listed []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		listed = append(listed, strings.Fields(line)[0])
	}
	if r.code != 0 || !slices.Equal(listed, names) {
		t.Errorf("consensus models lists %v (exit %d), want %v", listed, r.code, names)
	}
	help := runIn(t, t.TempDir(), "", "fit", "--help").stdout
	for _, n := range names {
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
	sorted := slices.Sorted(slices.Values(names))
	if !slices.Equal(table, sorted) {
		t.Errorf("README's model table names\n%v\nthe registry\n%v", table, sorted)
	}
}
