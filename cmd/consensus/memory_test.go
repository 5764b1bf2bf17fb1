package main

import (
	"testing"
)

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
		got, err := parseSize(c.in)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for in, want := range map[float64]string{1000: "1000 B", 1 << 10: "1.0 KiB", 3.5 * (1 << 30): "3.5 GiB", 1 << 50: "1.0 PiB"} {
		if got := formatBytes(in); got != want {
			t.Errorf("formatBytes(%g) = %q, want %q", in, got, want)
		}
	}
}
