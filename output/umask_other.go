//go:build !unix

package output

import "io/fs"

// newFileMode returns the permissions of a new output file; systems
// without a umask get 0644.
func newFileMode() fs.FileMode { return 0o644 }
