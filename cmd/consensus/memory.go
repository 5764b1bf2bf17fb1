package main

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
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
	return formatBytes(float64(*m))
}

// Set parses a size such as "512M", "4GiB", "2.5G", "1000000" (bytes),
// "auto" or "off".
func (m *memLimit) Set(s string) error {
	v, err := parseSize(s)
	if err != nil {
		return err
	}
	*m = memLimit(v)
	return nil
}

func (m *memLimit) Type() string { return "size" }

// parseSize parses a byte size with an optional decimal (k, M, G, T) or
// binary (KiB, MiB, GiB, TiB) unit; "auto" is 0, "off" or "none" is -1.
func parseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "auto", "":
		return 0, nil
	case "off", "none":
		return -1, nil
	}
	units := []struct {
		suffix string
		mult   float64
	}{
		{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
		{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
		{"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"t", 1e12}, {"b", 1},
	}
	mult := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v*mult < 1 || v*mult >= math.MaxInt64 {
		return 0, fmt.Errorf("invalid size %q: want a positive number of bytes with an optional unit (512M, 4GiB), auto or off", s)
	}
	return int64(math.Ceil(v * mult)), nil
}

// formatBytes formats a byte count for messages, such as "3.2 GiB".
func formatBytes(b float64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%.0f B", b)
	}
	exp, div := 0, float64(unit)
	for n := b / unit; n >= unit && exp < 4; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", b/div, "KMGTP"[exp])
}

// available returns the limit to check estimates against and a phrase
// describing it, or ok = false when there is nothing to check against.
func (m memLimit) available() (bytes float64, desc string, ok bool) {
	switch {
	case m == -1:
		return 0, "", false
	case m > 0:
		return float64(m), "the --max-memory limit of " + formatBytes(float64(m)), true
	}
	avail, ok := memAvailable()
	if !ok {
		return 0, "", false
	}
	source := "MemAvailable in /proc/meminfo"
	for _, l := range processLimits() {
		if l.avail < avail {
			avail, source = l.avail, l.source
		}
	}
	return avail, fmt.Sprintf("the %s available (%s)", formatBytes(avail), source), true
}

// bytes returns the limit in bytes to enforce while reading, or 0 for
// none.
func (m memLimit) bytes() int64 {
	if avail, _, ok := m.available(); ok {
		return int64(avail)
	}
	return 0
}

// memAvailable returns MemAvailable from /proc/meminfo in bytes.
func memAvailable() (float64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0, false
			}
			kb, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				return 0, false
			}
			return kb * 1024, true
		}
	}
	return 0, false
}

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
		path, formatBytes(need), formatCount(est.Rows), desc)}
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
		size = formatCount(float64(p.NumParams(d))) + " parameters for " + size
	}
	msg := fmt.Sprintf("fitting %s needs about %s of memory (%s), more than %s; ",
		est.Name(), formatBytes(need), size, desc)
	if smaller := smallerModels(est, d, s, avail); len(smaller) > 0 {
		msg += "a model with fewer parameters (" + strings.Join(smaller, ", ") + ") or "
	}
	msg += "a machine with more memory would do, or --max-memory changes the limit"
	return &memoryError{msg}
}

