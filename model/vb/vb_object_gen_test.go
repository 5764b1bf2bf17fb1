package vb

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"strings"
	"testing"
	"text/template"
)

var update = flag.Bool("update", false, "write vb_object_gen.go and vb_la_gen.go from their templates")

// generated lists the templates of the scalar forms of the updates and the
// files written out from them.
var generated = []struct{ template, file string }{
	{"vb_object.tmpl", "vb_object_gen.go"}, // vbDA's
	{"vb_la.tmpl", "vb_la_gen.go"},         // vbLA's
}

// objectForm is one K's form of an update in a template of generated.
type objectForm struct {
	K int
}

// Last is K − 1, the offset of a label's last class.
func (f objectForm) Last() int { return f.K - 1 }

// K2 is K², the stride of a worker's rows in a noise model's table.
func (f objectForm) K2() int { return f.K * f.K }

// Classes lists 0, …, K−1.
func (f objectForm) Classes() []int {
	z := make([]int, f.K)
	for i := range z {
		z[i] = i
	}
	return z
}

// Pad has one element for every class short of four.
func (f objectForm) Pad() []struct{} { return make([]struct{}, 4-f.K) }

// Each writes format for z = 0, …, K−1 (z as every verb's argument),
// joined by sep; a format without a verb is repeated as it is.
func (f objectForm) Each(format, sep string) string {
	parts := make([]string, f.K)
	for z := range parts {
		parts[z] = format
		if strings.Contains(format, "%") {
			parts[z] = fmt.Sprintf(format, z)
		}
	}
	return strings.Join(parts, sep)
}

// MaxNaNOf writes maxNaN(maxNaN(0, t_0), t_1)... for the terms t_z of
// format.
func (f objectForm) MaxNaNOf(format string) string {
	s := "0"
	for z := range f.K {
		s = fmt.Sprintf("maxNaN(%s, %s)", s, fmt.Sprintf(format, z))
	}
	return s
}

// objectSource returns the output of the template name for K = 2, 3 and
// 4, formatted as gofmt does.
func objectSource(name string) ([]byte, error) {
	text, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	t, err := template.New(name).Parse(string(text))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, []objectForm{{2}, {3}, {4}}); err != nil {
		return nil, err
	}
	src := strings.NewReplacer("[i+0]", "[i]", "[at+0]", "[at]").Replace(b.String())
	return format.Source([]byte(src))
}

// TestObjectGenerated checks that every file of generated is what its
// template gives; with -update it writes the files instead.
func TestObjectGenerated(t *testing.T) {
	for _, g := range generated {
		want, err := objectSource(g.template)
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(g.file, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(g.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not %s's output: go test ./model/vb -run TestObjectGenerated -update", g.file, g.template)
		}
	}
}
