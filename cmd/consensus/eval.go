package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/output"
)

func newEvalCmd() *cobra.Command {
	var preds, gold, predsFormat string
	var seed uint64
	var bins int
	var layout goldFlags
	var maxMem memLimit
	c := &cobra.Command{
		Use:   "eval",
		Short: "Evaluate a consensus file (the output of fit) against gold labels",
		Long: `eval reads a consensus file as 'consensus fit' writes it (task, label,
p_<class>...; CSV, TSV, JSON Lines or Parquet, gzip-compressed or not, by
extension or --predictions-format; "-" for standard input) and a gold file
(task,label; in any of those formats) and prints accuracy (ties in the
argmax broken at random with --seed), log loss with logarithms to base K (so
uniform probabilities score 1), the Brier score and the expected calibration
error. A probability of 0 on a gold class gives an infinite log loss.`,
		Example: `  consensus datasets export rte rte
  consensus fit --input rte/labels.csv --model da-ds --output rte.csv
  consensus eval --predictions rte.csv --gold rte/gold.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if preds == "" || gold == "" {
				return usagef("eval needs --predictions and --gold")
			}
			if bins < 1 || bins > 1_000_000 {
				return usagef("--bins %d: want between 1 and 1000000", bins)
			}
			if err := checkOutputs([]string{"predictions", "gold"}, []string{preds, gold}, nil, nil); err != nil {
				return err
			}
			pf, err := dataio.ParseFormat(predsFormat)
			if err != nil {
				return usagef("--predictions-format: %v", err)
			}
			opt := dataio.ReadSettings{MaxMemory: maxMem.bytes()}
			p, err := output.LoadConsensus(cmd.Context(), preds, pf, opt)
			if err != nil {
				return limitHint(withAdvice(err, readFlags{format: "--predictions-format"}))
			}
			// A label-free data set carries the task and class names
			// the gold reader matches against.
			d, err := data.FromIndices(p.Tasks, nil, p.Classes, nil, nil, nil)
			if err != nil {
				return err
			}
			g, err := layout.loadGold(cmd.Context(), gold, d, dataio.ReadSettings{MaxMemory: maxMem.bytes()}, false)
			if err != nil {
				return err
			}
			noteUnmatched(g)
			k := len(p.Classes)
			s, err := metrics.Evaluate(p.Probs, k, g, seed)
			if err != nil {
				return usageErr(fmt.Errorf("%s: %w", preds, err))
			}
			// ECE with the user's bins, which the flag check keeps valid.
			ece, err := metrics.ECE(p.Probs, k, g, bins)
			if err != nil {
				return usageErr(fmt.Errorf("%s: %w", preds, err))
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "tasks\t%d\n", s.N)
			// +0 turns a -0 (a log loss of exactly 0) into 0.
			fmt.Fprintf(w, "accuracy\t%.6f\n", s.Accuracy+0)
			fmt.Fprintf(w, "log_loss\t%.6f\n", s.LogLoss+0)
			fmt.Fprintf(w, "brier\t%.6f\n", s.Brier+0)
			fmt.Fprintf(w, "ece\t%.6f\n", ece+0)
			return nil
		},
	}
	c.Flags().StringVarP(&preds, "predictions", "p", "", `consensus file written by 'consensus fit', "-" for standard input`)
	c.Flags().StringVar(&predsFormat, "predictions-format", "", "format of --predictions: csv, tsv, jsonl or parquet (default: by extension, CSV for standard input)")
	c.Flags().StringVarP(&gold, "gold", "g", "", "gold file (task,label); CSV, TSV, JSON Lines or Parquet by extension or --gold-format")
	c.Flags().Uint64Var(&seed, "seed", 1, "seed for breaking ties in the argmax")
	c.Flags().IntVar(&bins, "bins", 10, "bins of the expected calibration error")
	layout.register(c)
	c.Flags().Var(&maxMem, "max-memory", "refuse predictions files that need more memory than this, such as 4GiB, checked while reading (default: the memory available; off: no check)")
	return c
}
