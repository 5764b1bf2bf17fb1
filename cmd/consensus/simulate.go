package main

import (
	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
	"github.com/consensuslab/consensus/sim"
)

func newSimulateCmd() *cobra.Command {
	var cfg sim.Settings
	var modelName, out, truth string
	var maxMem memLimit
	var regime simRegimeFlags
	c := &cobra.Command{
		Use:   "simulate",
		Short: "Simulate crowd labels from a model, with the true label distributions",
		Long: `simulate draws a data set from the generative process of a model: every
object gets a label distribution q_j from a symmetric Dirichlet distribution
(q_j ~ U[0,1] for two classes), latent classes come from the assumption (one
true class per object for la-*, a fresh subjective class per label for da-*),
and observed labels from the noise model at random parameters. The defaults
are the paper's synthetic experiment: 2000 objects, 20 workers who label every
object, DA-GLAD with e_w ~ U[0,4] and log d_j ~ U[0,3].

--regime starts from a named regime of harder data (sparse, light,
many-classes, spammers, correlated); --class-prior, --activity, --spammers,
--adversaries, --correlated, --accuracy, --near-random and --error-decay set
its parts one by one (docs/simulation.md).`,
		Example: `  consensus simulate --model da-glad --objects 2000 --workers 20 --seed 1 --output labels.csv --truth truth.csv`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			est, err := model.ByName(modelName)
			if err != nil {
				return usageErr(err)
			}
			m, ok := est.(model.Composite)
			if !ok {
				return usagef("--model %s has no generative process; use one of the la-*, da-*, hda-* or vb-* models", modelName)
			}
			cfg.Noise, cfg.Latent = m.Parts()
			if err := regime.apply(cmd.Flags(), &cfg); err != nil {
				return err
			}
			if cfg.Tasks < 0 || cfg.Workers < 0 || cfg.LabelsPerTask < 0 || cfg.Classes == 1 || cfg.Classes < 0 {
				return usagef("--objects, --workers and --labels-per-object must not be negative, --classes at least 2")
			}
			if workers, _, _ := cfg.Sizes(); cfg.LabelsPerTask > workers {
				// sim.Settings reads more labels an object than workers as
				// all of them; a number the user gave is not cut down silently.
				return usagef("--labels-per-object %d is more than the %d workers: an object's labels come from distinct workers", cfg.LabelsPerTask, workers)
			}
			if err := checkFinite("concentration", cfg.Concentration); err != nil {
				return err
			}
			if err := checkSimulateMemory(cfg, maxMem); err != nil {
				return err
			}
			if err := checkOutputs(nil, nil, []string{"output", "truth", "truth-workers", "bayes"}, []string{out, truth, regime.workers, regime.bayes}); err != nil {
				return err
			}
			if err := checkTables("", "", []string{"output", "truth", "truth-workers", "bayes"}, []string{out, truth, regime.workers, regime.bayes}); err != nil {
				return err
			}
			d, tr, err := sim.Simulate(cfg)
			if err != nil {
				return usageErr(err)
			}
			files := []output.File{output.LabelsFile(out, "", d)}
			more, err := regime.files(d, tr, cfg)
			if err != nil {
				return err
			}
			files = append(files, more...)
			if truth == "" {
				return output.WriteFiles(cmd.Context(), files...)
			}
			target := model.Argmax(tr.Target, d.NumClasses(), cfg.Seed)
			files = append(files, output.ClassRowsFile(truth, d, target, tr.Q, "q_", tr.Subtype))
			return output.WriteFiles(cmd.Context(), files...)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&modelName, "model", "m", "da-glad", "generating model (la-*, da-*, hda-* or vb-*; hda draws every label's class from q_j, as da)")
	fl.IntVar(&cfg.Tasks, "objects", 0, "number of objects (default 2000)")
	fl.IntVar(&cfg.Workers, "workers", 0, "number of workers (default 20)")
	fl.IntVar(&cfg.Classes, "classes", 0, "number of classes (default 2)")
	fl.IntVar(&cfg.LabelsPerTask, "labels-per-object", 0, "distinct workers per object (default: all)")
	fl.Float64Var(&cfg.Concentration, "concentration", 0, "Dirichlet concentration of the label distributions (default 1)")
	fl.Uint64Var(&cfg.Seed, "seed", 0, "random seed")
	fl.Var(&maxMem, "max-memory", "refuse simulations estimated to need more memory than this, such as 4GiB (default: the memory available; off: no check)")
	fl.StringVarP(&out, "output", "o", "-", `labels file (task,worker,label); "-" is standard output; CSV, TSV, JSON Lines or Parquet by extension (.csv .tsv .jsonl .parquet, optionally .gz)`)
	fl.StringVar(&truth, "truth", "", "also write the true distributions (task,label,q_<class>...): label is the true class under LA, the argmax of q under DA; with --correlated, a subtype column (1 for the objects of the shared confusion); format by extension, as --output")
	regime.add(fl)
	return c
}
