package data

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestBuilder checks that a Builder gives the Dataset of FromIndices, with
// identifiers indexed in order of first appearance, whether the labels of
// each task come together or not, across chunk boundaries, and when Build
// is called twice with labels added in between, when the Builder
// frees its memory while building, as the readers have it do, and when it
// was reserved for more or fewer labels and tasks than it gets.
func TestBuilder(t *testing.T) {
	type row struct{ task, worker, label string }
	grouped := func(n, per int) []row {
		var rows []row
		for i := range n {
			rows = append(rows, row{"t" + strconv.Itoa(i/per), "w" + strconv.Itoa(i*7%13), strconv.Itoa(i * 5 % 3)})
		}
		return rows
	}
	scattered := func(n, tasks int) []row {
		var rows []row
		for i := range n {
			rows = append(rows, row{"t" + strconv.Itoa(i*7919%tasks), "w" + strconv.Itoa(i%11), strconv.Itoa(i % 12)})
		}
		return rows
	}
	for _, tc := range []struct {
		name    string
		rows    []row
		classes []string
		again   int // Build after this many rows as well
		at      int // reserve after this many rows, if reserve is set
		reserve [2]int
	}{
		{"grouped", grouped(20, 4), nil, 0, 0, [2]int{}},
		{"grouped-fixed", grouped(20, 4), []string{"2", "0", "1", "9"}, 0, 0, [2]int{}},
		{"one task", grouped(10, 10), nil, 0, 0, [2]int{}},
		{"comes back", append(grouped(12, 3), row{"t0", "w1", "1"}, row{"t9", "w1", "0"}), nil, 0, 0, [2]int{}},
		{"comes back at once", []row{{"a", "u", "x"}, {"b", "u", "y"}, {"a", "v", "x"}}, nil, 0, 0, [2]int{}},
		{"scattered", scattered(50, 7), nil, 0, 0, [2]int{}},
		{"grouped chunks", grouped(3*chunkLen+5, 2), nil, 0, 0, [2]int{}},
		{"scattered chunks", scattered(2*chunkLen+3, chunkLen+1), nil, 0, 0, [2]int{}},
		{"late scatter", append(grouped(chunkLen+7, 3), row{"t1", "w0", "0"}), nil, 0, 0, [2]int{}},
		{"build twice", append(grouped(20, 4), row{"t1", "w1", "1"}), nil, 10, 0, [2]int{}},
		{"build twice grouped", grouped(20, 4), nil, 9, 0, [2]int{}},
		{"reserved", grouped(3*chunkLen+5, 2), nil, 0, 10, [2]int{3*chunkLen + 5, 2 * chunkLen}},
		{"reserved too few", grouped(3*chunkLen+5, 2), nil, 0, 10, [2]int{chunkLen + 100, chunkLen + 10}},
		{"reserved after a chunk", grouped(3*chunkLen+5, 2), nil, 0, chunkLen + 10, [2]int{4 * chunkLen, 2 * chunkLen}},
		{"reserved, late scatter", append(grouped(chunkLen+7, 3), row{"t1", "w0", "0"}), nil, 0, 5, [2]int{chunkLen + 2, 10}},
		{"reserved, scattered", scattered(2*chunkLen+3, chunkLen+1), nil, 0, 100, [2]int{2 * chunkLen, chunkLen}},
		{"reserved, build twice", append(grouped(3*chunkLen, 4), row{"t1", "w1", "1"}), nil, chunkLen, 10, [2]int{3 * chunkLen, chunkLen}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := NewBuilder(tc.classes)
			if err != nil {
				t.Fatal(err)
			}
			var tasks, workers, raw []string
			var task, worker []int32
			var label []uint16
			seen := map[*[]string]map[string]int{}
			at := func(list *[]string, s string) int { // the index of s in list, added if new
				if seen[list] == nil {
					seen[list] = map[string]int{}
				}
				i, ok := seen[list][s]
				if !ok {
					i = len(*list)
					seen[list][s] = i
					*list = append(*list, s)
				}
				return i
			}
			for _, c := range tc.classes {
				at(&raw, c)
			}
			want := func() *Dataset {
				classes := append([]string(nil), raw...)
				if tc.classes == nil {
					SortClasses(classes)
				}
				pos := map[string]int{}
				for i, c := range classes {
					pos[c] = i
				}
				l := make([]uint16, len(label))
				for i, k := range label {
					l[i] = uint16(pos[raw[k]])
				}
				d, err := FromIndices(tasks, workers, classes, task, worker, l)
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			check := func(n int, consume bool) {
				t.Helper()
				got, err := b.build(consume)
				if err != nil {
					t.Fatal(err)
				}
				if w := want(); !reflect.DeepEqual(got, w) {
					t.Fatalf("after %d rows: Build differs from FromIndices:\ngot  %v %v %v %v\nwant %v %v %v %v", n,
						got.Tasks, got.Offsets, got.Worker, got.Label, w.Tasks, w.Offsets, w.Worker, w.Label)
				}
			}
			for i, r := range tc.rows {
				if tc.again > 0 && i == tc.again {
					check(i, false)
				}
				if tc.reserve[0] > 0 && i == tc.at {
					b.reserve(tc.reserve[0], tc.reserve[1])
				}
				if err := b.Add(r.task, r.worker, r.label); err != nil {
					t.Fatal(err)
				}
				task = append(task, int32(at(&tasks, r.task)))
				worker = append(worker, int32(at(&workers, r.worker)))
				label = append(label, uint16(at(&raw, r.label)))
			}
			if b.Len() != len(tc.rows) {
				t.Errorf("Len() = %d, want %d", b.Len(), len(tc.rows))
			}
			check(len(tc.rows), false)
			check(len(tc.rows), true) // as the readers build
		})
	}
}

