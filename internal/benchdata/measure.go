package benchdata

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"time"
)

// Measurement is what one run of a function cost the process.
type Measurement struct {
	// CPU is the process's CPU time (user and system) during the run.
	CPU time.Duration
	// RSSStart is the resident memory at the run's start, after a
	// garbage collection that returned the free memory to the system,
	// and Peak the highest resident memory during the run, in bytes.
	RSSStart, Peak int64
	// PeakOK reports whether RSSStart and Peak were measured: the run's
	// own peak needs Linux (ResetPeakRSS).
	PeakOK bool
}

// Measure runs run and returns its cost. It first collects the garbage of
// earlier runs and returns it to the system, so that the peak is that of
// this run and not of the leftovers of others. The error is run's; a nil
// run is an error.
func Measure(run func() error) (Measurement, error) {
	if run == nil {
		return Measurement{}, fmt.Errorf("benchdata: nothing to measure")
	}
	debug.FreeOSMemory()
	var m Measurement
	// The peak is reset before the start is read: memory the runtime
	// returns to the system in between would otherwise leave the peak
	// since the reset below the start (as it did under the race
	// detector).
	ok := ResetPeakRSS()
	rss0, _, ok0 := RSS()
	ok = ok && ok0
	cpu0, _ := CPUTime()
	if err := run(); err != nil {
		return Measurement{}, err
	}
	cpu1, _ := CPUTime()
	_, peak, ok2 := RSS()
	m.CPU, m.RSSStart, m.Peak, m.PeakOK = cpu1-cpu0, rss0, peak, ok && ok2
	return m, nil
}

// Spread formats the median of ds and their range, "1.2s (1.1s–1.4s)",
// rounded to the millisecond; "" if ds is empty.
func Spread(ds []time.Duration) string {
	if len(ds) == 0 {
		return ""
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + med) / 2
	}
	r := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
	return fmt.Sprintf("%v (%v–%v)", r(med), r(s[0]), r(s[len(s)-1]))
}

// StartCPUProfile starts a CPU profile into the file at path and returns
// the function that stops it and closes the file, and removes the file if
// failed is true, so that no partial profile is left behind.
func StartCPUProfile(path string) (stop func(failed bool), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return func(failed bool) {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil || failed {
			os.Remove(path)
		}
	}, nil
}