// smallerModels returns the registered models, other than est, that fit
// on d with the settings s in the memory available, avail, and need less
// than est: the two of them with a generative process (a worker model,
// model.Capabilities.Generative) that need the least, and the one without
// that needs the least, in registry order. Models that cannot fit d
// (a number of classes they do not support, training gold they need) and
// aliases are left out: the advice names only models that would not be
// refused in turn.
func smallerModels(est model.Estimator, d *data.Dataset, s *model.Settings, avail float64) []string {
	k := d.NumClasses()
	need := min(model.FitMemory(est, d, s), avail)
	type cand struct {
		name string
		mem  float64
		i    int
	}
	var gen, other []cand
	for i, e := range model.Registry() {
		c := model.Describe(e)
		if c.Name == est.Name() || c.SameAs != "" || c.NeedsGold || k < c.MinClasses || k > c.MaxClasses {
			continue
		}
		m := model.FitMemory(e.New(), d, s)
		if m > need {
			continue
		}
		if c.Generative {
			gen = append(gen, cand{c.Name, m, i})
		} else {
			other = append(other, cand{c.Name, m, i})
		}
	}
	byMem := func(a, b cand) int { return cmp.Or(cmp.Compare(a.mem, b.mem), cmp.Compare(a.i, b.i)) }
	slices.SortStableFunc(gen, byMem)
	slices.SortStableFunc(other, byMem)
	picked := slices.Concat(gen[:min(2, len(gen))], other[:min(1, len(other))])
	slices.SortFunc(picked, func(a, b cand) int { return cmp.Compare(a.i, b.i) })
	var out []string
	for _, c := range picked {
		out = append(out, c.name)
	}
	return out
}

// formatCount formats a large count for messages, such as "2.5 million".
func formatCount(v float64) string {
	switch {
	case v >= 1e12:
		return fmt.Sprintf("%.0f trillion", v/1e12)
	case v >= 1e9:
		return fmt.Sprintf("%.1f billion", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.1f million", v/1e6)
	}
	return fmt.Sprintf("%.0f", v)
}

// simBytesPerLabel is the memory a simulated label takes (the data set's
// index arrays: a worker and a class), and simBytes what a simulation
// takes besides its labels, identifiers and true distributions, set above
// the whole process's peaks of `consensus simulate` under /usr/bin/time:
// 65 MB for 2·10⁶ labels of 4·10⁵ objects (estimated 81), 117 MB for 10⁷
// of 5·10⁵ (158), 1.27 GB for 2·10⁸ labels of 2·10⁵ objects with K = 20
// (1.70 GB).
const (
	simBytesPerLabel = 8
	simBytes         = 16 << 20
)

// maxAddressable is more memory than any process can address (x86-64 and
// arm64 give a process 128 TiB): a simulation estimated to need more is
// refused even without a limit (--max-memory off), since allocating it
// would end in a runtime error instead of a message.
const maxAddressable = 1 << 47

// checkSimulateMemory fails if the simulation described by cfg is estimated
// to need more memory than the limit allows: the labels, the identifiers,
// the true distributions and the noise model's parameters (cfg.Noise's
// WorkerDim and TaskDim values, twice: the parameters and what sampling
// derives from them). simulate and bench call it before any allocation.
func checkSimulateMemory(cfg sim.Settings, limit memLimit) error {
	avail, desc, ok := limit.available()
	if !ok {
		avail, desc = maxAddressable, "any process can address"
	}
	tasks, workers, per := float64(cfg.Tasks), float64(cfg.Workers), float64(cfg.LabelsPerTask)
	if tasks == 0 {
		tasks = 2000
	}
	if workers == 0 {
		workers = 20
	}
	if per == 0 || per > workers {
		per = workers
	}
	k := max(cfg.Classes, 2)
	labels := tasks * per
	params := 0.0
	if cfg.Noise != nil {
		params = workers*float64(cfg.Noise.WorkerDim(k)) + tasks*float64(cfg.Noise.TaskDim(k))
	}
	need := labels*simBytesPerLabel + (tasks+workers)*dataio.ReadBytesPerID + tasks*float64(k)*16 + params*16 + simBytes
	if need <= avail {
		return nil
	}
	what := ""
	if params*16 > need/2 {
		what = fmt.Sprintf(", most of it for %s parameters of the noise model (%s objects, %s workers, %d classes)", formatCount(params), formatCount(tasks), formatCount(workers), k)
	}
	return &memoryError{fmt.Sprintf("simulating %s labels (%s objects × %s labels each) needs about %s of memory%s, more than %s; use fewer --objects, --workers, --classes or --labels-per-object, or --max-memory to change the limit",
		formatCount(labels), formatCount(tasks), formatCount(per), formatBytes(need), what, desc)}
}
