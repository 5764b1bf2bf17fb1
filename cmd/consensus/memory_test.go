package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddressSpaceLimit checks that an address-space limit (ulimit -v)
// counts as a memory limit: a file whose reading needs more than the
// space left under it is refused before reading (exit 1, one line) or,
// where the estimate before reading fits, stopped while reading when the
// limit is reached (exit 2, one line); and /dev/zero stops with exit 2
// while reading — never the Go runtime's out-of-memory crash or the
// kernel's kill.
func TestAddressSpaceLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 2·10⁶ labels")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	dir := t.TempDir()
	if r := runIn(t, dir, "", "simulate", "-m", "da-ds", "--objects", "400000", "--workers", "1000", "--labels-per-object", "5", "--seed", "1", "-o", "big.csv"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	type outcome struct {
		code int
		want string
	}
	refused := outcome{1, "available (under the address-space limit, ulimit -v)"}
	stopped := outcome{2, "reading stopped here"}
	for _, tc := range []struct {
		limit, args string
		ok          []outcome
	}{
		// The Go runtime takes about 1.5 to 1.75 GB of address space at its
		// start, in steps that depend on the limit: 1.8 GB leaves about 60
		// MiB, where 1.5 GB left 23 to 31 MiB and a loaded machine's extra
		// threads (8 MiB of stack each with cgo) crashed the runtime before
		// the check ran. Whether the file is refused before reading or
		// stopped while reading depends on those steps. The child runs
		// with GOMAXPROCS=2 and an 8 MiB stack limit, so that a machine of
		// many cores or no stack limit starts no more C threads, with no
		// larger stacks, than the 2-core machine these limits were set on.
		{"1800000", "fit big.csv -m da-ds -o out.csv", []outcome{refused, stopped}},
		{"8000000", "fit -i /dev/zero -m rfe -o out.csv", []outcome{{2, "/dev/zero:1: reading stopped"}}},
	} {
		cmd := exec.Command("sh", "-c", "ulimit -s 8192 2>/dev/null; ulimit -v "+tc.limit+" && GOMAXPROCS=2 exec "+consensusBin+" "+tc.args)
		cmd.Dir = dir
		r := execute(t, cmd)
		good := false
		for _, o := range tc.ok {
			good = good || (r.code == o.code && strings.Contains(r.stderr, o.want))
		}
		if !good || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("ulimit -v %s; %s: exit %d, stderr %.300q", tc.limit, tc.args, r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "out.csv")); err == nil {
			t.Errorf("ulimit -v %s; %s: out.csv written", tc.limit, tc.args)
		}
	}
}

// TestRefusalAdvice checks that a refusal's advice names only what would
// not be refused in turn: with 286 classes, la-ds needs more than the
// limit too and is not advised; and that the reader's limit message is
// consistent (the memory it names exceeds the limit) and says what to do.
func TestRefusalAdvice(t *testing.T) {
	dir := t.TempDir()
	if r := runIn(t, dir, "", "simulate", "-m", "da-ds", "--classes", "300", "--objects", "200", "--workers", "50", "--labels-per-object", "5", "--seed", "1", "-o", "k.csv"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := runIn(t, dir, "", "fit", "k.csv", "-m", "vb-da-ds", "--max-memory", "50M", "-o", "out.csv")
	if r.code != 1 || !strings.Contains(r.stderr, "a model with fewer parameters (la-glad, la-onecoin, mmsr)") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runIn(t, dir, "", "pairwise", "simulate", "--items", "1000", "--comparisons", "200000", "--seed", "1", "-o", "c.csv"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r = runIn(t, dir, "", "pairwise", "fit", "c.csv", "--max-memory", "4M", "-o", "s.csv")
	if r.code != 2 || !strings.Contains(r.stderr, "of memory while it is read and kept, more than the memory limit of 3.8 MiB; use a machine with more memory, or --max-memory") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestSimulateCeiling checks that without a limit (--max-memory off) a
// simulation is still refused before any allocation when it needs more
// than the machine has (mem.Ceiling): the kernel would refuse the
// allocation and the runtime crash. The refusal does not advise
// --max-memory, which cannot help.
func TestSimulateCeiling(t *testing.T) {
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc")
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"simulate", "-m", "da-ds", "--classes", "3000", "--workers", "3000", "--objects", "1000", "--max-memory", "off", "-o", "k.csv"},
		{"pairwise", "simulate", "--items", "10", "--comparisons", "10000000000", "--max-memory", "off", "-o", "c.csv"},
	} {
		r := runIn(t, dir, "", args...)
		if r.code != 1 || !strings.Contains(r.stderr, "this machine has (") || strings.Contains(r.stderr, "--max-memory to change") ||
			strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
		if _, err := os.Stat(dir + "/" + args[len(args)-1]); err == nil {
			t.Errorf("%v: wrote its output", args)
		}
	}
}
