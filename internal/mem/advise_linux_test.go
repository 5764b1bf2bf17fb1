package mem

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestAdviseLinux checks in /proc/self/smaps that the mapping holding the
// first whole huge page of a slice from Make carries the huge-page advice
// ("hg" in VmFlags), where the kernel has transparent huge pages.
func TestAdviseLinux(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages:", err)
	}
	s := Make[float64](3 * HugePage / 8)
	page := (uintptr(unsafe.Pointer(&s[0])) + HugePage - 1) &^ (HugePage - 1)
	flags, err := vmFlags(page)
	if err != nil {
		t.Skip(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("VmFlags of the mapping at %#x: %q, want hg", page, flags)
	}
}

// vmFlags returns the VmFlags line of the mapping of /proc/self/smaps that
// holds the address a.
func vmFlags(a uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= a && a < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping holds %#x", a)
}

// TestAdviseNeighbours checks that advice on a slice that holds no whole
// huge page, or on part of one, leaves its bytes and its neighbours' as
// they were.
func TestAdviseNeighbours(t *testing.T) {
	b := make([]byte, 3*HugePage)
	for i := range b {
		b[i] = byte(i)
	}
	advise(unsafe.Pointer(&b[100]), 10)
	advise(unsafe.Pointer(&b[HugePage/2]), 2*HugePage)
	for i, v := range b {
		if v != byte(i) {
			t.Fatalf("b[%d] = %d, want %d", i, v, byte(i))
		}
	}
}
