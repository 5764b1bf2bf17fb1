package main

import (
	"os"
	"strconv"
	"strings"
)

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

// cgroupAvailable returns the memory left under a cgroup memory limit, v2
// (memory.max) or v1 (memory.limit_in_bytes, where "no limit" is a number
// near 2⁶³), if the process has one.
func cgroupAvailable() (float64, bool) {
	for _, f := range []struct{ limit, usage string }{
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
	} {
		limit, ok := readNumber(f.limit)
		if !ok || limit >= 1<<60 {
			continue
		}
		used, _ := readNumber(f.usage)
		return max(limit-used, 0), true
	}
	return 0, false
}

// addressSpaceAvailable returns the address space left under RLIMIT_AS:
// the limit less VmSize of /proc/self/status.
func addressSpaceAvailable() (float64, bool) {
	limit, ok := addressSpaceLimit()
	if !ok {
		return 0, false
	}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0, false
			}
			kb, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				return 0, false
			}
			return max(limit-kb*1024, 0), true
		}
	}
	return 0, false
}
