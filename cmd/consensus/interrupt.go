package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/consensuslab/consensus/output"
)

// interruptedMsg is the message printed when a run is stopped by SIGINT or
// SIGTERM.
const interruptedMsg = "consensus: interrupted; unfinished output files were not written (existing files keep their content)"

// interruptGrace is how long a command may take to stop by itself after
// an interrupt before the process exits anyway.
var interruptGrace = 2 * time.Second

// watchInterrupt waits for ctx, the context cancelled by the first SIGINT
// or SIGTERM. It then restores the default signal handling (stop), so that a
// second signal kills the program at once, and gives the running command
// interruptGrace to return by itself (the fit checks ctx after every
// evaluation, reading after every block). If it has not returned by then,
// watchInterrupt stops any further rename (output.Freeze), removes the
// temporary files of unfinished writes and exits with status 130: the
// targets keep their old content or stay absent, unless the renames came
// before, which the message then says.
func watchInterrupt(ctx context.Context, stop func()) {
	<-ctx.Done()
	stop()
	time.Sleep(interruptGrace)
	// No rename after this point; if one came first, the files are new.
	msg := interruptedMsg
	if output.Freeze() {
		msg = "consensus: interrupted after the output files were written"
	}
	output.RemoveTemps()
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(exitInterrupted)
}
