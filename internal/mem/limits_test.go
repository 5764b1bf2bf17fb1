package mem

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseSize checks sizes with and without units, auto and off, and
// the sizes refused.
func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"512M", 512e6, true}, {"4GiB", 4 << 30, true}, {"2.5g", 2.5e9, true}, {"1000", 1000, true},
		{" 10 KiB ", 10 << 10, true}, {"auto", 0, true}, {"off", -1, true}, {"none", -1, true},
		{"", 0, true}, {"lots", 0, false}, {"-5M", 0, false}, {"0", 0, false}, {"NaN", 0, false},
		{"1e30T", 0, false}, {"12x", 0, false}, {"0.5", 0, false}, {"0.4B", 0, false},
	} {
		got, err := ParseSize(c.in)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestFormatBytes checks the unit and rounding of byte counts.
func TestFormatBytes(t *testing.T) {
	for in, want := range map[float64]string{1000: "1000 B", 1 << 10: "1.0 KiB", 3.5 * (1 << 30): "3.5 GiB", 1 << 50: "1.0 PiB"} {
		if got := FormatBytes(in); got != want {
			t.Errorf("FormatBytes(%g) = %q, want %q", in, got, want)
		}
	}
}

// TestFormatCount checks the wording of large counts.
func TestFormatCount(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{999, "999"}, {999999, "999999"}, {2.5e6, "2.5 million"}, {1.25e9, "1.2 billion"}, {3e12, "3 trillion"},
	} {
		if got := FormatCount(c.in); got != c.want {
			t.Errorf("FormatCount(%g) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestAvailable checks that the memory available, where it can be read,
// is a positive number with a source to name in messages.
func TestAvailable(t *testing.T) {
	b, source, ok := Available()
	if !ok {
		t.Skip("no /proc/meminfo")
	}
	if !(b >= 0) || source == "" {
		t.Errorf("Available() = %g, %q", b, source)
	}
}

// TestCgroupAvailable reads fake cgroup file systems: a v2 limit, a v1
// limit (the memory controller's own directory), v1's "no limit" (a
// number near 2⁶³), v2's "max", and none; the memory available is the
// limit less the usage, and Available names the cgroup when it is the
// smallest.
func TestCgroupAvailable(t *testing.T) {
	defer func(old string) { cgroupRoot = old }(cgroupRoot)
	for _, c := range []struct {
		name  string
		files map[string]string
		want  float64
		ok    bool
	}{
		{"v2", map[string]string{"memory.max": "104857600\n", "memory.current": "4857600\n"}, 100e6, true},
		{"v1", map[string]string{"memory/memory.limit_in_bytes": "52428800\n", "memory/memory.usage_in_bytes": "2428800\n"}, 50e6, true},
		{"v1 without a limit", map[string]string{"memory/memory.limit_in_bytes": "9223372036854771712\n", "memory/memory.usage_in_bytes": "1000\n"}, 0, false},
		{"v2 without a limit", map[string]string{"memory.max": "max\n", "memory.current": "1000\n"}, 0, false},
		{"usage above the limit", map[string]string{"memory/memory.limit_in_bytes": "1000\n", "memory/memory.usage_in_bytes": "5000\n"}, 0, true},
		{"none", nil, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cgroupRoot = t.TempDir()
			for name, content := range c.files {
				path := filepath.Join(cgroupRoot, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, ok := cgroupAvailable()
			if ok != c.ok || got != c.want {
				t.Fatalf("cgroupAvailable() = %g, %v; want %g, %v", got, ok, c.want, c.ok)
			}
			if avail, source, okAll := Available(); ok && got < 1e9 && okAll && (avail != got || !strings.Contains(source, "cgroup")) {
				t.Errorf("Available() = %g, %q; want the cgroup's %g", avail, source, got)
			}
		})
	}
}

// TestCeiling checks that the most memory the process could ever use is
// known where /proc/meminfo is, and is no less than what is available now.
func TestCeiling(t *testing.T) {
	c, source, ok := Ceiling()
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		if ok {
			t.Errorf("Ceiling() = %v, %q without /proc/meminfo", c, source)
		}
		return
	}
	avail, _, _ := Available()
	if !ok || c <= 0 || c < avail || source == "" {
		t.Errorf("Ceiling() = %v, %q, %v; Available() = %v", c, source, ok, avail)
	}
}
