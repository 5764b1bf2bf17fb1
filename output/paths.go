package output

import (
	"os"
	"path/filepath"
)

// statPath returns the file that path names: for "-", the file behind
// standard input (of an input) or standard output (of an output).
func statPath(path string, out bool) (os.FileInfo, error) {
	switch {
	case path != "-":
		return os.Stat(path)
	case out:
		return os.Stdout.Stat()
	}
	return os.Stdin.Stat()
}

// Aliases reports whether writing the output out would change the input
// in: the same path (see SameFile), or the same regular file behind
// standard input or output, which the path "-" names.
func Aliases(in, out string) bool {
	if in != "-" && out != "-" && SameFile(in, out) {
		return true
	}
	a, err1 := statPath(in, false)
	b, err2 := statPath(out, true)
	return err1 == nil && err2 == nil && a.Mode().IsRegular() && os.SameFile(a, b)
}

// SameOutput reports whether outputs a and b write the same file or
// stream, standard output (the path "-") included.
func SameOutput(a, b string) bool {
	if a == "-" && b == "-" {
		return true
	}
	if a != "-" && b != "-" && SameFile(a, b) {
		return true
	}
	fa, err1 := statPath(a, true)
	fb, err2 := statPath(b, true)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// SameStream reports whether inputs a and b are one stream that can be
// read only once: standard input (the path "-") named twice, or the same
// pipe or device.
func SameStream(a, b string) bool {
	if a == "-" && b == "-" {
		return true
	}
	fa, err1 := statPath(a, false)
	fb, err2 := statPath(b, false)
	return err1 == nil && err2 == nil && !fa.Mode().IsRegular() && !fa.IsDir() && os.SameFile(fa, fb)
}

// SameFile reports whether paths a and b name the same file: the same path
// once symbolic links are followed (also a dangling link, which names the
// file writing it would create), or the same existing file (hard links).
func SameFile(a, b string) bool {
	ra, err1 := Resolve(a)
	rb, err2 := Resolve(b)
	if err1 == nil && err2 == nil && ra == rb {
		return true
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
