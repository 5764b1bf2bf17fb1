package dataio

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"github.com/consensuslab/consensus/data/internal/ingest"
	"io"
	"os"
	"strings"
)

// FileEstimate is what EstimateFile tells of a labels file before it is
// read.
type FileEstimate struct {
	// Rows is the estimated number of labels.
	Rows float64
	// IDs is the estimated number of distinct task and worker
	// identifiers.
	IDs float64
	// IDText is the estimated text of those identifiers in bytes.
	IDText float64
	// Text is the size of the file's text in bytes: the file's size, or
	// for a gzip-compressed file the size its trailer records.
	Text float64
}

// ReadMemory returns the memory that reading the file is estimated to
// take: readMemory of its rows and identifiers, and the reader's
// blocks of text, ReadBufferBytes or twice the text of a smaller file.
func (e FileEstimate) ReadMemory() float64 {
	return readMemory(e.Rows, e.IDs, e.IDText) + min(ReadBufferBytes, 2*e.Text)
}

// sampleBytes is the text EstimateFile samples at the start of a file, and
// again from its middle.
const sampleBytes = 1 << 20

// ErrNotEstimated is returned by EstimateFile for a file it cannot
// estimate (not a regular file, or too short to sample): the reader
// reports on it properly.
var ErrNotEstimated = errors.New("data: the file cannot be estimated before it is read")

// EstimateFile estimates the number of labels of the text file path in
// format f (CSV, TSV or JSON Lines; empty for the file's extension) and
// of the distinct task and worker identifiers in them, with the columns
// of opt, from the size of its text and the rows of its first MiB, without
// reading the whole file.
//
// The rows are the samples' rows per byte times the text's bytes. The
// identifiers are counted for each column: tasks, which files list
// together, keep appearing anew through a file, while workers mostly
// appear again and again, which the first MiB of a large file cannot
// show. So for a plain file larger than two samples a second MiB from the
// middle of the file is read, and a column's count is the Lincoln-Petersen
// estimate of a population from two samples, |A|·|B|/|A ∩ B| (A and B its
// values in the two samples), at least |A ∪ B| and at most the first
// sample's count per row times the rows, which is also the count where
// the samples share no value (tasks) or there is no second sample (gzip).
// It is an estimate, not a bound: values that turn up late in a file
// (workers in a file sorted by worker) are under-counted, which the
// limit enforced while reading (ReadSettings.MaxMemory) catches.
func EstimateFile(path string, f Format, opt ReadSettings) (FileEstimate, error) {
	f = f.resolve(path)
	if f == Parquet {
		return FileEstimate{}, ErrNotEstimated
	}
	file, err := os.Open(path)
	if err != nil {
		return FileEstimate{}, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return FileEstimate{}, ErrNotEstimated
	}
	size := float64(fi.Size())
	br := bufio.NewReaderSize(file, 64<<10)
	var text io.Reader = br
	var magic [2]byte
	gzipped := false
	if _, err := file.ReadAt(magic[:], 0); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		gzipped = true
		if size, err = gzipTextSize(file, fi.Size()); err != nil {
			return FileEstimate{}, err
		}
		zr, err := ingest.NewGzipMembers(br)
		if err != nil {
			return FileEstimate{}, err
		}
		defer zr.Close()
		text = zr
	}
	sample := make([]byte, sampleBytes)
	n, err := io.ReadFull(text, sample)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return FileEstimate{}, err
	}
	sample = sample[:n]
	if end := bytes.LastIndexByte(sample, '\n'); end >= 0 && n == sampleBytes {
		sample = sample[:end+1] // whole lines only
	}
	lines := bytes.Count(sample, []byte{'\n'})
	if n < sampleBytes && len(sample) > 0 && sample[len(sample)-1] != '\n' {
		lines++
	}
	if lines <= 1 || len(sample) == 0 {
		return FileEstimate{}, ErrNotEstimated
	}
	sampled := float64(lines)
	if f != JSONL {
		sampled-- // the header
	}
	// The rows per byte of text of the samples.
	perByte := sampled / float64(len(sample))
	var mid []byte
	if !gzipped && fi.Size() > 2*sampleBytes {
		if mid, err = middleSample(file, fi.Size()); err == nil {
			perByte = (sampled + float64(bytes.Count(mid, []byte{'\n'}))) / float64(len(sample)+len(mid))
		}
	}
	rows := max(perByte*size, sampled)
	first, ok := sampleIDs(sample, f, opt, true)
	if !ok {
		// Every row a new identifier, as long as a row.
		return FileEstimate{Rows: rows, IDs: rows, IDText: size, Text: size}, nil
	}
	var second idSets
	if mid != nil {
		second, _ = sampleIDs(mid, f, opt, false)
	}
	var ids, idText float64
	for c := range first {
		n := population(first[c], second[c], float64(len(first[c]))*rows/sampled)
		ids += n
		idText += n * meanLen(first[c])
	}
	return FileEstimate{Rows: rows, IDs: ids, IDText: idText, Text: size}, nil
}

// idSets holds the distinct values of the task and the worker columns of
// a sample.
type idSets [2]map[string]struct{}

// newIDSets returns two empty sets.
func newIDSets() idSets {
	return idSets{make(map[string]struct{}), make(map[string]struct{})}
}

