package benchdata

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSpread(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		in   []time.Duration
		want string
	}{
		{[]time.Duration{5 * ms}, "5ms (5ms–5ms)"},
		{[]time.Duration{3 * ms, 1 * ms, 2 * ms}, "2ms (1ms–3ms)"},
		{[]time.Duration{4 * ms, 1 * ms, 2 * ms, 3 * ms}, "3ms (1ms–4ms)"},
		{[]time.Duration{1400 * time.Microsecond, 1200 * time.Microsecond}, "1ms (1ms–1ms)"},
	} {
		if got := Spread(c.in); got != c.want {
			t.Errorf("Spread(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMeasure checks that Measure returns run's error, and on success a
// CPU time not below the busy loop's and a peak not below the start.
func TestMeasure(t *testing.T) {
	bad := errors.New("bad")
	if _, err := Measure(func() error { return bad }); err != bad {
		t.Fatalf("Measure: %v, want run's error", err)
	}
	var sink []byte
	m, err := Measure(func() error {
		start := time.Now()
		for time.Since(start) < 20*time.Millisecond {
			sink = make([]byte, 1<<20)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = sink
	if _, ok := CPUTime(); ok && m.CPU <= 0 {
		t.Errorf("CPU %v after a busy loop", m.CPU)
	}
	if m.PeakOK && m.Peak < m.RSSStart {
		t.Errorf("peak %d below the start %d", m.Peak, m.RSSStart)
	}
}

// TestStartCPUProfile checks that a profile is kept after a success and
// removed after a failure, and that an unwritable path is an error.
func TestStartCPUProfile(t *testing.T) {
	dir := t.TempDir()
	for _, failed := range []bool{false, true} {
		path := filepath.Join(dir, "cpu.out")
		stop, err := StartCPUProfile(path)
		if err != nil {
			t.Fatal(err)
		}
		stop(failed)
		_, err = os.Stat(path)
		if kept := err == nil; kept == failed {
			t.Errorf("failed %v: profile kept %v", failed, kept)
		}
	}
	if _, err := StartCPUProfile(filepath.Join(dir, "none", "cpu.out")); err == nil {
		t.Error("StartCPUProfile into a missing directory: no error")
	}
}

// TestArgumentErrors checks that Get, Measure and Spread return an error
// or an empty string, instead of panicking, on nil or empty arguments.
func TestArgumentErrors(t *testing.T) {
	if _, err := Get(10, 2, nil, nil); err == nil {
		t.Error("Get without a noise model: no error")
	}
	if _, err := Measure(nil); err == nil {
		t.Error("Measure(nil): no error")
	}
	if s := Spread(nil); s != "" {
		t.Errorf("Spread(nil) = %q, want empty", s)
	}
}
