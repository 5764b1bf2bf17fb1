package main

import (
	"io"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
	"github.com/consensuslab/consensus/sim"
)

// files returns the output files of --truth-workers and --bayes for the
// data set d and truth tr simulated with seed.
func (f *simRegimeFlags) files(d *data.Dataset, tr *sim.Truth, cfg sim.Settings) ([]output.File, error) {
	var files []output.File
	if f.bayes != "" {
		post, err := tr.BayesPosterior(d)
		switch {
		case err != nil && tr.Class == nil:
			return nil, usagef("--bayes needs a true class per object, from an la-* or vb-la-* model; this simulation draws a latent class per label (%s)", cfg.Latent.Name())
		case err != nil:
			return nil, usagef("--bayes: %v", err)
		}
		labels := model.Argmax(post, d.NumClasses(), cfg.Seed)
		files = append(files, output.ClassRowsFile(f.bayes, d, labels, post, "p_", nil))
	}
	if f.workers != "" {
		files = append(files, output.File{Path: f.workers, Write: table.Encoder(f.workers, "", func(w io.Writer, fm dataio.Format) error {
			return tr.WriteWorkers(w, fm, d, cfg.Noise)
		})})
	}
	return files, nil
}
