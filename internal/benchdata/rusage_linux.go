//go:build linux

package benchdata

// maxrssBytes converts getrusage's ru_maxrss, in kilobytes on Linux.
func maxrssBytes(v int64) int64 { return v * 1024 }
