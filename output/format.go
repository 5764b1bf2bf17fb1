package output

import (
	"context"
	"io"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
	"github.com/consensuslab/consensus/model"
)

// WriteConsensusFile writes the consensus of r to path atomically (see
// WriteFile; "-" is standard output) in format f, or if f is empty in the
// format of the path's extension (dataio.FormatOf). A path ending in ".gz" is
// gzip-compressed.
func WriteConsensusFile(path string, f dataio.Format, r *model.Result, seed uint64) error {
	return WriteFiles(context.Background(), ConsensusFile(path, f, r, seed))
}

// ConsensusFile returns the output of WriteConsensusFile as a File for
// WriteFiles, which writes several outputs all or nothing.
func ConsensusFile(path string, f dataio.Format, r *model.Result, seed uint64) File {
	return formatted(path, f, func(w io.Writer, f dataio.Format) error { return WriteConsensus(w, r, seed, f) })
}

// WorkersFile returns a File for WriteFiles that writes the worker
// parameters of r to path as ConsensusFile writes the consensus.
func WorkersFile(path string, f dataio.Format, r *model.Result) File {
	return formatted(path, f, func(w io.Writer, f dataio.Format) error { return WriteWorkers(w, r, f) })
}

// formatted returns a File written in format f (empty: by the extension),
// gzip-compressed when the path ends in ".gz".
func formatted(path string, f dataio.Format, write func(io.Writer, dataio.Format) error) File {
	return File{Path: path, Write: table.Encoder(path, f, write)}
}

// WriteLabels writes the noisy labels of d in format f with the columns
// task, worker and label (Crowd-Kit's names), one label a row, grouped by
// task. dataio.ReadLabelsAs reads the result back into an equal Dataset
// (classes that no worker chose need dataio.ReadSettings.Classes). In Parquet the
// worker and label columns are dictionary-encoded, so that a reader
// interns each identifier once; the task column, whose identifiers are
// nearly all distinct, stays plain, which is as small and much cheaper to
// write.
func WriteLabels(w io.Writer, d *data.Dataset, f dataio.Format) error {
	if d == nil {
		return argErrorf("no data set")
	}
	t, err := table.NewWriter(w, f, []table.Column{{Name: "task"}, {Name: "worker", Kind: table.Dict}, {Name: "label", Kind: table.Dict}})
	if err != nil {
		return err
	}
	for j, task := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		for i, wk := range workers {
			t.String(task)
			t.String(d.Workers[wk])
			t.String(d.Classes[labels[i]])
			if err := t.EndRow(); err != nil {
				return err
			}
		}
	}
	return t.Close()
}

// WriteLabelsFile writes the noisy labels of d to path atomically in
// format f (empty: by the extension; ".gz" compresses), with WriteLabels.
func WriteLabelsFile(path string, f dataio.Format, d *data.Dataset) error {
	return WriteFiles(context.Background(), LabelsFile(path, f, d))
}

// LabelsFile returns the output of WriteLabelsFile as a File for
// WriteFiles.
func LabelsFile(path string, f dataio.Format, d *data.Dataset) File {
	return formatted(path, f, func(w io.Writer, f dataio.Format) error { return WriteLabels(w, d, f) })
}
