package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestReadTable reads the same table in every format, plain and
// gzip-compressed, with a fixed column and the columns Columns.More picks
// from the header, and checks the cells and the line of every row.
func TestReadTable(t *testing.T) {
	cols := Columns{
		Names: []string{"WORKER"}, // matched ignoring case
		More: func(header []string) (names, roles []string, err error) {
			for _, h := range header {
				if h != "worker" {
					names = append(names, h)
				}
			}
			return names, []string{"first", "second"}, nil
		},
	}
	var want []string
	for _, r := range labelRows {
		want = append(want, r[1]+"|"+r[0]+"|"+r[2])
	}
	for _, f := range Formats() {
		for _, z := range []bool{false, true} {
			in := encode(t, f, labelRows)
			name := "t." + string(f)
			if z {
				in, name = gz(t, in), name+".gz"
			}
			var got []string
			var lines []int
			err := ReadTable(ctx, bytes.NewReader(in), name, "", ReadSettings{}, cols, func(cells []string, line int) error {
				got = append(got, strings.Join(cells, "|"))
				lines = append(lines, line)
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: rows %q, want %q", name, got, want)
			}
			first := 1
			if f == CSV || f == TSV {
				first = 2 // after the header
			}
			if lines[0] != first || lines[len(lines)-1] != first+len(labelRows)-1 {
				t.Errorf("%s: lines %v", name, lines)
			}
		}
	}
}

// TestReadTableErrors checks that the errors of a table's header, of the
// row function and of the limits are *InputErrors naming the file and the
// line.
func TestReadTableErrors(t *testing.T) {
	errBad := errors.New("bad row")
	more := func(header []string) ([]string, []string, error) {
		return nil, nil, fmt.Errorf("no column for %d header names", len(header))
	}
	for _, tc := range []struct {
		name, in string
		cols     Columns
		row      func([]string, int) error
		opt      ReadSettings
		want     string
		is       error
	}{
		{"more.csv", "\n" + "a,b\n1,2\n", Columns{More: more}, nil, ReadSettings{}, "more.csv:2: the columns are 'a', 'b': no column for 2 header names", nil},
		{"more.jsonl", "\n" + `{"a":1}` + "\n", Columns{More: more}, nil, ReadSettings{}, "more.jsonl:2: the columns are 'a': no column for 1 header names", nil},
		{"row.csv", "a\n1\n2\n", Columns{Names: []string{"a"}}, func(c []string, _ int) error {
			if c[0] == "2" {
				return errBad
			}
			return nil
		}, ReadSettings{}, "row.csv:3: bad row", errBad},
		{"row.tsv", "a\tb\n1\t2\n", Columns{Names: []string{"b"}}, func(c []string, l int) error {
			return &InputError{File: "other", Line: 9, Msg: "kept as it is"}
		}, ReadSettings{}, "other:9: kept as it is", nil},
		{"missing.csv", "a,b\n1,2\n", Columns{Names: []string{"c"}}, nil, ReadSettings{}, "missing.csv:1: header has 2 columns 'a', 'b' but no 'c' column", nil},
		{"empty.jsonl", "\n", Columns{Names: []string{"a"}}, nil, ReadSettings{}, "empty.jsonl: no records", nil},
		{"big.csv", "a\n" + strings.Repeat("1\n", 1<<16), Columns{Names: []string{"a"}}, nil, ReadSettings{MaxMemory: 1 << 16}, "big.csv:", ErrLimit},
	} {
		row := tc.row
		if row == nil {
			row = func([]string, int) error { return nil }
		}
		err := ReadTable(ctx, strings.NewReader(tc.in), tc.name, "", tc.opt, tc.cols, row)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want an *InputError starting %q", tc.name, err, tc.want)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: error %v does not wrap %v", tc.name, err, tc.is)
		}
	}
}
