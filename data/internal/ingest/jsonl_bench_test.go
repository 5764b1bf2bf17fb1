package ingest

import (
	"fmt"
	"testing"
)

// BenchmarkJSONLScan times JSONLScan.Parse on records as consensus
// simulate writes them (plain) and as Python's json.dumps writes them with
// non-ASCII identifiers (escaped), a thousand records an iteration.
func BenchmarkJSONLScan(b *testing.B) {
	names := []string{"task", "worker", "label"}
	for _, c := range []struct {
		name   string
		format string
	}{
		{"plain", `{"task":"t%d","worker":"w%d","label":"%d"}`},
		{"escaped", `{"task": "\u0437\u0430\u0434\u0430\u0447\u0430-t%d", "worker": "\u0440\u0430\u0431-w%d\u00e9\ud83d\ude00", "label": "%d"}`},
	} {
		lines := make([][]byte, 1000)
		for i := range lines {
			lines[i] = []byte(fmt.Sprintf(c.format, i/20, i%20, i%2))
		}
		b.Run(c.name, func(b *testing.B) {
			var s JSONLScan
			cells := make([]string, len(names))
			for range b.N {
				for _, line := range lines {
					if !s.Parse(line, names, cells) && c.name == "plain" {
						b.Fatalf("%s: not read", line)
					}
				}
			}
		})
	}
}
