package dataio

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// endless is a reader that never ends: after the header, it repeats rows
// (with a new task and worker in each when fresh is set), or zero bytes
// when rows is empty.
type endless struct {
	header string
	row    func(i int) string
	buf    []byte
	i      int
}

func (e *endless) Read(p []byte) (int, error) {
	if e.buf == nil {
		e.buf = []byte(e.header)
	}
	for len(e.buf) < len(p) {
		if e.row == nil {
			e.buf = append(e.buf, make([]byte, len(p))...)
			break
		}
		e.buf = append(e.buf, e.row(e.i)...)
		e.i++
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}

// bomb returns a gzip file of about size bytes of text: the header, then
// rows of new tasks and workers, or zero bytes.
func bomb(t *testing.T, header string, row func(int) string, size int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	if _, err := io.CopyN(zw, &endless{header: header, row: row}, int64(size)); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return b.Bytes()
}

// TestReadLimits checks that ReadSettings.MaxMemory is enforced while
// reading, in every text format: a gzip bomb (built here: a few hundred KB
// that decompress to 24 MB), an endless reader of rows with new
// identifiers, and an endless reader of zero bytes (like /dev/zero, one
// endless line) all stop with a one-line *InputError wrapping ErrLimit
// long before the memory is used, instead of a runtime out-of-memory
// crash.
func TestReadLimits(t *testing.T) {
	const limit = 8 << 20
	csvRow := func(i int) string { return fmt.Sprintf("t%d,w%d,%d\n", i, i, i%2) }
	jsonRow := func(i int) string {
		return fmt.Sprintf("{\"task\":\"t%d\",\"worker\":\"w%d\",\"label\":\"%d\"}\n", i, i, i%2)
	}
	sameRow := func(i int) string { return "t,w,1\n" }
	for _, tc := range []struct {
		name string
		r    func(t *testing.T) io.Reader
		file string
	}{
		{"gzip bomb of rows, CSV", func(t *testing.T) io.Reader {
			return bytes.NewReader(bomb(t, "task,worker,label\n", csvRow, 24<<20))
		}, "bomb.csv.gz"},
		{"gzip bomb of one repeated row, CSV", func(t *testing.T) io.Reader {
			return bytes.NewReader(bomb(t, "task,worker,label\n", sameRow, 24<<20))
		}, "same.csv.gz"},
		{"gzip bomb of zeros, CSV", func(t *testing.T) io.Reader {
			return bytes.NewReader(bomb(t, "task,worker,label\n", nil, 24<<20))
		}, "zeros.csv.gz"},
		{"gzip bomb of rows, JSON Lines", func(t *testing.T) io.Reader {
			return bytes.NewReader(bomb(t, "", jsonRow, 24<<20))
		}, "bomb.jsonl.gz"},
		{"endless rows, CSV", func(*testing.T) io.Reader { return &endless{header: "task,worker,label\n", row: csvRow} }, "-"},
		{"endless rows, TSV", func(*testing.T) io.Reader {
			return &endless{header: "task\tworker\tlabel\n", row: func(i int) string { return strings.ReplaceAll(csvRow(i), ",", "\t") }}
		}, "in.tsv"},
		{"endless rows, JSON Lines", func(*testing.T) io.Reader { return &endless{row: jsonRow} }, "in.jsonl"},
		{"endless zeros, CSV", func(*testing.T) io.Reader { return &endless{} }, "zero.csv"},
		{"endless zeros after a header, CSV", func(*testing.T) io.Reader { return &endless{header: "task,worker,label\n"} }, "zero.csv"},
		{"endless zeros, JSON Lines", func(*testing.T) io.Reader { return &endless{} }, "zero.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadLabelsAs(ctx, tc.r(t), tc.file, "", ReadSettings{MaxMemory: limit})
			var ie *InputError
			if !errors.Is(err, ErrLimit) || !errors.As(err, &ie) {
				t.Fatalf("error %v, want an *InputError wrapping ErrLimit", err)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || ie.Line == 0 {
				t.Errorf("message %q: want one line naming the line", msg)
			}
		})
	}
	// Within the limit, the same reader of a finite file succeeds.
	in := "task,worker,label\n" + csvRow(1) + csvRow(2)
	if _, err := ReadLabels(ctx, strings.NewReader(in), "ok.csv", ReadSettings{MaxMemory: limit}); err != nil {
		t.Errorf("small file: %v", err)
	}
}

// TestReadCancel checks that a cancelled context stops reading an endless
// input in every format, also Parquet from a pipe (copied to a temporary
// file first), with an error wrapping context.Canceled.
func TestReadCancel(t *testing.T) {
	csvRow := func(i int) string { return fmt.Sprintf("t%d,w%d,%d\n", i%1000, i%7, i%2) }
	for _, name := range []string{"in.csv", "in.tsv", "in.jsonl", "in.parquet"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			r := &endless{header: "task,worker,label\n", row: csvRow}
			if name == "in.jsonl" {
				r = &endless{row: func(i int) string { return fmt.Sprintf("{\"task\":\"t%d\",\"worker\":\"w\",\"label\":\"1\"}\n", i) }}
			}
			if name == "in.parquet" {
				r.header = "PAR1" // the magic number, checked before the copy
			}
			done := make(chan error, 1)
			go func() {
				_, err := ReadLabelsAs(ctx, io.MultiReader(r), name, "", ReadSettings{Sep: ','})
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("error %v, want context.Canceled", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("reading did not stop within 20 s of the cancellation")
			}
		})
	}
}

// TestParquetLimit checks that a Parquet file declaring more rows than the
// memory limit allows is refused before its rows are read: 2 million rows
// of one repeated value are refused from the metadata alone.
func TestParquetLimit(t *testing.T) {
	rows := make([]pqString, 2_000_000)
	for i := range rows {
		rows[i] = pqString{"t", "w", "a"}
	}
	b := parquetOf(t, rows)
	t.Logf("%d rows in %d bytes", len(rows), len(b))
	_, err := ReadLabelsAs(ctx, bytes.NewReader(b), "many.parquet", "", ReadSettings{MaxMemory: 8 << 20})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "declares 2000000 rows") {
		t.Fatalf("error %v, want the declared rows refused", err)
	}
	if _, err := ReadLabelsAs(ctx, bytes.NewReader(b), "many.parquet", "", ReadSettings{MaxMemory: 1 << 30}); err == nil || errors.Is(err, ErrLimit) {
		t.Fatalf("within the limit: %v, want the one-class error", err)
	}
}
