package model

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestTypedErrors checks that the errors a program may act on are typed
// (errors.Is finds them) and that no library message names a flag of the
// command line, which adds its own advice.
func TestTypedErrors(t *testing.T) {
	one, err := data.FromIndices([]string{"t1", "t2"}, []string{"a", "b"}, []string{"x"},
		[]int32{0, 0, 1}, []int32{0, 1, 0}, []uint16{0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	two, err := data.FromIndices([]string{"t1", "t2"}, []string{"a", "b"}, []string{"x", "y"},
		[]int32{0, 0, 1}, []int32{0, 1, 0}, []uint16{0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	fit := func(name string, d *data.Dataset) error {
		est, err := ByName(name)
		if err != nil {
			return err
		}
		_, err = est.Fit(context.Background(), d, &Settings{Threads: 1})
		return err
	}
	for _, tc := range []struct {
		name string
		err  error
		want error
		text string
	}{
		{"unknown model", fit("nope", two), ErrUnknownModel, `unknown model "nope" (valid: rfe,`},
		{"one class, rfe", fit("rfe", one), ErrOneClass, "only one class (x) in the data: a consensus needs at least two classes"},
		{"one class, la-ds", fit("la-ds", one), ErrOneClass, "only one class (x)"},
		{"one class, vb-da-ds", fit("vb-da-ds", one), ErrOneClass, "only one class (x)"},
		{"one class, hda-glad", fit("hda-glad", one), ErrOneClass, "only one class (x)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.want) {
				t.Fatalf("error %v is not %v", tc.err, tc.want)
			}
			if msg := tc.err.Error(); !strings.Contains(msg, tc.text) || strings.Contains(msg, "--") {
				t.Errorf("error %q: want %q and no flag name", msg, tc.text)
			}
		})
	}
}
