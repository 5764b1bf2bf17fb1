package dataio

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// readAll returns the records of in, each with its field positions, and
// the error that ends them, as text.
func readAll(cr interface {
	Read() ([]string, error)
	FieldPos(int) (int, int)
}) string {
	var b strings.Builder
	for {
		rec, err := cr.Read()
		if err != nil {
			fmt.Fprintf(&b, "error %v", err)
			return b.String()
		}
		for i, f := range rec {
			l, c := cr.FieldPos(i)
			fmt.Fprintf(&b, "%d:%d %q ", l, c, f)
		}
		b.WriteString("\n")
	}
}

// TestCSVRecordsQuoteRule is a property test of the rule of quotes
// (csvRecords) on random text of quotes, separators, line ends and white
// space: where encoding/csv without LazyQuotes finds no quote inside an
// unquoted cell, csvRecords gives its records, positions and errors;
// where it does, csvRecords reads the records before that one alike and
// never refuses a quote inside an unquoted cell. Reading a byte at a time
// gives the same.
func TestCSVRecordsQuoteRule(t *testing.T) {
	atoms := []string{"a", "b", "\"", "\"", ",", "\t", "\n", "\r", "\r\n", " ", "\u00a0", "\u00e9", "\xff", "\xc3", "§"}
	for seed := range uint64(4000) {
		r := rand.New(rand.NewPCG(seed, 42))
		var b strings.Builder
		for range 1 + r.IntN(30) {
			b.WriteString(atoms[r.IntN(len(atoms))])
		}
		in := b.String()
		for _, sep := range []rune{',', '\t', '§'} {
			trim := sep == ','
			strict := csv.NewReader(strings.NewReader(in))
			strict.Comma, strict.FieldsPerRecord, strict.TrimLeadingSpace = sep, -1, trim
			want := readAll(strict)
			got := readAll(newCSVReader(strings.NewReader(in), sep, trim))
			slow := readAll(newCSVReader(iotest.OneByteReader(strings.NewReader(in)), sep, trim))
			if got != slow {
				t.Fatalf("%q sep %q: a byte at a time reads\n%s\nwant\n%s", in, sep, slow, got)
			}
			if strings.Contains(got, "bare \"") {
				t.Fatalf("%q sep %q: %s", in, sep, got)
			}
			if i := strings.Index(want, "bare \""); i >= 0 {
				before := want[:strings.LastIndexByte(want[:i], '\n')+1]
				if !strings.HasPrefix(got, before) {
					t.Fatalf("%q sep %q: read\n%s\nwant records\n%s", in, sep, got, before)
				}
				continue
			}
			if got != want {
				t.Fatalf("%q sep %q: read\n%s\nwant\n%s", in, sep, got, want)
			}
		}
	}
}

// TestCSVRecordsReadError checks that an error of the input reaches the
// records' reader as it is, inside a quoted cell too.
func TestCSVRecordsReadError(t *testing.T) {
	fire := errors.New("disk on fire")
	for _, in := range []string{"a,b\n1,2", "a,b\n1,\"2\n3", "a,b\n1,2\"x"} {
		cr := newCSVReader(io.MultiReader(bytes.NewReader([]byte(in)), iotestErr{fire}), ',', true)
		if got := readAll(cr); !strings.HasSuffix(got, "error disk on fire") {
			t.Errorf("%q: read %s, want the read error", in, got)
		}
	}
}

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }

// TestQuoteInsideUnquotedCell reads quotes inside unquoted cells, in a
// wanted and an ignored column, on lines the tokenizer takes and after a
// cell over two lines sends the rest to encoding/csv, in CSV and TSV,
// row by row and in blocks on one and two goroutines: each reads the cell
// as its text, as Python's csv module and pandas do.
func TestQuoteInsideUnquotedCell(t *testing.T) {
	cases := []struct {
		name, file, in string
		workers        []string
	}{
		{"ignored column", "sq.csv", "task,worker,label,comment\nt1,w1,a,5\" screen\nt1,w2,b,ok\n", []string{"w1", "w2"}},
		{"wanted column", "sq.csv", "task,worker,label,comment\nt1,5\" w,a,x\nt1,w2,b,\"o\"\"k\"\n", []string{"5\" w", "w2"}},
		{"after a cell over two lines", "sq.csv", "task,worker,label,comment\nt1,w1,a,\"two\nlines\"\nt1,w\"2\",b,5\" screen\n", []string{"w1", "w\"2\""}},
		{"TSV", "sq.tsv", "task\tworker\tlabel\tcomment\nt1\tw\"1\ta\t5\" screen\nt1\tw2\tb\t\"x\ny\"\n", []string{"w\"1", "w2"}},
	}
	defer func(old bool) { useFastCSV = old }(useFastCSV)
	defer func(old int) { ingest.ChunkThreads = old }(ingest.ChunkThreads)
	for _, c := range cases {
		for _, mode := range []struct {
			fast    bool
			threads int
		}{{false, 1}, {true, 1}, {true, 2}} {
			useFastCSV, ingest.ChunkThreads = mode.fast, mode.threads
			d, err := ReadLabels(ctx, strings.NewReader(c.in), c.file, ReadSettings{})
			if err != nil {
				t.Errorf("%s, fast path %v, %d goroutines: %v", c.name, mode.fast, mode.threads, err)
				continue
			}
			if !slices.Equal(d.Workers, c.workers) || !slices.Equal(d.Tasks, []string{"t1"}) || !slices.Equal(d.Classes, []string{"a", "b"}) {
				t.Errorf("%s, fast path %v, %d goroutines: read tasks %q workers %q classes %q, want workers %q",
					c.name, mode.fast, mode.threads, d.Tasks, d.Workers, d.Classes, c.workers)
			}
		}
	}
}
