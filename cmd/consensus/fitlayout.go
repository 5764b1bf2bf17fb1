package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
)

// layoutFlags are fit's --layout (the columns of the consensus table) and
// --tasks (a table of per-task parameters).
type layoutFlags struct {
	name, tasks string
	layout      output.Layout
}

func (f *layoutFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.name, "layout", "default", `columns of --output: "default" (task,label,p_<class>...) or "crowdkit" (task,agg_label,<class>...: Crowd-Kit's fit_predict and fit_predict_proba in one table)`)
	c.Flags().StringVar(&f.tasks, "tasks", "", "also write every task's number of labels and fitted parameters (GLAD's difficulty) to this file (format by extension)")
}

// check parses --layout and checks that --tasks has parameters to write.
func (f *layoutFlags) check(est model.Estimator, name string) error {
	l, err := output.ParseLayout(f.name)
	if err != nil {
		return usagef("--layout: %v", err)
	}
	f.layout = l
	if f.tasks != "" {
		if t, ok := est.(model.TaskParamReporter); !ok || !t.ReportsTaskParams() {
			return usagef("--tasks: model %s has no per-task parameters (%s have)", name, model.NamesWith(func(c model.Capabilities) bool { return c.TaskParams }))
		}
	}
	return nil
}

// checkData refuses, before the fit, classes whose names clash with the
// columns of the layout.
func (f *layoutFlags) checkData(d *data.Dataset) error {
	if f.layout != output.CrowdKit {
		return nil
	}
	if _, err := output.CrowdKitHeader(d.Classes); err != nil {
		return usagef("--layout crowdkit: %v", err)
	}
	return nil
}

// files returns the consensus file in the chosen layout and, with --tasks,
// the tasks file.
func (f *layoutFlags) files(out string, ofmt dataio.Format, res *model.Result, seed uint64) []output.File {
	files := []output.File{output.LayoutFile(out, ofmt, f.layout, res, seed)}
	if f.tasks != "" {
		files = append(files, output.TasksFile(f.tasks, "", res))
	}
	return files
}

// printClassPrior writes the fitted class prior of r, if it has one, as a
// line of the fit's summary.
func printClassPrior(w io.Writer, r *model.Result) {
	p := r.ClassPrior()
	if p == nil {
		return
	}
	parts := make([]string, len(p))
	for z, v := range p {
		parts[z] = fmt.Sprintf("%s %.4f", r.Data.Classes[z], v)
	}
	fmt.Fprintf(w, "class prior: %s\n", strings.Join(parts, ", "))
}
