//go:build !unix

package output

import (
	"io/fs"
	"os"
)

// writable reports whether the process may write the existing file path:
// systems without access(2) find out when writing.
func writable(string) error { return nil }

// replaceable reports whether replacing the existing file fi keeps its
// owner: systems without Unix owners have nothing to keep.
func replaceable(fs.FileInfo) error { return nil }

// keepOwner gives tmp the owner of fi: nothing to do without Unix owners.
func keepOwner(*os.File, fs.FileInfo) error { return nil }
