package dataio

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/internal/race"
)

// TestRepeatedHeaderAnyOrder is a property test of the repeated-header
// rule: for random headers (the three wanted columns among extra ones, in
// random order and case) and a random number of rows (enough, at times,
// for the parallel block readers), a line repeating the header in any
// other column order, case, and with or without a byte order mark, is
// refused naming its line, in CSV and TSV, plain and gzip-compressed, and
// in JSON Lines (whose header is its wanted keys); without it the file is
// read.
func TestRepeatedHeaderAnyOrder(t *testing.T) {
	extras := []string{"comment", "score", "time", "Source", "id"}
	seeds := uint64(60)
	if race.Enabled {
		seeds = 12 // each seed reads eight files
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(seed, 42))
		cols := append([]string{"task", "worker", "label"}, extras[:r.IntN(len(extras)+1)]...)
		r.Shuffle(len(cols), func(i, j int) { cols[i], cols[j] = cols[j], cols[i] })
		header := make([]string, len(cols))
		for i, c := range cols {
			header[i] = randomCase(r, c)
		}
		rows := 1 + r.IntN(3000)
		at := r.IntN(rows) // the repeated header comes before data row at
		again := append([]string(nil), cols...)
		for equalSlices(again, cols) && len(cols) > 1 {
			r.Shuffle(len(again), func(i, j int) { again[i], again[j] = again[j], again[i] })
		}
		for i, c := range again {
			again[i] = randomCase(r, c)
		}
		if r.IntN(2) == 0 {
			again[0] = "\ufeff" + again[0]
		}
		for _, sep := range []string{",", "\t"} {
			var with, without bytes.Buffer
			with.WriteString(strings.Join(header, sep) + "\n")
			without.WriteString(strings.Join(header, sep) + "\n")
			for i := range rows {
				if i == at {
					with.WriteString(strings.Join(again, sep) + "\n")
				}
				cells := make([]string, len(cols))
				for k, c := range cols {
					cells[k] = fmt.Sprintf("%s%d", c[:1], (i*7+k)%997)
				}
				line := strings.Join(cells, sep) + "\n"
				with.WriteString(line)
				without.WriteString(line)
			}
			name := map[string]string{",": "in.csv", "\t": "in.tsv"}[sep]
			want := fmt.Sprintf("%s:%d: the row repeats the header", name, at+2)
			checkRepeated(t, seed, name, with.Bytes(), want)
			if _, err := ReadLabelsAs(ctx, bytes.NewReader(without.Bytes()), name, "", ReadSettings{}); err != nil {
				t.Errorf("seed %d: %s without the repeated header: %v", seed, name, err)
			}
		}
		var jl bytes.Buffer
		keys := []string{"task", "worker", "label"}
		perm := r.Perm(3)
		if perm[0] == 0 && perm[1] == 1 {
			perm[0], perm[1] = 1, 0
		}
		for i := range rows {
			if i == at {
				fmt.Fprintf(&jl, `{"task":%q,"worker":%q,"label":%q}`+"\n",
					randomCase(r, keys[perm[0]]), randomCase(r, keys[perm[1]]), randomCase(r, keys[perm[2]]))
			}
			fmt.Fprintf(&jl, `{"task":"t%d","comment":"worker","worker":"w%d","label":"l%d"}`+"\n", i%97, i%13, i%3)
		}
		checkRepeated(t, seed, "in.jsonl", jl.Bytes(), fmt.Sprintf("in.jsonl:%d: ", at+1))
	}
}

// checkRepeated reads b as name, plain and gzip-compressed, and wants an
// error starting with want that says the row repeats the header.
func checkRepeated(t *testing.T, seed uint64, name string, b []byte, want string) {
	t.Helper()
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	for n, in := range map[string][]byte{name: b, name + ".gz": z.Bytes()} {
		w := strings.Replace(want, name, n, 1)
		_, err := ReadLabelsAs(ctx, bytes.NewReader(in), n, "", ReadSettings{})
		if err == nil || !strings.HasPrefix(err.Error(), w) || !strings.Contains(err.Error(), "repeats the header") {
			t.Errorf("seed %d: %s: %v, want %q", seed, n, err, w)
		}
	}
}

func randomCase(r *rand.Rand, s string) string {
	switch r.IntN(3) {
	case 0:
		return strings.ToUpper(s)
	case 1:
		return strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

func equalSlices(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}
