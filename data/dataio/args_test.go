package dataio

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestNilArguments checks that the readers given a nil reader, or
// ReadTable a nil row function, return an error wrapping ErrArgument that
// names the input, in every format, instead of panicking.
func TestNilArguments(t *testing.T) {
	ctx := context.Background()
	d, err := ReadLabels(ctx, strings.NewReader("task,worker,label\nt1,w1,a\nt1,w2,b\n"), "l.csv", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	row := func([]string, int) error { return nil }
	cols := Columns{Names: []string{"task"}}
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"labels", func() error { _, err := ReadLabels(ctx, nil, "l.csv", ReadSettings{}); return err }, "no reader of l.csv"},
		{"labels/csv", func() error { _, err := ReadLabelsAs(ctx, nil, "l", CSV, ReadSettings{}); return err }, "no reader of l"},
		{"labels/jsonl", func() error { _, err := ReadLabelsAs(ctx, nil, "l.jsonl", "", ReadSettings{}); return err }, "no reader of l.jsonl"},
		{"labels/parquet", func() error { _, err := ReadLabelsAs(ctx, nil, "", Parquet, ReadSettings{}); return err }, "no reader of <input>"},
		{"gold", func() error { _, err := ReadGold(ctx, nil, "g.csv", d, ReadSettings{}); return err }, "no reader of g.csv"},
		{"gold/tsv", func() error { _, err := ReadGoldAs(ctx, nil, "-", TSV, d, ReadSettings{}); return err }, "no reader of <stdin>"},
		{"table/reader", func() error { return ReadTable(ctx, nil, "t.csv", "", ReadSettings{}, cols, row) }, "no reader of t.csv"},
		{"table/row", func() error {
			return ReadTable(ctx, strings.NewReader("task\nt1\n"), "t.csv", "", ReadSettings{}, cols, nil)
		}, "no row function to read t.csv"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			if !errors.Is(err, ErrArgument) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one wrapping ErrArgument with %q", err, c.want)
			}
		})
	}
}