// TestLoadLabelsReserved checks that reading a file, plain or
// gzip-compressed, which sizes the Builder from the size of the file's text
// after the first block (reserveFor), gives
// the Dataset of reading the same bytes from memory, which does not: with
// small blocks, on one and two goroutines, for files grouped by task (the
// estimate from the first block is close), with tasks that come back (the
// task estimate is high), with ids that grow longer (the estimate of
// labels is high at first) and with ids that grow shorter (later blocks
// hold more rows than the first, for which the rows' slab was cut).
func TestLoadLabelsReserved(t *testing.T) {
	defer func(old int) { chunkSize = old }(chunkSize)
	defer func(old int) { chunkThreads = old }(chunkThreads)
	files := map[string]func(i int) string{
		"grouped":   func(i int) string { return fmt.Sprintf("t%d,w%d,%d\n", i/5, i*7919%97, i*i%3) },
		"scattered": func(i int) string { return fmt.Sprintf("t%d,w%d,%d\n", i*31%1013, i%50, i%2) },
		"growing":   func(i int) string { return fmt.Sprintf("%s,w%d,%d\n", strings.Repeat("t", 1+i/5000), i%7, i%2) },
		"shrinking": func(i int) string {
			return fmt.Sprintf("%s,w%d,%d\n", strings.Repeat("t", 1+(chunkLen+5000-i)/5000), i%7, i%2)
		},
	}
	for name, row := range files {
		var buf bytes.Buffer
		buf.WriteString("task,worker,label\n")
		for i := range chunkLen + 5000 { // more than a column's first chunk
			buf.WriteString(row(i))
		}
		// The gzip-compressed file is sized by its trailer (inputSize).
		dir := t.TempDir()
		for path, content := range map[string][]byte{
			filepath.Join(dir, name+".csv"):    buf.Bytes(),
			filepath.Join(dir, name+".csv.gz"): gz(t, buf.Bytes()),
		} {
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, threads := range []int{1, 2} {
				for _, size := range []int{64, 4096, 1 << 20} {
					chunkThreads, chunkSize = threads, size
					got, err := LoadLabels(path, "", ReadOptions{})
					if err != nil {
						t.Fatal(err)
					}
					want, err := ReadLabels(bytes.NewReader(buf.Bytes()), path, ReadOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s, %d goroutines, blocks of %d bytes: the file and the same bytes in memory read differently", filepath.Base(path), threads, size)
					}
				}
			}
		}
	}
}

