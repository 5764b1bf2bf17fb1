// Command consensus turns noisy crowdsourced labels into consensus labels
// and per-object label distributions, with the models of Fedorova, Gusev and
// Serdyukov, "Latent Distribution Assumption for Unbiased and Consistent
// Consensus Modelling".
//
// Run "consensus --help" for the subcommands. Exit status: 0 on success, 1
// when a run fails, 2 for bad usage or bad input, 130 when interrupted.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"syscall"

	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all" // every family of estimators, for ByName
	"github.com/spf13/cobra"
)

// version is the program version, set at build time with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// Exit statuses.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go watchInterrupt(ctx, stop)
	os.Exit(run(ctx, os.Args[1:]))
}

// run executes the command line args and returns the exit status. A panic
// is reported as a one-line internal error (exit status 1); the stack trace
// is printed only when CONSENSUS_TRACE is set.
func run(ctx context.Context, args []string) (status int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "consensus: internal error: %s; please report it (set CONSENSUS_TRACE=1 for details)\n",
				oneLine(fmt.Errorf("%v", p)))
			if os.Getenv("CONSENSUS_TRACE") != "" {
				os.Stderr.Write(debug.Stack())
			}
			status = exitFailure
		}
	}()
	root := newRoot()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, interruptedMsg)
		return exitInterrupted
	}
	fmt.Fprintln(os.Stderr, "consensus:", oneLine(withModelAdvice(err)))
	if isUsage(err) {
		return exitUsage
	}
	return exitFailure
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "consensus",
		Short: "Consensus labels and label distributions from noisy crowd labels",
		Long: `consensus aggregates noisy crowdsourced labels (task, worker, label) into a
consensus label and a probability distribution over the classes for every task.

It implements the models of Fedorova, Gusev and Serdyukov, "Latent
Distribution Assumption for Unbiased and Consistent Consensus Modelling":
the relative frequency baseline and Dawid-Skene, GLAD and minimax entropy, each
under the latent label assumption (LA: one true label per task) and the latent
distribution assumption (DA: a label distribution per task), and extends them:
more noise models, every one under LA, DA and hierarchical DA, Bayesian forms
fitted by variational Bayes (the default model, ` + model.DefaultModel + `), and Crowd-Kit's
categorical methods: ` + strconv.Itoa(len(model.Registry())) + ` models in all, which 'consensus models' lists.

Exit status: 0 success, 1 failure, 2 bad usage or input, 130 interrupted.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	root.PersistentPreRunE = checkZeros
	root.AddCommand(newFitCmd(), newModelsCmd(), newDatasetsCmd(), newEvalCmd(), newSimulateCmd())
	for _, c := range extraCommands {
		root.AddCommand(c())
	}
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	usageArgs(root)
	completeFlagValues(root)
	return root
}

// extraCommands lets subcommands in other files register themselves.
var extraCommands []func() *cobra.Command
