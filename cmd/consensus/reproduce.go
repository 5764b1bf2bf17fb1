package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/internal/experiments"
	"github.com/consensuslab/consensus/internal/progress"
)

func init() { extraCommands = append(extraCommands, newReproduceCmd) }

func newReproduceCmd() *cobra.Command {
	var cfg experiments.Settings
	var only string
	var quiet bool
	c := &cobra.Command{
		Use:   "reproduce",
		Short: "Rerun the experiments of the paper and write their tables and figures",
		Long: `reproduce reruns the experiments of Fedorova, Gusev and Serdyukov and writes
tables (markdown and CSV) and figures (PNG and SVG) into the output folder:

  real       tables 2 and 3: the seven models on the six shipped data sets,
             accuracy and log loss beside the paper's (real.md, real.csv)
  synthetic  table 4 and the calibration figure: MSE of the estimated q_j on
             simulated DA-GLAD data, against the iteration limit and the
             ridge weight (synthetic.md, *.csv, calibration*.png, synthetic_sweep.png)
  overlap    the figure on labels per object (Duchenne smiles) (overlap*.png)
  theory     the appendix figure: expectation of the LA estimate (theory.png)
  stats      the appendix table of data set statistics (stats.md)

report.md collects the markdown of the parts run. The same --seed gives
byte-identical files. docs/reproduction.md discusses the results. The full run
takes a few minutes on two cores; --quick runs reduced versions (small data,
few repetitions, low iteration limits) whose numbers are not a reproduction.`,
		Example: `  consensus reproduce                       # everything into results/
  consensus reproduce --only real,stats --output out
  consensus reproduce --quick --seed 3`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg.Only = splitList(only)
			for _, p := range cfg.Only {
				if !slices.Contains(experiments.Parts(), p) {
					return usagef("--only: unknown part %q (valid: %s)", p, strings.Join(experiments.Parts(), ", "))
				}
			}
			if cfg.Threads < 0 {
				return usagef("--parallel must not be negative")
			}
			if !quiet {
				st := &progress.Parts{}
				stop := st.Tick(time.Second)
				defer stop()
				cfg.Progress = st.Event
				cfg.Log = func(s string) { fmt.Fprintln(os.Stderr, "reproduce: "+s) }
			}
			_, err := experiments.Run(cmd.Context(), cfg)
			return err
		},
	}
	fl := c.Flags()
	fl.StringVar(&only, "only", "", "comma-separated parts to run: "+strings.Join(experiments.Parts(), ",")+" (default all)")
	fl.StringVarP(&cfg.Output, "output", "o", "results", "output folder")
	fl.Uint64Var(&cfg.Seed, "seed", 0, "seed of the simulations, subsamples and tie-breaking")
	fl.BoolVar(&cfg.Quick, "quick", false, "reduced experiments (for tests; not a reproduction)")
	fl.IntVar(&cfg.Threads, "parallel", 0, "fits run at the same time, sharing the cores (default: one per core, one thread each); results do not depend on it")
	fl.BoolVarP(&quiet, "quiet", "q", false, "no progress or log lines on stderr")
	return c
}
