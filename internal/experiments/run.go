package experiments

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/consensuslab/consensus/internal/pool"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
)

// The parts of the reproduction, in the order Run runs them.
const (
	PartReal      = "real"
	PartSynthetic = "synthetic"
	PartOverlap   = "overlap"
	PartTheory    = "theory"
	PartStats     = "stats"
)

// Parts returns the names of the parts of the reproduction in the order Run
// runs them: real, synthetic, overlap, theory and stats.
func Parts() []string {
	return []string{PartReal, PartSynthetic, PartOverlap, PartTheory, PartStats}
}

// Settings controls Run.
type Settings struct {
	// Output is the directory the files are written to; it is created if
	// needed. Empty means "results".
	Output string
	// Only lists the parts to run (see Parts); nil or empty means all.
	Only []string
	// Seed seeds every random choice: simulations, subsamples and
	// tie-breaking. The same seed gives byte-identical files.
	Seed uint64
	// Quick selects the reduced experiments used by the tests: small
	// data, few repetitions, low iteration limits. Its numbers are not a
	// reproduction.
	Quick bool
	// Threads is the number of fits run at the same time; each fit uses
	// GOMAXPROCS/Threads threads (at least one). Zero means
	// runtime.GOMAXPROCS(0), one thread per fit. The results do not depend
	// on it.
	Threads int
	// Progress, if not nil, receives the progress of every part: Run is
	// the part, such as "real"; Done and Total count its units of work
	// (mostly fits), Done being 0 when the part starts and Total when it
	// ends; Item names the unit that has just ended, such as
	// "duchenne la-glad", and Elapsed the time it took. Calls are
	// serialised.
	Progress func(model.Progress)
	// Log, if not nil, receives one line per file written and per part
	// finished.
	Log func(string)
}

// Report lists what Run did.
type Report struct {
	// Files lists the files written, relative to Settings.Output, in the
	// order of the parts; they are written together at the end, all or
	// nothing.
	Files []string
	// Elapsed holds the wall time of each part run.
	Elapsed map[string]time.Duration
}

// Run runs the selected parts of the reproduction and writes their tables
// (markdown and CSV) and figures (PNG and SVG) into cfg.Output, with
// report.md, which collects the markdown of the parts run. The files are
// written when every part has run, all or nothing (output.WriteFiles): a
// run that fails or is cancelled leaves the folder as it was. With the same
// Settings, Run writes byte-identical files: nothing in them depends on the
// time, the machine or Threads.
func Run(ctx context.Context, cfg Settings) (*Report, error) {
	parts, err := selectParts(cfg.Only)
	if err != nil {
		return nil, err
	}
	if cfg.Output == "" {
		cfg.Output = "results"
	}
	if err := os.MkdirAll(cfg.Output, 0o755); err != nil {
		return nil, err
	}
	// The folder must take the files before the experiments run.
	if err := output.Check(filepath.Join(cfg.Output, "report.md")); err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.Output, err)
	}
	rep := &Report{Elapsed: map[string]time.Duration{}}
	w := &writer{dir: cfg.Output, log: cfg.Log, rep: rep}
	pr := reporter(cfg.Progress)
	opts := SharedSettings{Seed: cfg.Seed, Threads: cfg.Threads, Quick: cfg.Quick}

	var sections []string
	for _, part := range parts {
		start := time.Now()
		var md string
		switch part {
		case PartReal:
			res, err := Real(ctx, RealSettingsFor(opts), pr.part(PartReal))
			if err != nil {
				return rep, err
			}
			md = res.Markdown()
			err = firstErr(
				w.file("real.md", func(f io.Writer) error { _, err := io.WriteString(f, md); return err }),
				w.file("real.csv", res.WriteCSV),
			)
			if err != nil {
				return rep, err
			}
		case PartSynthetic:
			res, err := Synthetic(ctx, SyntheticSettingsFor(opts), pr.part(PartSynthetic))
			if err != nil {
				return rep, err
			}
			md = res.Markdown()
			cal, err := res.CalibrationFigure(res.Protocol)
			if err != nil {
				return rep, err
			}
			calMLE, err := res.CalibrationFigure(res.MLE)
			if err != nil {
				return rep, err
			}
			err = firstErr(
				w.file("synthetic.md", func(f io.Writer) error { _, err := io.WriteString(f, md); return err }),
				w.file("synthetic.csv", res.WriteCSV),
				w.file("synthetic_sweep.csv", res.WriteSweepCSV),
				w.figure("calibration", cal),
				w.figure("calibration_mle", calMLE),
				w.figure("synthetic_sweep", res.SweepFigure()),
			)
			if err != nil {
				return rep, err
			}
		case PartOverlap:
			res, err := Overlap(ctx, OverlapSettingsFor(opts), pr.part(PartOverlap))
			if err != nil {
				return rep, err
			}
			md = res.Markdown()
			err = firstErr(
				w.file("overlap.md", func(f io.Writer) error { _, err := io.WriteString(f, md); return err }),
				w.file("overlap.csv", res.WriteCSV),
			)
			for i := range res.Protocols {
				if err == nil {
					err = w.figure(res.Protocols[i].File, res.Figure(i))
				}
			}
			if err != nil {
				return rep, err
			}
		case PartTheory:
			res := Theory(TheorySettingsFor(opts))
			pr.part(PartTheory)(model.Progress{Done: 1, Total: 1, Item: "exact expectations"})
			md = res.Markdown()
			err = firstErr(
				w.file("theory.md", func(f io.Writer) error { _, err := io.WriteString(f, md); return err }),
				w.file("theory.csv", res.WriteCSV),
				w.figure("theory", res.Figure()),
			)
			if err != nil {
				return rep, err
			}
		case PartStats:
			res, err := Stats()
			if err != nil {
				return rep, err
			}
			pr.part(PartStats)(model.Progress{Done: 1, Total: 1, Item: "data set statistics"})
			md = res.Markdown()
			err = firstErr(
				w.file("stats.md", func(f io.Writer) error { _, err := io.WriteString(f, md); return err }),
				w.file("stats.csv", res.WriteCSV),
			)
			if err != nil {
				return rep, err
			}
		}
		rep.Elapsed[part] = time.Since(start)
		if cfg.Log != nil {
			cfg.Log(fmt.Sprintf("%s: done in %v", part, time.Since(start).Round(100*time.Millisecond)))
		}
		sections = append(sections, md)
	}
	head := fmt.Sprintf("# Reproduction of Fedorova, Gusev, Serdyukov (2019)\n\nProduced by `consensus reproduce --seed %d%s%s`. Parts: %s.\n\n",
		cfg.Seed, quickFlag(cfg.Quick), onlyFlag(cfg.Only, parts), strings.Join(parts, ", "))
	all := head + strings.Join(sections, "\n")
	w.file("report.md", func(f io.Writer) error { _, err := io.WriteString(f, all); return err })
	if err := w.commit(ctx); err != nil {
		return rep, err
	}
	return rep, nil
}

