package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOneRecommendationCLI checks that fit --model auto, compare (with and
// without gold) and report name the same model: on a shipped data set
// (exported, so that the gold labels can be left out), and on the paper's
// synthetic DA design (900 tasks, 20 DA-GLAD workers on each), where the
// choice is not the default model but vb-glad. compare adds the recommended model to --models when they lack
// it.
func TestOneRecommendationCLI(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, dir, "datasets", "export", "temp", "temp")
	mustRun(t, dir, "simulate", "--objects", "900", "--seed", "1", "-o", "da.csv", "--truth", "da-truth.csv")
	cases := []struct {
		labels, gold, want string
	}{
		{filepath.Join("temp", "labels.csv"), filepath.Join("temp", "gold.csv"), ""},
		{"da.csv", "da-truth.csv", "vb-glad"},
	}
	recommended := regexp.MustCompile(`(?m)^recommended: (\S+)\n\z`)
	for _, c := range cases {
		got := map[string]string{}
		r := mustRun(t, dir, "fit", "-i", c.labels, "-m", "auto", "-o", "auto.csv")
		if m := regexp.MustCompile(`(?m)^auto: chose (\S+), the lowest held-out likelihood loss among `).FindStringSubmatch(r.stderr); m != nil {
			got["fit -m auto"] = m[1]
		}
		for what, args := range map[string][]string{
			"compare":                         {"compare", "-i", c.labels, "-q"},
			"compare --gold":                  {"compare", "-i", c.labels, "--gold", c.gold, "-q"},
			"compare --gold --models rfe":     {"compare", "-i", c.labels, "--gold", c.gold, "--models", "rfe", "-q"},
			"compare --criterion heldout ...": {"compare", "-i", c.labels, "--gold", c.gold, "--criterion", "heldout", "--models", "rfe", "-q"},
		} {
			r := mustRun(t, dir, args...)
			if m := recommended.FindStringSubmatch(r.stdout); m != nil {
				got[what] = m[1]
				if !regexp.MustCompile(`(?m)^\d+ +` + regexp.QuoteMeta(m[1]) + ` .*recommended`).MatchString(r.stdout) {
					t.Errorf("%s: the table does not show %s as recommended:\n%s", what, m[1], r.stdout)
				}
			}
		}
		for what, args := range map[string][]string{
			"report --gold": {"report", "-i", c.labels, "--gold", c.gold, "--models", "rfe,la-ds", "-o", "r.html", "-q"},
			"report":        {"report", "-i", c.labels, "--models", "rfe", "-o", "r.html", "-q"},
		} {
			mustRun(t, dir, args...)
			if m := regexp.MustCompile(`Recommended model: <b>([^<]+)</b>`).FindStringSubmatch(readFile(t, dir, "r.html")); m != nil {
				got[what] = m[1]
			}
		}
		want := got["fit -m auto"]
		if c.want != "" && want != c.want {
			t.Errorf("%s: fit -m auto chose %q, want %s", c.labels, want, c.want)
		}
		if len(got) != 7 {
			t.Errorf("%s: found the recommendation of %d of 7 commands: %v", c.labels, len(got), got)
		}
		for what, m := range got {
			if m != want {
				t.Errorf("%s: %s recommends %s, fit -m auto chooses %s", c.labels, what, m, want)
			}
		}
		t.Logf("%s: %v", c.labels, got)
	}
	r := mustRun(t, dir, "compare", "-i", cases[0].labels, "--models", "rfe", "--no-recommendation", "-q")
	if strings.Contains(r.stdout, "recommend") || !strings.Contains(r.stdout, "\n1     rfe ") || !strings.Contains(r.stdout, "ranked by heldout") {
		t.Errorf("--no-recommendation: want the table of rfe and the ranking's basis alone:\n%s", r.stdout)
	}
}
