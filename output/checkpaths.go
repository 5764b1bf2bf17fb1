package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// A Path is one file of a command: the flag that names it, for messages,
// and its path, "-" for standard input (of an input) or standard output
// (of an output), "" for no file.
type Path struct {
	Flag string
	Path string
}

// ErrBadPath is wrapped by the errors of CheckPaths that the command line
// causes and can fix (an output that is also an input, two outputs naming
// one file, a missing directory, ...). An output that Check refuses (its
// permissions, its file system) is reported without it.
var ErrBadPath = errors.New("bad input or output path")

// ErrArgument is wrapped by the errors of the writers and readers of this
// package given an argument no caller should pass: a nil data set, table,
// fit or estimator, or values that are not one per task (or per task and
// class) of the data set. Callers test it with errors.Is.
var ErrArgument = errors.New("output: invalid argument")

// argErrorf returns an error wrapping ErrArgument with the message format
// gives.
func argErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrArgument}, args...)...)
}

// pathError is an error of CheckPaths that wraps ErrBadPath without adding
// to its message.
type pathError struct{ msg string }

func (e *pathError) Error() string        { return e.msg }
func (e *pathError) Is(target error) bool { return target == ErrBadPath }

// badPathf returns a pathError of the formatted message.
func badPathf(format string, a ...any) error {
	return &pathError{fmt.Sprintf(format, a...)}
}

// CheckPaths checks a command's inputs and outputs before any work is
// done; it is the one place of these rules:
//
//   - no output may be the same file as an input or as another output — by
//     path, through a symbolic link (existing or dangling, see Resolve), as
//     a hard link, or as the file behind standard input or output ("-",
//     /dev/stdout): two outputs on one standard output would join two
//     tables into one stream;
//   - standard input, or another stream (a pipe, a device), can be read
//     once: two inputs naming it are refused;
//   - every output must be writable before the work starts: its directory
//     exists, and Check accepts it (permissions, owner, a name not too
//     long, a file system that takes files).
//
// Each message starts with the flag of the path at fault, such as
// "--output out.csv is a directory; give a file name".
func CheckPaths(inputs, outputs []Path) error {
	for i, in := range inputs {
		for _, prev := range inputs[:i] {
			if prev.Path != "" && in.Path != "" && SameStream(prev.Path, in.Path) {
				return badPathf("--%s %s and --%s %s both read %s, which can be read only once; give one of them as a file",
					prev.Flag, prev.Path, in.Flag, in.Path, streamName(prev.Path, false))
			}
		}
	}
	for i, out := range outputs {
		if out.Path == "" {
			continue
		}
		if err := checkOutput(inputs, outputs[:i], out); err != nil {
			return err
		}
	}
	return nil
}

// checkOutput checks the output out against the inputs and the outputs
// before it, and that it can be written.
func checkOutput(inputs, before []Path, out Path) error {
	for _, in := range inputs {
		if in.Path != "" && Aliases(in.Path, out.Path) {
			return badPathf("--%s %s is also an input file (--%s %s); writing it would replace the input",
				out.Flag, shown(out.Path, true), in.Flag, shown(in.Path, false))
		}
	}
	for _, prev := range before {
		switch {
		case prev.Path == "" || !SameOutput(prev.Path, out.Path):
		case prev.Path == "-" && out.Path == "-":
			return badPathf("--%s and --%s both write to standard output, which would join two tables into one stream; give one of them a file name", prev.Flag, out.Flag)
		case prev.Path != "-" && out.Path != "-":
			return badPathf("--%s and --%s name the same file %s", prev.Flag, out.Flag, out.Path)
		default:
			return badPathf("--%s %s and --%s %s are the same file; give each output its own file",
				prev.Flag, shown(prev.Path, true), out.Flag, shown(out.Path, true))
		}
	}
	if out.Path == "-" {
		return nil
	}
	if fi, err := os.Stat(out.Path); err == nil && fi.IsDir() {
		return badPathf("--%s %s is a directory; give a file name", out.Flag, out.Path)
	}
	target, err := Resolve(out.Path)
	if err != nil {
		return badPathf("--%s %s: %v", out.Flag, out.Path, PathMessage(err))
	}
	dir := filepath.Dir(out.Path)
	if fi, err := os.Lstat(out.Path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		dir = filepath.Dir(target) + " (where the link points)"
	}
	fi, err := os.Stat(filepath.Dir(target))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return badPathf("--%s %s: directory %s does not exist", out.Flag, out.Path, dir)
	case err != nil:
		return badPathf("--%s %s: %v", out.Flag, out.Path, PathMessage(err))
	case !fi.IsDir():
		return badPathf("--%s %s: %s is not a directory", out.Flag, out.Path, dir)
	}
	if err := Check(out.Path); err != nil {
		return fmt.Errorf("--%s %s: cannot write it: %v", out.Flag, out.Path, PathMessage(err))
	}
	return nil
}

// PathMessage returns the message of err without the path that an
// *os.PathError puts before it, for messages that name the path already.
func PathMessage(err error) string {
	if err == nil {
		return ""
	}
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// shown returns path for a message, "-" with its meaning.
func shown(path string, out bool) string {
	if path != "-" {
		return path
	}
	return "- (" + streamName(path, out) + ")"
}

// streamName names the stream of path "-" for messages, and any other
// path as it is.
func streamName(path string, out bool) string {
	switch {
	case path != "-":
		return path
	case out:
		return "standard output"
	}
	return "standard input"
}
