package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// Check reports, before any work is done, whether WriteFiles could write
// path, so that a command can refuse an output it cannot write before a
// long fit rather than after it. It applies the rules a shell redirection
// applies, and those of replacing a file by a rename:
//
//   - an existing file must be writable by the process (a file of mode 0444
//     is refused, except to root, as a shell refuses it); a device or a
//     named pipe likewise;
//   - an existing file owned by another user is refused unless the process
//     runs as root (WriteFiles then gives the new file the old one's owner
//     and group): replacing it would change its owner;
//   - a new file's name must be valid (not too long) and its directory
//     must take a new file (it exists, is writable and is not on a
//     read-only file system), which Check tries by creating and removing
//     a temporary file there.
//
// The path "-" (standard output) and "" are not checked. The error does
// not name the path.
func Check(path string) error {
	if path == "-" || path == "" {
		return nil
	}
	target, err := Resolve(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		return errors.New("is a directory")
	case err == nil && !fi.Mode().IsRegular():
		return writable(target)
	case err == nil:
		if err := writable(target); err != nil {
			return err
		}
		if err := replaceable(fi); err != nil {
			return err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return unwrapPath(err) // a name too long, a directory that cannot be searched
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), tempPattern(target))
	if err != nil {
		return unwrapPath(err)
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// nameMax is the longest file name most file systems take (NAME_MAX).
const nameMax = 255

// tempPattern returns the os.CreateTemp pattern of target's temporary file,
// ".NAME.tmp-*", with NAME shortened where needed so that the temporary
// file's name and its backup's (".old" added) fit in nameMax bytes even
// when target's own name is nearly that long.
func tempPattern(target string) string {
	base := filepath.Base(target)
	const extra = len(".") + len(".tmp-") + 10 + len(".old") // CreateTemp adds up to 10 digits
	if len(base) > nameMax-extra {
		base = base[:nameMax-extra]
		for len(base) > 0 && !utf8.ValidString(base) {
			base = base[:len(base)-1]
		}
	}
	return "." + base + ".tmp-*"
}
