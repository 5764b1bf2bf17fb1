package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestZeroReport checks that the zero Report, which New did not make,
// writes an error instead of panicking.
func TestZeroReport(t *testing.T) {
	var b bytes.Buffer
	if err := (&Report{}).WriteHTML(&b); err == nil || !strings.Contains(err.Error(), "New did not make") || b.Len() != 0 {
		t.Errorf("error %v and %d bytes written, want an error and nothing", err, b.Len())
	}
}
