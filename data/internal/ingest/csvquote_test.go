package ingest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

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
// (CSVRecords) on random text of quotes, separators, line ends and white
// space: where encoding/csv without LazyQuotes finds no quote inside an
// unquoted cell, CSVRecords gives its records, positions and errors;
// where it does, CSVRecords reads the records before that one alike and
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
			got := readAll(NewCSVReader(strings.NewReader(in), sep, trim))
			slow := readAll(NewCSVReader(iotest.OneByteReader(strings.NewReader(in)), sep, trim))
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
		cr := NewCSVReader(io.MultiReader(bytes.NewReader([]byte(in)), iotestErr{fire}), ',', true)
		if got := readAll(cr); !strings.HasSuffix(got, "error disk on fire") {
			t.Errorf("%q: read %s, want the read error", in, got)
		}
	}
}

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }
