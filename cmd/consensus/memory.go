package main

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/mem"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/pairwise"
	"github.com/consensuslab/consensus/sim"
)

// memLimit is the value of --max-memory: a number of bytes, 0 for "the
// memory available" (the default) or -1 for no check.
type memLimit int64

func (m *memLimit) String() string {
	switch *m {
	case 0:
		return "auto"
	case -1:
		return "off"
	}
	return mem.FormatBytes(float64(*m))
}

// Set parses a size such as "512M", "4GiB", "2.5G", "1000000" (bytes),
// "auto" or "off".
func (m *memLimit) Set(s string) error {
	v, err := mem.ParseSize(s)
	if err != nil {
		return err
	}
	*m = memLimit(v)
	return nil
}

func (m *memLimit) Type() string { return "size" }

// available returns the limit to check estimates against and a phrase
// describing it, or ok = false when there is nothing to check against.
func (m memLimit) available() (bytes float64, desc string, ok bool) {
	switch {
	case m == -1:
		return 0, "", false
	case m > 0:
		return float64(m), "the --max-memory limit of " + mem.FormatBytes(float64(m)), true
	}
	avail, source, ok := mem.Available()
	if !ok {
		return 0, "", false
	}
	return avail, fmt.Sprintf("the %s available (%s)", mem.FormatBytes(avail), source), true
}

// bytes returns the limit in bytes to enforce while reading, or 0 for
// none.
func (m memLimit) bytes() int64 {
	if avail, _, ok := m.available(); ok {
		return int64(avail)
	}
	return 0
}

// minWorkingMemory is the least memory a read needs beyond the program's
// own under a limit the process runs under (--max-memory auto): below it a
// file is refused before it is sampled.
const minWorkingMemory = 64 << 20

// memoryError is the error of a run that would need more memory than
// allowed. It exits with status 1.
type memoryError struct{ msg string }

func (e *memoryError) Error() string { return e.msg }

// checkReadMemory estimates the memory needed to read the labels file path
// (dataio.EstimateFile) and fails if it exceeds the limit. Standard input
// and Parquet files are not checked here (their size is unknown or not
// proportional to the rows); the fit is checked later by checkFitMemory in
// every case.
func checkReadMemory(path string, format dataio.Format, opt dataio.ReadSettings, limit memLimit) error {
	if path == "" || path == "-" {
		return nil
	}
	avail, desc, ok := limit.available()
	if !ok {
		return nil
	}
	if limit == 0 && avail < minWorkingMemory {
		// Under a process limit with this little room the estimate's own
		// sample, or a new thread's stack, could end in the runtime's
		// out-of-memory crash instead of this refusal.
		return &memoryError{fmt.Sprintf("%s: reading it needs at least %s of memory, more than %s; use a machine with more memory, or --max-memory to change the limit",
			path, mem.FormatBytes(minWorkingMemory), desc)}
	}
	est, err := dataio.EstimateFile(path, format, opt)
	if err != nil {
		return nil // Parquet, or a file the reader reports on properly
	}
	need := est.ReadMemory()
	if need <= avail {
		return nil
	}
	return &memoryError{fmt.Sprintf(
		"%s: reading it needs about %s of memory (an estimate for about %s rows), more than %s; "+
			"use a machine with more memory, or --max-memory to change the limit",
		path, mem.FormatBytes(need), mem.FormatCount(est.Rows), desc)}
}

// checkFitMemory fails if fitting est on d with the settings s is
// estimated (model.FitMemory) to need more memory than the limit allows.
func checkFitMemory(est model.Estimator, d *data.Dataset, s *model.Settings, limit memLimit) error {
	avail, desc, ok := limit.available()
	if !ok {
		return nil
	}
	need := model.FitMemory(est, d, s)
	if need <= avail {
		return nil
	}
	size := fmt.Sprintf("%d tasks, %d workers and %d classes", d.NumTasks(), d.NumWorkers(), d.NumClasses())
	if p, ok := est.(model.Parametric); ok {
		size = mem.FormatCount(float64(p.NumParams(d))) + " parameters for " + size
	}
	msg := fmt.Sprintf("fitting %s needs about %s of memory (%s), more than %s; ",
		est.Name(), mem.FormatBytes(need), size, desc)
	if smaller := model.SmallerModels(est, d, s, avail); len(smaller) > 0 {
		msg += "a model with fewer parameters (" + strings.Join(smaller, ", ") + ") or "
	}
	msg += "a machine with more memory would do, or --max-memory changes the limit"
	return &memoryError{msg}
}