// sampleIDs returns the distinct task and worker values of the sample's
// rows, and whether it could tell them: for CSV and TSV the first two
// columns' (header says whether the sample starts with the header), for
// JSON Lines the task and worker keys of opt as the reader finds them.
func sampleIDs(sample []byte, f Format, opt ReadSettings, header bool) (idSets, bool) {
	switch f {
	case CSV, TSV:
		return distinctFields(sample, textSep(f, opt), header), true
	case JSONL:
		return distinctJSONL(sample, opt)
	}
	return idSets{}, false
}

// meanLen returns the mean length in bytes of the values of set, 0 for
// none.
func meanLen(set map[string]struct{}) float64 {
	if len(set) == 0 {
		return 0
	}
	n := 0
	for v := range set {
		n += len(v)
	}
	return float64(n) / float64(len(set))
}

// middleSample returns the whole lines of sampleBytes of the file from the
// middle of its size on.
func middleSample(file *os.File, size int64) ([]byte, error) {
	buf := make([]byte, sampleBytes)
	n, err := file.ReadAt(buf, size/2)
	if err != nil && err != io.EOF {
		return nil, err
	}
	buf = buf[:n]
	start := bytes.IndexByte(buf, '\n') + 1
	end := bytes.LastIndexByte(buf, '\n') + 1
	if start <= 0 || end <= start {
		return nil, ErrNotEstimated
	}
	return buf[start:end], nil
}

// population returns the estimated number of distinct values of a column
// in the whole file from its values a in the first sample and b in the
// second (nil for none), at most linear (see EstimateFile).
func population(a, b map[string]struct{}, linear float64) float64 {
	if len(b) == 0 {
		return linear
	}
	both := 0
	for v := range b {
		if _, ok := a[v]; ok {
			both++
		}
	}
	union := float64(len(a) + len(b) - both)
	if both == 0 {
		return max(linear, union)
	}
	return min(max(float64(len(a))*float64(len(b))/float64(both), union), max(linear, union))
}

// distinctFields returns the distinct cells of each of the first two
// columns, split at sep, of the sampled rows, after the first line if
// header is set; with three columns in any order, that counts tasks and
// workers or labels, within a factor of two.
func distinctFields(sample []byte, sep rune, header bool) idSets {
	sepb := []byte(string(sep))
	// A lookup with string(cell) does not allocate, so only a new cell
	// costs a copy of its text.
	seen := newIDSets()
	skip := header
	for len(sample) > 0 {
		line := sample
		if i := bytes.IndexByte(sample, '\n'); i >= 0 {
			line, sample = sample[:i], sample[i+1:]
		} else {
			sample = nil
		}
		if skip || len(bytes.TrimSpace(line)) == 0 {
			skip = false
			continue
		}
		for c := range seen {
			cell, rest, _ := bytes.Cut(line, sepb)
			cell = bytes.TrimSpace(cell)
			if _, ok := seen[c][string(cell)]; !ok {
				seen[c][string(cell)] = struct{}{}
			}
			if rest == nil {
				break
			}
			line = rest
		}
	}
	return seen
}

// distinctJSONL returns the distinct task values and the distinct worker
// values of a sample of JSON Lines, read by ReadTable with the columns of
// opt, and whether the sample read.
func distinctJSONL(sample []byte, opt ReadSettings) (idSets, bool) {
	cols := Columns{Names: []string{
		cmp.Or(opt.TaskColumn, DefaultTaskColumn),
		cmp.Or(opt.WorkerColumn, DefaultWorkerColumn),
	}}
	seen := newIDSets()
	err := ReadTable(context.Background(), bytes.NewReader(sample), "", JSONL, ReadSettings{}, cols, func(cells []string, _ int) error {
		for c := range seen {
			if _, ok := seen[c][cells[c]]; !ok {
				seen[c][strings.Clone(cells[c])] = struct{}{}
			}
		}
		return nil
	})
	return seen, err == nil
}

// maxDeflateRatio is the largest compression ratio deflate achieves.
const maxDeflateRatio = 1032

// gzipTextSize returns the size of the text in a gzip file of the given
// size, from the ISIZE field of its trailer (the size modulo 2^32, fixed up
// by assuming the text is at least as large as the compressed file).
func gzipTextSize(f *os.File, size int64) (float64, error) {
	if size < gzipMinSize {
		return float64(size), nil
	}
	isize, err := gzipISize(f, size)
	if err != nil {
		return 0, err
	}
	for isize < size {
		isize += 1 << 32
	}
	// Deflate cannot compress by more than 1032:1; a larger ISIZE comes
	// from trailing garbage or a multi-member file, where the last member's
	// size says nothing.
	return float64(min(isize, maxDeflateRatio*size)), nil
}

// gzipMinSize is the size of a gzip file's 10-byte header and 8-byte
// trailer; a smaller file is not gzip.
const gzipMinSize = 18

// gzipISize returns the ISIZE field of the trailer of a gzip file of the
// given size: the size of its last member's text modulo 2^32 (RFC 1952).
// A file too small to be gzip gives 0.
func gzipISize(ra io.ReaderAt, size int64) (int64, error) {
	if size < gzipMinSize {
		return 0, nil
	}
	var b [4]byte
	if _, err := ra.ReadAt(b[:], size-4); err != nil {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint32(b[:])), nil
}
