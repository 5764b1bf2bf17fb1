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

var update = flag.Bool("update", false, "write vb_object_gen.go from vb_object.tmpl")

// objectForm is one K's form of the update in vb_object.tmpl.
type objectForm struct {
	K int
}

// Last is K − 1, the offset of a label's last class.
func (f objectForm) Last() int { return f.K - 1 }

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

// MaxOf writes max(max(0, t_0), t_1)... for the terms t_z of format.
func (f objectForm) MaxOf(format string) string {
	s := "0"
	for z := range f.K {
		s = fmt.Sprintf("max(%s, %s)", s, fmt.Sprintf(format, z))
	}
	return s
}

// objectSource returns vb_object.tmpl's output for K = 2, 3 and 4,
// formatted as gofmt does.
func objectSource() ([]byte, error) {
	text, err := os.ReadFile("vb_object.tmpl")
	if err != nil {
		return nil, err
	}
	t, err := template.New("vb_object.tmpl").Parse(string(text))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, []objectForm{{2}, {3}, {4}}); err != nil {
		return nil, err
	}
	src := strings.ReplaceAll(b.String(), "[i+0]", "[i]")
	return format.Source([]byte(src))
}

// TestObjectGenerated checks that vb_object_gen.go is what vb_object.tmpl
// gives; with -update it writes the file instead.
func TestObjectGenerated(t *testing.T) {
	want, err := objectSource()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("vb_object_gen.go", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("vb_object_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("vb_object_gen.go is not vb_object.tmpl's output: go test ./model/vb -run TestObjectGenerated -update")
	}
}
