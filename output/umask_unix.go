//go:build unix

package output

import (
	"io/fs"
	"sync"
	"syscall"
)

// umask is the process's file mode creation mask, read once: the only way
// to read it is to set it, which is not safe while other goroutines create
// files, so it is read before the first output is staged and then kept.
var umask = sync.OnceValue(func() fs.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return fs.FileMode(m)
})

// newFileMode returns the permissions of a new output file: 0666 less the
// umask, as a shell redirection creates files.
func newFileMode() fs.FileMode { return 0o666 &^ umask() }
