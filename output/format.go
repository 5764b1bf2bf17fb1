package output

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// WriteConsensus writes the consensus of r in format f: CSV or TSV with
// WriteConsensusCSV, JSON Lines with WriteConsensusJSONL, or Parquet with
// WriteConsensusParquet. All have the columns task, label and p_<class>.
func WriteConsensus(w io.Writer, r *model.Result, seed uint64, f data.Format) error {
	switch f {
	case data.CSV, "":
		return WriteConsensusCSV(w, r, seed, ',')
	case data.TSV:
		return WriteConsensusCSV(w, r, seed, '\t')
	case data.JSONL:
		return WriteConsensusJSONL(w, r, seed)
	case data.Parquet:
		return WriteConsensusParquet(w, r, seed)
	}
	return fmt.Errorf("unknown output format %q (valid: csv, tsv, jsonl, parquet)", string(f))
}

// WriteWorkers writes the fitted worker parameters of r in format f, with
// WriteWorkersCSV, WriteWorkersJSONL or WriteWorkersParquet.
func WriteWorkers(w io.Writer, r *model.Result, f data.Format) error {
	switch f {
	case data.CSV, "":
		return WriteWorkersCSV(w, r, ',')
	case data.TSV:
		return WriteWorkersCSV(w, r, '\t')
	case data.JSONL:
		return WriteWorkersJSONL(w, r)
	case data.Parquet:
		return WriteWorkersParquet(w, r)
	}
	return fmt.Errorf("unknown output format %q (valid: csv, tsv, jsonl, parquet)", string(f))
}

// WriteConsensusFile writes the consensus of r to path atomically (see
// WriteFile; "-" is standard output) in format f, or if f is empty in the
// format of the path's extension (data.FormatOf). A path ending in ".gz" is
// gzip-compressed.
func WriteConsensusFile(path string, f data.Format, r *model.Result, seed uint64) error {
	return WriteFiles(context.Background(), ConsensusFile(path, f, r, seed))
}

// WriteWorkersFile writes the worker parameters of r to path as
// WriteConsensusFile writes the consensus.
func WriteWorkersFile(path string, f data.Format, r *model.Result) error {
	return WriteFiles(context.Background(), WorkersFile(path, f, r))
}

// ConsensusFile returns the output of WriteConsensusFile as a File for
// WriteFiles, which writes several outputs all or nothing.
func ConsensusFile(path string, f data.Format, r *model.Result, seed uint64) File {
	return formatted(path, f, func(w io.Writer, f data.Format) error { return WriteConsensus(w, r, seed, f) })
}

// WorkersFile returns the output of WriteWorkersFile as a File for
// WriteFiles.
func WorkersFile(path string, f data.Format, r *model.Result) File {
	return formatted(path, f, func(w io.Writer, f data.Format) error { return WriteWorkers(w, r, f) })
}

// formatted returns a File written in format f (empty: by the extension),
// gzip-compressed when the path ends in ".gz".
func formatted(path string, f data.Format, write func(io.Writer, data.Format) error) File {
	if f == "" {
		f = data.FormatOf(path)
	}
	gz := strings.HasSuffix(strings.ToLower(path), ".gz")
	return File{Path: path, Write: func(w io.Writer) error {
		if !gz {
			return write(w, f)
		}
		zw := gzip.NewWriter(w)
		if err := write(zw, f); err != nil {
			return err
		}
		return zw.Close()
	}}
}

