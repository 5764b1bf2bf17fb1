package datasets

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNames(t *testing.T) {
	want := []string{"adult", "duchenne", "rte", "temp", "trec2010", "websearch"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %q, want %q", got, want)
	}
	dirs, err := fs.ReadDir(FS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	var embedded []string
	for _, d := range dirs {
		if d.IsDir() {
			embedded = append(embedded, d.Name())
		}
	}
	if !slices.Equal(embedded, want) {
		t.Errorf("embedded directories %q, want %q", embedded, want)
	}
}

// TestLoad checks every data set against the statistics of its SOURCE.md
// and of the paper's table.
func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		name                                     string
		classes, tasks, workers, labels, gold    int
		classNames                               []string
		dupPairs, dupLabels, conflicts, min, max int
	}{
		{"duchenne", 2, 2134, 64, 30319, 159, []string{"0", "1"}, 6446, 12590, 1558, 5, 20},
		{"websearch", 5, 2665, 177, 15567, 2653, []string{"1", "2", "3", "4", "5"}, 0, 0, 0, 1, 12},
		{"trec2010", 3, 20026, 762, 91783, 3275, []string{"0", "1", "2"}, 1314, 1345, 244, 1, 15},
		{"rte", 2, 800, 164, 8000, 800, []string{"0", "1"}, 0, 0, 0, 10, 10},
		{"temp", 2, 462, 76, 4620, 462, []string{"1", "2"}, 0, 0, 0, 10, 10},
		{"adult", 4, 11040, 825, 92721, 333, []string{"G", "P", "R", "X"}, 2918, 2922, 149, 1, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, g, err := Load(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Validate(); err != nil {
				t.Fatal(err)
			}
			if d.Name != tc.name {
				t.Errorf("Name %q", d.Name)
			}
			s := d.Stats()
			if s.Classes != tc.classes || s.Tasks != tc.tasks || s.Workers != tc.workers || s.Labels != tc.labels || g.Len() != tc.gold {
				t.Errorf("K=%d objects=%d workers=%d labels=%d gold=%d, want %d/%d/%d/%d/%d",
					s.Classes, s.Tasks, s.Workers, s.Labels, g.Len(),
					tc.classes, tc.tasks, tc.workers, tc.labels, tc.gold)
			}
			if !slices.Equal(d.Classes, tc.classNames) {
				t.Errorf("classes %q, want %q", d.Classes, tc.classNames)
			}
			if g.Unmatched != 0 {
				t.Errorf("%d unmatched gold tasks", g.Unmatched)
			}
			if s.DuplicatePairs != tc.dupPairs || s.DuplicateLabels != tc.dupLabels || s.ConflictingPairs != tc.conflicts {
				t.Errorf("duplicates %d pairs, %d extra labels, %d conflicting; want %d, %d, %d",
					s.DuplicatePairs, s.DuplicateLabels, s.ConflictingPairs, tc.dupPairs, tc.dupLabels, tc.conflicts)
			}
			if s.MinLabelsPerTask != tc.min || s.MaxLabelsPerTask != tc.max {
				t.Errorf("labels per task in [%d, %d], want [%d, %d]", s.MinLabelsPerTask, s.MaxLabelsPerTask, tc.min, tc.max)
			}
			in, err := Describe(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if in.Classes != s.Classes || in.Tasks != s.Tasks || in.Workers != s.Workers || in.Labels != s.Labels || in.Gold != g.Len() {
				t.Errorf("Describe = %+v disagrees with the data", in)
			}
			src, err := Source(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(src, "# "+tc.name+":") || !strings.Contains(src, "## Licence") {
				t.Errorf("SOURCE.md of %s lacks its title or licence section", tc.name)
			}
		})
	}
}

func TestUnknown(t *testing.T) {
	for _, f := range []func() error{
		func() error { _, _, err := Load("price"); return err },
		func() error { _, err := Source("price"); return err },
		func() error { _, err := Describe("price"); return err },
	} {
		err := f()
		if err == nil || !strings.Contains(err.Error(), `"price"`) || !strings.Contains(err.Error(), "adult, duchenne, rte, temp, trec2010, websearch") {
			t.Errorf("error %v", err)
		}
	}
	if in, err := Describe("RTE"); err != nil || in.Name != "rte" {
		t.Errorf("Describe(RTE) = %v, %v", in, err)
	}
}

// TestDeterministicGzip checks that the embedded files carry no name or time
// stamp, so that regenerating them gives the same bytes.
func TestDeterministicGzip(t *testing.T) {
	matches, err := fs.Glob(FS(), "*/*.gz")
	if err != nil {
		t.Fatal(err)
	}
	if len(matches) != 12 {
		t.Errorf("%d compressed files, want 12", len(matches))
	}
	for _, m := range matches {
		b, err := fs.ReadFile(FS(), m)
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if z.Name != "" || z.Comment != "" || !z.ModTime.Equal(time.Time{}) && z.ModTime.Unix() != 0 {
			t.Errorf("%s: gzip header has name %q, comment %q, time %v", m, z.Name, z.Comment, z.ModTime)
		}
	}
	if _, err := fs.Stat(FS(), "README.md"); err != nil {
		t.Error(err)
	}
}
