//go:build unix && !linux

package benchdata

// maxrssBytes converts getrusage's ru_maxrss, in bytes on the BSDs and
// macOS.
func maxrssBytes(v int64) int64 { return v }
