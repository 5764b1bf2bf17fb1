package dataio_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/benchdata"
)

// BenchmarkReadLabelsLarge reads 10⁷ generated CSV rows, from memory
// through a reader that gives its size as a file does (so that the reader
// sizes its Builder as it does for a file), shaped like the
// output of consensus simulate --objects 2000000 --workers 5000
// --labels-per-object 5: 2·10⁶ tasks in order, each with 5 labels from
// scattered workers among 5,000, and 2 classes. It runs only when the
// environment variable CONSENSUS_BENCH_LARGE is set to a true value, as
// the 10⁷-label benchmarks of internal/benchdata do.
func BenchmarkReadLabelsLarge(b *testing.B) {
	if !benchdata.Large() {
		b.Skip("set CONSENSUS_BENCH_LARGE=1 to read 10⁷ rows")
	}
	const rows = 10_000_000
	buf := make([]byte, 0, 170<<20)
	buf = append(buf, "task,worker,label\n"...)
	for i := range rows {
		buf = append(buf, 't')
		buf = strconv.AppendInt(buf, int64(i/5), 10)
		buf = append(buf, ",w"...)
		buf = strconv.AppendInt(buf, int64(i*7919%5000), 10)
		buf = append(buf, ',', byte('0'+i*i%7%2), '\n')
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		d, err := dataio.ReadLabels(context.Background(), sizedReader{bytes.NewReader(buf)}, "large.csv", dataio.ReadSettings{})
		if err != nil {
			b.Fatal(err)
		}
		if d.NumLabels() != rows || d.NumTasks() != rows/5 || d.NumWorkers() != 5000 {
			b.Fatalf("%d labels, %d tasks, %d workers", d.NumLabels(), d.NumTasks(), d.NumWorkers())
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// sizedReader is a bytes.Reader whose Stat gives its size as that of a
// regular file.
type sizedReader struct{ *bytes.Reader }

func (r sizedReader) Stat() (fs.FileInfo, error) { return sizedInfo(r.Size()), nil }

// sizedInfo is the fs.FileInfo of a regular file of its size.
type sizedInfo int64

func (n sizedInfo) Name() string       { return "large.csv" }
func (n sizedInfo) Size() int64        { return int64(n) }
func (n sizedInfo) Mode() fs.FileMode  { return 0o644 }
func (n sizedInfo) ModTime() time.Time { return time.Time{} }
func (n sizedInfo) IsDir() bool        { return false }
func (n sizedInfo) Sys() any           { return nil }

// BenchmarkLoadLabelsFile reads the labels file named by the environment
// variable CONSENSUS_BENCH_FILE with dataio.LoadLabels (format by extension),
// to time real files such as a simulated 10⁷-row one; it is skipped when
// the variable is unset. Besides the time it reports rows/s and
// retained-B/label: the heap in use after a garbage collection, with the
// Dataset alive, per label.
func BenchmarkLoadLabelsFile(b *testing.B) {
	path := os.Getenv("CONSENSUS_BENCH_FILE")
	if path == "" {
		b.Skip("set CONSENSUS_BENCH_FILE to a labels file")
	}
	if fi, err := os.Stat(path); err == nil {
		b.SetBytes(fi.Size())
	}
	b.ReportAllocs()
	var d *data.Dataset
	for b.Loop() {
		d = nil
		var err error
		if d, err = dataio.LoadLabels(context.Background(), path, "", dataio.ReadSettings{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	n := float64(d.NumLabels())
	b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/n, "retained-B/label")
	runtime.KeepAlive(d)
}