// maxAddressable is more memory than any process can address (x86-64 and
// arm64 give a process 128 TiB): a simulation estimated to need more is
// refused even without a limit (--max-memory off), since allocating it
// would end in a runtime error instead of a message.
const maxAddressable = 1 << 47

// ceiling returns what an estimate of need bytes is checked against
// without a limit (--max-memory off): the memory the process could ever
// use (mem.Ceiling), since allocating more ends in the runtime's
// out-of-memory crash instead of a message, or, for more than any process
// can address or where that is not known, maxAddressable.
func ceiling(need float64) (float64, string) {
	if c, source, ok := mem.Ceiling(); ok && need <= maxAddressable {
		return c, fmt.Sprintf("the %s this machine has (%s), a bound even with --max-memory off", mem.FormatBytes(c), source)
	}
	return maxAddressable, "any process can address"
}

// limitAdvice returns the end of a refusal's advice: --max-memory, if a
// limit was checked (limited), can change it; without one, nothing can.
func limitAdvice(limited bool) string {
	if limited {
		return ", or --max-memory to change the limit"
	}
	return ""
}

// checkSimulateMemory fails if the simulation described by cfg is estimated
// (sim.EstimateMemory) to need more memory than the limit allows (without
// one, than ceiling). simulate and bench call it before any allocation.
func checkSimulateMemory(cfg sim.Settings, limit memLimit) error {
	m := sim.EstimateMemory(cfg)
	avail, desc, ok := limit.available()
	if !ok {
		avail, desc = ceiling(m.Bytes)
	}
	if m.Bytes <= avail {
		return nil
	}
	what := ""
	if m.Params*16 > m.Bytes/2 {
		what = fmt.Sprintf(", most of it for %s parameters of the noise model (%s objects, %s workers, %d classes)", mem.FormatCount(m.Params), mem.FormatCount(m.Tasks), mem.FormatCount(m.Workers), m.Classes)
	}
	return &memoryError{fmt.Sprintf("simulating %s labels (%s objects × %s labels each) needs about %s of memory%s, more than %s; use fewer --objects, --workers, --classes or --labels-per-object%s",
		mem.FormatCount(m.Labels), mem.FormatCount(m.Tasks), mem.FormatCount(m.PerTask), mem.FormatBytes(m.Bytes), what, desc, limitAdvice(ok))}
}

// Memory of pairwise simulate, measured with /usr/bin/time on 2·10⁶
// comparisons, 2·10⁶ items, 2·10⁶ workers, and 10⁶ each of distinct items
// and workers (36, 8, 16 and 167 bytes), rounded up.
const (
	pairSimPerComparison = 40
	pairSimPerItem       = 8
	pairSimPerWorker     = 16
	pairSimPerID         = 170
)

// checkPairwiseSimulateMemory fails if the pairwise simulation s is
// estimated to need more memory than the limit allows (without a limit,
// than ceiling), before any allocation. Zero counts are
// pairwise.Simulate's defaults.
func checkPairwiseSimulateMemory(s pairwise.SimSettings, limit memLimit) error {
	items := float64(cmp.Or(s.Items, 1000))
	workers := float64(cmp.Or(s.Workers, 50))
	comps := float64(cmp.Or(s.Comparisons, 20000))
	ids := min(items, 2*comps) + min(workers, comps)
	need := comps*pairSimPerComparison + items*pairSimPerItem + workers*pairSimPerWorker + ids*pairSimPerID
	avail, desc, ok := limit.available()
	if !ok {
		avail, desc = ceiling(need)
	}
	if need <= avail {
		return nil
	}
	return &memoryError{fmt.Sprintf("simulating %s comparisons of %s items by %s workers needs about %s of memory, more than %s; use fewer --comparisons, --items or --workers%s",
		mem.FormatCount(comps), mem.FormatCount(items), mem.FormatCount(workers), mem.FormatBytes(need), desc, limitAdvice(ok))}
}
