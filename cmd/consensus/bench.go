package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

func init() { extraCommands = append(extraCommands, newBenchCmd) }

func newBenchCmd() *cobra.Command {
	var (
		modelName, solver string
		labels            float64
		classes, threads  int
		repeat, maxIter   int
		seed              uint64
		gladPrior         float64
		cpuProfile        string
		maxMem            memLimit
	)
	c := &cobra.Command{
		Use:   "bench",
		Short: "Simulate a data set of a given size, fit a model to it and report speed and memory",
		Long: `bench simulates labels from the model itself, or from da-ds for a model
without a generative process (rfe, mv and the Crowd-Kit methods), each
object labelled by 5 distinct workers out of max(50, labels/2000) as in the
go test benchmarks,
fits the model with the chosen solver and reports: the time to simulate, the
fit's time and process CPU time, iterations and evaluations, the time per iteration, labels per
second (labels × evaluations / fit time), the peak resident memory of the
process (getrusage maxrss: the simulation and the fits, with a garbage
collection before each fit, so that it is the peak of one fit and not of
the leftovers of earlier ones) and the peak per label; a fit estimated to
need more memory than --max-memory (by default the memory available) is
refused, as fit refuses it. On Linux it also
reports each fit's own peak, the resident memory above that at the fit's
start (after the collection returns the free memory to the system), next to the estimate that
fit --max-memory checks before a fit (model.FitMemory). With --repeat above 1 it ends with the median and the range of the
fit times. --cpuprofile writes a CPU profile of the fits (not of the
simulation) for go tool pprof. See docs/performance.md.`,
		Example: `  consensus bench --model da-ds --labels 1e8 --solver em
  consensus bench --model la-glad --labels 5e5 --repeat 5
  consensus bench --model da-ds --labels 2e6 --cpuprofile cpu.out && go tool pprof -top cpu.out`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) (err error) {
			est, err := model.ByName(modelName)
			if err != nil {
				return usageErr(err)
			}
			if labels < 1 || classes < 2 || repeat < 1 || threads < 0 || maxIter < 0 {
				return usagef("--labels must be at least 1, --classes at least 2, --repeat at least 1, --threads and --max-iter not negative")
			}
			if est, err = withGLADPrior(est, gladPrior); err != nil {
				return err
			}
			// A model without a generative process of its own (rfe, mv,
			// the Crowd-Kit methods) is fitted to labels from da-ds.
			var noiseModel noise.Model = noise.DS{}
			var assumption latent.Assumption = latent.DA{}
			if c, ok := est.(model.Composite); ok {
				noiseModel, assumption = c.Parts()
			}
			// The simulation's size before any allocation.
			if err := checkSimulateMemory(benchdata.Settings(int(min(labels, 1<<53)), classes, noiseModel, assumption, seed), maxMem); err != nil {
				return err
			}
			s := &model.Settings{Threads: threads, MaxIterations: maxIter}
			if solver != "" {
				if s.Method, err = model.ParseMethod(solver); err != nil {
					return usageErr(err)
				}
			}
			out := cmd.OutOrStdout()
			t0 := time.Now()
			d, _, err := benchdata.Simulate(int(labels), classes, noiseModel, assumption, seed)
			if err != nil {
				return err
			}
			n := d.NumLabels()
			fmt.Fprintf(out, "data: %d labels, %d objects, %d workers, %d classes, simulated in %v\n",
				n, d.NumTasks(), d.NumWorkers(), d.NumClasses(), time.Since(t0).Round(time.Millisecond))
			if err := checkFitMemory(est, d, s, maxMem); err != nil {
				return err
			}
			fmt.Fprintf(out, "model %s, GOMAXPROCS %d, threads %d\n", est.Name(), runtime.GOMAXPROCS(0), threads)
			if cpuProfile != "" {
				stop, perr := benchdata.StartCPUProfile(cpuProfile)
				if perr != nil {
					return fmt.Errorf("--cpuprofile: %v", perr)
				}
				defer func() { stop(err != nil) }()
			}
			var wall, cpu []time.Duration
			for i := range repeat {
				// Measure collects the previous fit's vectors first, so
				// that the peak memory is that of one fit.
				var r *model.Result
				m, err := benchdata.Measure(func() (err error) {
					r, err = est.Fit(cmd.Context(), d, s)
					return err
				})
				if err != nil {
					return err
				}
				wall, cpu = append(wall, r.Runtime), append(cpu, m.CPU)
				sec := r.Runtime.Seconds()
				perIter := r.Runtime / time.Duration(max(r.Iterations, 1))
				// Passes over the labels and the log-likelihood for the
				// fits that have them (not the votes).
				passes := ""
				if r.Evaluations > 0 {
					passes = fmt.Sprintf(", %d evaluations, %v per iteration, %.3g labels/s, L/N %.6f",
						r.Evaluations, perIter.Round(time.Microsecond), float64(n)*float64(r.Evaluations)/sec, r.LogLikelihood/float64(n))
				}
				fmt.Fprintf(out, "fit %d: solver %s, %v (CPU %v), %d iterations%s, %s\n",
					i+1, r.Method, r.Runtime.Round(time.Millisecond), m.CPU.Round(time.Millisecond), r.Iterations, passes, r.Status)
				if m.PeakOK {
					fmt.Fprintf(out, "fit %d memory: peak %.1f MB above the %.1f MB resident at its start, %.1f bytes per label; estimated %.1f MB\n",
						i+1, float64(m.Peak-m.RSSStart)/1e6, float64(m.RSSStart)/1e6, float64(m.Peak-m.RSSStart)/float64(n), model.FitMemory(est, d, s)/1e6)
				}
			}
			if repeat > 1 {
				fmt.Fprintf(out, "fit time: median %s; CPU: median %s\n", benchdata.Spread(wall), benchdata.Spread(cpu))
			}
			if rss, ok := benchdata.MaxRSS(); ok {
				fmt.Fprintf(out, "peak memory (maxrss) %.1f MB, %.1f bytes per label\n", float64(rss)/1e6, float64(rss)/float64(n))
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&modelName, "model", "da-ds", "model to fit, and to simulate from if it has a generative process (la-*, da-*, hda-*, vb-*)")
	f.Float64Var(&labels, "labels", 1e6, "number of labels (rounded down to a multiple of 5)")
	f.IntVar(&classes, "classes", 2, "number of classes")
	f.StringVar(&solver, "solver", "", "lbfgs, cg or em (default: the model's, as 'consensus models' lists it)")
	f.IntVar(&threads, "threads", 0, "goroutines per evaluation (default: all cores)")
	f.IntVar(&repeat, "repeat", 1, "number of fits")
	f.IntVar(&maxIter, "max-iter", 0, "iteration limit (default 1000)")
	f.Uint64Var(&seed, "seed", 1, "simulation seed")
	f.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the fits to this file (go tool pprof)")
	f.Var(&maxMem, "max-memory", "refuse fits estimated to need more memory than this, such as 4GiB (default: the memory available; off: no check)")
	f.Float64Var(&gladPrior, "glad-prior", 0, "fit GLAD with Gaussian priors of this variance on abilities and log difficulties (noise.GLAD.PriorVar; default 0: maximum likelihood); the data are simulated without")
	return c
}