// TestInputSize checks the size of the text that the readers size the
// Builder for: a regular file's size, the size a gzip file's trailer
// records when it is at least the file's and at most maxSizingRatio times
// it, and 0 (not known) for what is not a regular file, for a gzip file
// whose last member is smaller than the file, and for an empty gzip file.
func TestInputSize(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("task,worker,label\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "t%d,w%d,%d\n", i*7919%1009, i*31%97, i%3)
	}
	text := b.Bytes()
	one := gz(t, text)
	many := append(append([]byte(nil), one...), gz(t, []byte("t2,w2,b\n"))...)
	// The trailer of a file with bytes after its gzip stream, as read.
	huge := append(append([]byte(nil), one...), 0xff, 0xff, 0xff, 0x7f)
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		content []byte
		want    int64
	}{
		{"plain", text, int64(len(text))},
		{"gzip", one, int64(len(text))},
		{"gzip, two members", many, 0},
		{"gzip, bytes after it", huge, maxSizingRatio * int64(len(huge))},
		{"gzip, empty", gz(t, nil), 0},
		{"empty", nil, 0},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", ""))
		if err := os.WriteFile(path, tc.content, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := inputSize(f); got != tc.want {
			t.Errorf("%s: inputSize = %d, want %d", tc.name, got, tc.want)
		}
		f.Close()
		if got := inputSize(bytes.NewReader(tc.content)); got != 0 {
			t.Errorf("%s in memory: inputSize = %d, want 0", tc.name, got)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if got := inputSize(r); got != 0 {
		t.Errorf("a pipe: inputSize = %d, want 0", got)
	}
}

// TestLoadOtherFormatsReserved reads files in JSON Lines (plain and
// gzip-compressed) and Parquet, which size the Builder from the file after
// its first chunkLen labels (JSON Lines by the bytes of text read, Parquet
// by the rows the file declares), and
// compares the Datasets with the CSV read of the same rows: grouped,
// scattered and growing ids, Parquet page by page and value by value.
func TestLoadOtherFormatsReserved(t *testing.T) {
	defer func(old bool) { useParquetPages = old }(useParquetPages)
	files := map[string]func(i int) pqString{
		"grouped": func(i int) pqString {
			return pqString{fmt.Sprint("t", i/5), fmt.Sprint("w", i*7919%97), fmt.Sprint(i * i % 3)}
		},
		"scattered": func(i int) pqString {
			return pqString{fmt.Sprint("t", i*31%1013), fmt.Sprint("w", i%50), fmt.Sprint(i % 2)}
		},
		"growing": func(i int) pqString {
			return pqString{strings.Repeat("t", 1+i/5000), fmt.Sprint("w", i%7), fmt.Sprint(i % 2)}
		},
	}
	dir := t.TempDir()
	for name, row := range files {
		var csv, jsonl bytes.Buffer
		csv.WriteString("task,worker,label\n")
		rows := make([]pqString, chunkLen+5000) // more than a column's first chunk
		for i := range rows {
			rows[i] = row(i)
			fmt.Fprintf(&csv, "%s,%s,%s\n", rows[i].Task, rows[i].Worker, rows[i].Label)
			fmt.Fprintf(&jsonl, `{"task":%q,"worker":%q,"label":%q}`+"\n", rows[i].Task, rows[i].Worker, rows[i].Label)
		}
		want, err := ReadLabels(bytes.NewReader(csv.Bytes()), name+".csv", ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for ext, content := range map[string][]byte{"jsonl": jsonl.Bytes(), "jsonl.gz": gz(t, jsonl.Bytes()), "parquet": parquetOf(t, rows)} {
			path := filepath.Join(dir, name+"."+ext)
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, pages := range []bool{true, false} {
				useParquetPages = pages
				got, err := LoadLabels(path, "", ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				got.Name = want.Name
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s.%s (Parquet pages %v): the Dataset differs from the CSV's", name, ext, pages)
				}
			}
		}
	}
}