func quickFlag(q bool) string {
	if q {
		return " --quick"
	}
	return ""
}

func onlyFlag(only, parts []string) string {
	if len(only) == 0 {
		return ""
	}
	return " --only " + strings.Join(parts, ",")
}

// selectParts validates only and returns the parts to run in Run's order.
func selectParts(only []string) ([]string, error) {
	all := Parts()
	if len(only) == 0 {
		return all, nil
	}
	for _, p := range only {
		if !slices.Contains(all, p) {
			return nil, fmt.Errorf("unknown part %q (valid: %s)", p, strings.Join(all, ", "))
		}
	}
	var out []string
	for _, p := range all {
		if slices.Contains(only, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// writer collects the output files of a run, which commit writes all or
// nothing: an interrupted or failed run leaves the folder as it was, not
// one part's files beside another run's report.
type writer struct {
	dir   string
	log   func(string)
	rep   *Report
	files []output.File
}

// file queues the file name, written by write when the run commits. Its
// error is that of the files queued with it in firstErr: always nil.
func (w *writer) file(name string, write func(io.Writer) error) error {
	w.files = append(w.files, output.File{Path: filepath.Join(w.dir, name), Write: write})
	w.rep.Files = append(w.rep.Files, name)
	return nil
}

// commit writes every queued file, all or nothing (output.WriteFiles).
func (w *writer) commit(ctx context.Context) error {
	if err := output.WriteFiles(ctx, w.files...); err != nil {
		return err
	}
	for _, f := range w.files {
		if w.log != nil {
			w.log("wrote " + f.Path)
		}
	}
	return nil
}

// figure writes fig as name.png and name.svg.
func (w *writer) figure(name string, fig *Figure) error {
	if fig == nil {
		return nil
	}
	return firstErr(
		w.file(name+".png", fig.WritePNG),
		w.file(name+".svg", fig.WriteSVG),
	)
}

// reporter passes the progress of every part to one callback.
type reporter func(model.Progress)

// part returns the progress callback of the part name: it sets Run to
// name and passes the progress to r, if r is not nil.
func (r reporter) part(name string) func(model.Progress) {
	return func(p model.Progress) {
		if r != nil {
			p.Run = name
			r(p)
		}
	}
}

// SharedSettings are the settings every experiment takes from Settings.
type SharedSettings struct {
	// Seed seeds every random choice.
	Seed uint64
	// Threads is the number of fits run at the same time; zero means
	// runtime.GOMAXPROCS(0).
	Threads int
	// Quick selects the reduced experiments.
	Quick bool
}

// threadsPerFit returns the threads of each fit when fits run at the same
// time (Settings.Threads): the cores divided among them, at least one.
func threadsPerFit(fits int) int {
	p := runtime.GOMAXPROCS(0)
	if fits <= 0 {
		fits = p
	}
	return max(1, p/fits)
}

// job is one unit of work of an experiment: it stores its result in a
// slot of its own, so the jobs may run in any order.
type job struct {
	name string
	cost float64 // estimated cost, for scheduling: larger runs first
	run  func() error
}

// runJobs runs the jobs, at most fits at a time (GOMAXPROCS for 0),
// the most expensive first, and reports the start (Done 0) and each job
// ended to progress, if not nil. It returns the first error, or the
// context's error if ctx is done first; no job starts after an error.
func runJobs(ctx context.Context, fits int, jobs []job, progress func(model.Progress)) error {
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case jobs[a].cost > jobs[b].cost:
			return -1
		case jobs[a].cost < jobs[b].cost:
			return 1
		}
		return 0
	})
	o := pool.Settings{Threads: fits, Order: order, StopOnError: true}
	if progress != nil {
		progress(model.Progress{Total: len(jobs)})
		o.Ended = func(e pool.Ended) {
			progress(model.Progress{Done: e.Ended, Total: len(jobs), Item: jobs[e.Index].name, Err: e.Err, Elapsed: e.Elapsed})
		}
	}
	return pool.Run(ctx, len(jobs), o, func(i int) error {
		if err := jobs[i].run(); err != nil {
			return fmt.Errorf("%s: %w", jobs[i].name, err)
		}
		return nil
	})
}
