package docscheck

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is the module root, two levels above this package.
const root = "../.."

func load(t *testing.T) (*Code, []Page) {
	t.Helper()
	code, err := ParseModule(root)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := ReadPages(root)
	if err != nil {
		t.Fatal(err)
	}
	return code, pages
}

// TestIdentifiers checks that every Go reference quoted in the docs
// (`pkg.Name`, `Type.Member`, `pkg.Type.Member`, and test, benchmark, fuzz
// and example names) names something the code declares.
func TestIdentifiers(t *testing.T) {
	code, pages := load(t)
	refs := code.Identifiers(pages)
	if len(refs) < 50 {
		t.Fatalf("found only %d Go references in the docs: the extraction is broken", len(refs))
	}
	var missing []string
	for _, r := range refs {
		if why := code.Resolve(r); why != "" {
			missing = append(missing, r.String()+": "+why)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d of the %d Go references quoted in the docs name nothing in the code (rename or remove them):\n\t%s",
			len(missing), len(refs), strings.Join(missing, "\n\t"))
	}
}

// TestErrorMessages checks that every error message quoted in the docs is
// one the code can print: each of its words, outside quoted values and the
// leading file name, comes from a string literal of the code whose
// formatting verbs match the message's values.
func TestErrorMessages(t *testing.T) {
	code, pages := load(t)
	if err := code.AddDependencies(root); err != nil {
		t.Fatal(err)
	}
	if err := code.AddPython(root); err != nil {
		t.Fatal(err)
	}
	msgs := Messages(pages)
	if len(msgs) < 30 {
		t.Fatalf("found only %d quoted error messages in the docs: the extraction is broken", len(msgs))
	}
	formats, values := code.Formats(3), code.Values()
	var missing []string
	for _, m := range msgs {
		if words := Uncovered(m.Text, formats, values); len(words) > 0 {
			missing = append(missing, m.String()+"\n\t\twords no literal of the code accounts for: "+strings.Join(words, ", "))
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d of the %d error messages quoted in the docs are not ones the code prints (copy them from a run):\n\t%s",
			len(missing), len(msgs), strings.Join(missing, "\n\t"))
	}
}

// TestUncovered checks the message matcher on messages whose answer is
// known.
func TestUncovered(t *testing.T) {
	code := &Code{Strings: []string{
		"too few fields: the row has %d, the header has %d",
		"label %q is not one of the classes %s (given with --classes)",
		"%s: %v",
	}}
	formats := code.Formats(3)
	values := map[string]bool{"la": true, "ds": true}
	for _, tc := range []struct {
		msg  string
		want string
	}{
		{"few.csv:3: too few fields: the row has 2, the header has 3", ""},
		{`in.csv:3: label "y" is not one of the classes x,z (given with --classes)`, ""},
		{"few.csv:3: too many fields: the row has 2, the header has 3", "too,many,fields"},
		{"few.csv:3: too few fields: the row has 2, the header has 3 (la-ds, la-glad)", "glad"},
		{"few.csv:3: too few fields: the row has 2, the header has 3; quote it", "quote"},
		{"consensus: x.csv: something else entirely", "something,else,entirely"},
	} {
		got := strings.Join(Uncovered(tc.msg, formats, values), ",")
		if got != tc.want {
			t.Errorf("Uncovered(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}

// Budgets of the docs, in bytes of Markdown. The images under docs/figures
// are not counted: only .md files are.
const (
	docsBudget        = 154_000
	performanceBudget = 25_000
)

// TestSizes checks that docs/ stays a set of pages a reader can finish: its
// Markdown within docsBudget in all, performance.md within
// performanceBudget.
func TestSizes(t *testing.T) {
	total := 0
	var sizes []string
	perf := -1
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "docs/performance.md" {
			perf = int(info.Size())
		}
		sizes = append(sizes, fmt.Sprintf("%s %d", rel, info.Size()))
		total += int(info.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total > docsBudget {
		t.Errorf("docs/ holds %d bytes of Markdown, over its budget of %d (images are not counted):\n\t%s",
			total, docsBudget, strings.Join(sizes, "\n\t"))
	}
	switch {
	case perf < 0:
		t.Errorf("docs/performance.md is missing")
	case perf > performanceBudget:
		t.Errorf("docs/performance.md is %d bytes, over its budget of %d", perf, performanceBudget)
	}
}

// TestLinks checks that every relative link of the docs leads somewhere: a
// page that exists, a heading or anchor it has, or a file (an image, a
// script) of the module.
func TestLinks(t *testing.T) {
	_, pages := load(t)
	exists := func(p string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		return err == nil
	}
	if broken := BrokenLinks(pages, exists); len(broken) > 0 {
		t.Errorf("%d links of the docs lead nowhere:\n\t%s", len(broken), strings.Join(broken, "\n\t"))
	}
}

// TestSlug checks heading anchors against GitHub's on headings of these
// pages.
func TestSlug(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"The default, `vb-ds`: both answers", "the-default-vb-ds-both-answers"},
		{"`--model auto` and the recommendation", "--model-auto-and-the-recommendation"},
		{"Known workers: a start, or held (`--init-workers`, `--fix-workers`)", "known-workers-a-start-or-held---init-workers---fix-workers"},
		{"Crowd-Kit's metrics", "crowd-kits-metrics"},
	} {
		if got := Slug(tc.heading); got != tc.want {
			t.Errorf("Slug(%q) = %q, want %q", tc.heading, got, tc.want)
		}
	}
}