// ReadConsensus reads a consensus table in format f (empty: by the name's
// extension) with ReadConsensusCSV, ReadConsensusJSONL or
// ReadConsensusParquet. Compressed (gzip) input is decompressed.
func ReadConsensus(r io.Reader, name string, f data.Format) (*Predictions, error) {
	if f == "" {
		f = data.FormatOf(name)
	}
	br := bufio.NewReaderSize(r, 1<<16)
	var in io.Reader = br
	if p, _ := br.Peek(2); len(p) == 2 && p[0] == 0x1f && p[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &data.InputError{File: name, Msg: "corrupt compressed file: " + err.Error(), Err: err}
		}
		in = zr
	}
	switch f {
	case data.CSV:
		return ReadConsensusCSV(in, name, ',')
	case data.TSV:
		return ReadConsensusCSV(in, name, '\t')
	case data.JSONL:
		return ReadConsensusJSONL(in, name)
	case data.Parquet:
		// ReadAt does not depend on how much of r the peek consumed, so a
		// regular file or an in-memory reader is used as it is.
		src := in
		if in == io.Reader(br) && isReaderAt(r) {
			src = r
		}
		ra, size, done, err := readerAt(src)
		if err != nil {
			return nil, &data.InputError{File: name, Msg: "cannot read: " + err.Error(), Err: err}
		}
		defer done()
		return ReadConsensusParquet(ra, size, name)
	}
	return nil, &data.InputError{File: name, Msg: fmt.Sprintf("unknown format %q (valid: csv, tsv, jsonl, parquet)", string(f))}
}

// isReaderAt reports whether readerAt can use r without copying it.
func isReaderAt(r io.Reader) bool {
	if f, ok := r.(*os.File); ok {
		fi, err := f.Stat()
		return err == nil && fi.Mode().IsRegular()
	}
	_, ok := r.(interface {
		io.ReaderAt
		Size() int64
	})
	return ok
}

// WriteLabels writes the noisy labels of d in format f with the columns
// task, worker and label (Crowd-Kit's names), one label a row, grouped by
// task. data.ReadLabelsAs reads the result back into an equal Dataset
// (classes that no worker chose need ReadOptions.Classes).
func WriteLabels(w io.Writer, d *data.Dataset, f data.Format) error {
	if f == data.Parquet {
		return writeLabelsParquet(w, d)
	}
	return writeStrings(w, f, []string{"task", "worker", "label"}, nil, func(emit func([]string) error) error {
		row := make([]string, 3)
		for j, task := range d.Tasks {
			workers, labels := d.TaskLabels(j)
			for i, wk := range workers {
				row[0], row[1], row[2] = task, d.Workers[wk], d.Classes[labels[i]]
				if err := emit(row); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// writeLabelsParquet is WriteLabels for Parquet.
func writeLabelsParquet(w io.Writer, d *data.Dataset) error {
	// The worker and label columns are dictionary-encoded: each
	// distinct id is stored once per row group and a small index per
	// row, so that a reader interns each id once. The task column,
	// whose ids are nearly all distinct, stays plain, which is as
	// small and much cheaper to write.
	dict := parquet.Encoded(parquet.String(), &parquet.RLEDictionary)
	pw, err := newParquetWriter(w, []column{{"task", parquet.String()}, {"worker", dict}, {"label", dict}})
	if err != nil {
		return err
	}
	rows := make([]parquet.Row, 0, 1024)
	for j, task := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		for i, wk := range workers {
			rows = append(rows, parquet.Row{
				parquet.ByteArrayValue([]byte(task)).Level(0, 0, 0),
				parquet.ByteArrayValue([]byte(d.Workers[wk])).Level(0, 0, 1),
				parquet.ByteArrayValue([]byte(d.Classes[labels[i]])).Level(0, 0, 2),
			})
			if len(rows) == cap(rows) {
				if _, err := pw.WriteRows(rows); err != nil {
					return err
				}
				rows = rows[:0]
			}
		}
	}
	if _, err := pw.WriteRows(rows); err != nil {
		return err
	}
	return pw.Close()
}

// WriteLabelsFile writes the noisy labels of d to path atomically in
// format f (empty: by the extension; ".gz" compresses), with WriteLabels.
func WriteLabelsFile(path string, f data.Format, d *data.Dataset) error {
	return WriteFiles(context.Background(), LabelsFile(path, f, d))
}

// LabelsFile returns the output of WriteLabelsFile as a File for
// WriteFiles.
func LabelsFile(path string, f data.Format, d *data.Dataset) File {
	return formatted(path, f, func(w io.Writer, f data.Format) error { return WriteLabels(w, d, f) })
}
