package mem

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// ParseSize parses a byte size with an optional decimal (k, M, G, T) or
// binary (KiB, MiB, GiB, TiB) unit; "auto" is 0, "off" or "none" is -1.
func ParseSize(s string) (int64, error) {
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

// FormatBytes formats a byte count for messages, such as "3.2 GiB".
func FormatBytes(b float64) string {
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

// FormatCount formats a large count for messages, such as "2.5 million".
func FormatCount(v float64) string {
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

// Available returns the memory the process can still use, in bytes, and a
// phrase naming where the number comes from for messages: the smallest of
// MemAvailable in /proc/meminfo and the memory left under every limit the
// process runs under (see processLimits). ok is false where MemAvailable
// cannot be read.
func Available() (bytes float64, source string, ok bool) {
	avail, ok := memAvailable()
	if !ok {
		return 0, "", false
	}
	source = "MemAvailable in /proc/meminfo"
	for _, l := range processLimits() {
		if l.avail < avail {
			avail, source = l.avail, l.source
		}
	}
	return avail, source, true
}

// Ceiling returns the most memory the process could ever use, in bytes,
// and a phrase naming where the number comes from: the machine's memory
// and swap (MemTotal and SwapTotal in /proc/meminfo), or less under a
// limit the process runs under (see processLimits). It is a bound even
// when no limit is wanted (--max-memory off): the kernel refuses one
// allocation beyond it, which the Go runtime turns into its out-of-memory
// crash. ok is false where MemTotal cannot be read.
func Ceiling() (bytes float64, source string, ok bool) {
	total, ok := procKB("/proc/meminfo", "MemTotal:")
	if !ok {
		return 0, "", false
	}
	swap, _ := procKB("/proc/meminfo", "SwapTotal:")
	bytes, source = total+swap, "MemTotal and SwapTotal in /proc/meminfo"
	for _, l := range processLimits() {
		if l.avail < bytes {
			bytes, source = l.avail, l.source
		}
	}
	return bytes, source, true
}

// memAvailable returns MemAvailable from /proc/meminfo in bytes.
func memAvailable() (float64, bool) {
	return procKB("/proc/meminfo", "MemAvailable:")
}

// procKB returns in bytes the value in kB of the line starting with key
// in the /proc file path, such as VmSize: of /proc/self/status.
func procKB(path, key string) (float64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
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

// processLimit is the memory left under one limit the process runs under.
type processLimit struct {
	avail  float64 // bytes
	source string  // for messages, such as "under the cgroup memory limit"
}

// processLimits returns the memory left under every limit the process
// runs under that it can read, besides the machine's MemAvailable: a
// cgroup v2 or v1 memory limit less the group's usage, and an
// address-space limit (ulimit -v) less the process's virtual size (the Go
// runtime's reservations count against it, so what is left is what the
// heap can still map). The smallest is the memory available.
func processLimits() []processLimit {
	var out []processLimit
	if c, ok := cgroupAvailable(); ok {
		out = append(out, processLimit{c, "under the cgroup memory limit"})
	}
	if a, ok := addressSpaceAvailable(); ok {
		out = append(out, processLimit{a, "under the address-space limit, ulimit -v"})
	}
	return out
}

// readNumber reads a file holding one number, such as a cgroup's limit.
// "max" (no limit) does not parse.
func readNumber(path string) (float64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	return v, err == nil
}

// cgroupRoot is where the cgroup file system is mounted; tests point it
// at a fake one.
var cgroupRoot = "/sys/fs/cgroup"

// cgroupAvailable returns the memory left under a cgroup memory limit, v2
// (memory.max) or v1 (memory/memory.limit_in_bytes, where "no limit" is a
// number near 2⁶³), if the process has one, from the cgroup file system
// at cgroupRoot.
func cgroupAvailable() (float64, bool) {
	for _, f := range []struct{ limit, usage string }{
		{"memory.max", "memory.current"},
		{"memory/memory.limit_in_bytes", "memory/memory.usage_in_bytes"},
	} {
		limit, ok := readNumber(filepath.Join(cgroupRoot, f.limit))
		if !ok || limit >= 1<<60 {
			continue
		}
		used, _ := readNumber(filepath.Join(cgroupRoot, f.usage))
		return max(limit-used, 0), true
	}
	return 0, false
}

// addressSpaceAvailable returns half the address space left under
// RLIMIT_AS (the limit less VmSize of /proc/self/status and threadStacks):
// the heap maps address space in whole arenas, and a growing buffer holds
// its old and new copies until a collection, so that the address space
// runs out well before the bytes in use reach it (a reader's 218 MB line
// buffer once failed with 322 MB in use and 815 MB left, and the runtime
// crashed instead of the reader stopping).
func addressSpaceAvailable() (float64, bool) {
	limit, ok := addressSpaceLimit()
	if !ok {
		return 0, false
	}
	size, ok := procKB("/proc/self/status", "VmSize:")
	if !ok {
		return 0, false
	}
	return max(limit-size-threadStacks(), 0) / 2, true
}

// threadStacks returns the address space that threads the runtime starts
// later take for their stacks. With cgo (the net package's resolver links
// it where a C compiler is found) a thread is a C thread whose stack
// reserves the stack limit (ulimit -s; glibc's 2 MiB where there is
// none), and the runtime may run GOMAXPROCS of them at once for work and
// collections: on a machine of many cores hundreds of MiB, which a tight
// limit must leave free or the runtime aborts (pthread_create failed).
// Without cgo a thread's stack is a few KiB of the heap, and threadStacks
// returns 0.
func threadStacks() float64 {
	if !cgoThreads() {
		return 0
	}
	stack, ok := stackLimit()
	if !ok {
		stack = 2 << 20
	}
	return float64(runtime.GOMAXPROCS(0)) * stack
}

// cgoThreads reports whether the program was built with cgo, so that its
// threads are C threads with C stacks.
func cgoThreads() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "CGO_ENABLED" {
			return s.Value == "1"
		}
	}
	return false
}
