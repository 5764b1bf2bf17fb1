package output

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File is one output of a run: a path and the function that writes its
// content. The path "-" (or "") is standard output.
type File struct {
	Path  string
	Write func(w io.Writer) error
}

// staged is a File whose content sits complete in a temporary file next to
// its target, waiting to be renamed into place.
type staged struct {
	path   string // as given, for messages
	target string // the file the rename replaces
	tmp    string
	backup string // a hard link to the old target, while committing
}

// WriteFiles writes several files all or nothing. Every file is first
// written completely to a temporary file in its target's directory, synced
// and given its final mode: an existing target's permission bits, or for a
// new file 0666 less the process's umask, as a shell redirection would
// create it. Only when every file is staged, and ctx (which may be nil) is
// not cancelled, are they renamed over their targets. If writing, syncing
// or staging any file fails, or ctx is cancelled before the renames, no
// target changes and every temporary file is removed. A rename that fails
// after others succeeded (which needs a fault between two renames in the
// same run) is rolled back where the old targets could be kept as hard
// links. A replaced file keeps its owner and group where the process may
// give them (as root).
//
// Targets that cannot be replaced by a rename — standard output, a device
// or a named pipe — are written directly, after every file is staged and
// before any is renamed: a failure writing them (a full device, a closed
// pipe) or a cancellation while they are written leaves every file target
// as it was. Symbolic links are followed, also dangling ones: the file the
// link names is created or replaced and the link stays (see Resolve).
func WriteFiles(ctx context.Context, files ...File) (err error) {
	for i, f := range files {
		if f.Write == nil {
			return fmt.Errorf("output: file %d (%q) has no Write function", i+1, f.Path)
		}
	}
	var st []*staged
	var direct []File
	defer func() {
		for _, s := range st {
			if s.tmp != "" {
				os.Remove(s.tmp)
				dropTemp(s.tmp)
			}
			if s.backup != "" {
				os.Remove(s.backup)
				dropTemp(s.backup)
			}
		}
	}()
	for _, f := range files {
		if f.Path == "-" || f.Path == "" {
			direct = append(direct, f)
			continue
		}
		if fi, err := os.Stat(f.Path); err == nil && !fi.Mode().IsRegular() {
			if fi.IsDir() {
				return fmt.Errorf("%s: is a directory", f.Path)
			}
			direct = append(direct, f)
			continue
		}
		s, err := stage(f)
		if s != nil {
			st = append(st, s)
		}
		if err != nil {
			return err
		}
	}
	cancelled := func() bool { return ctx != nil && ctx.Err() != nil }
	if cancelled() {
		return ctx.Err()
	}
	for _, f := range direct {
		if f.Path == "-" || f.Path == "" {
			err = f.Write(os.Stdout)
		} else {
			err = writeDirect(f.Path, f.Write)
		}
		if err != nil {
			return err
		}
		if cancelled() {
			return ctx.Err()
		}
	}
	commits.Lock()
	defer commits.Unlock()
	if commits.frozen || cancelled() {
		return context.Canceled
	}
	if err := commit(st); err != nil {
		return err
	}
	commits.done = commits.done || len(st) > 0
	return nil
}

// stage writes f to a temporary file beside its target. The returned
// staged value, even with an error, names the temporary file to remove.
func stage(f File) (*staged, error) {
	target, err := Resolve(f.Path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	mode := newFileMode()
	old, err := os.Stat(target)
	if err == nil {
		mode = old.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), tempPattern(target))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, unwrapPath(err))
	}
	addTemp(tmp.Name())
	s := &staged{path: f.Path, target: target, tmp: tmp.Name()}
	fail := func(err error) (*staged, error) {
		tmp.Close()
		return s, fmt.Errorf("%s: %w", f.Path, unwrapPath(err))
	}
	if err := f.Write(tmp); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Path == tmp.Name() {
			return fail(pe) // name the target, not the temporary file
		}
		tmp.Close()
		return s, err
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if old != nil {
		if err := keepOwner(tmp, old); err != nil {
			return fail(err)
		}
	}
	if err := tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return s, fmt.Errorf("%s: %w", f.Path, unwrapPath(err))
	}
	return s, nil
}

// commit renames the staged files over their targets. Existing targets are
// first kept as hard links, so that a rename failing midway can restore
// the targets already replaced.
func commit(st []*staged) error {
	if len(st) > 1 {
		for _, s := range st {
			if _, err := os.Lstat(s.target); err != nil {
				continue
			}
			b := s.tmp + ".old"
			if os.Link(s.target, b) == nil {
				s.backup = b
				addTemp(b)
			}
		}
	}
	for i, s := range st {
		if err := os.Rename(s.tmp, s.target); err != nil {
			rollback(st[:i])
			return fmt.Errorf("%s: %w", s.path, unwrapPath(err))
		}
		dropTemp(s.tmp)
		s.tmp = ""
	}
	return nil
}

// rollback restores the targets of files already renamed: the old content
// from its hard link, or no file where there was none.
func rollback(done []*staged) {
	for _, s := range done {
		if s.backup != "" {
			if os.Rename(s.backup, s.target) == nil {
				dropTemp(s.backup)
				s.backup = ""
			}
			continue
		}
		os.Remove(s.target)
	}
}

// Resolve returns the file that writing path replaces or creates: path
// itself, or for a symbolic link — even one whose target does not exist
// yet — the file the chain of links ends at, made absolute with the
// symbolic links of its directory resolved. Two outputs, or an output and
// an input, are the same file if Resolve gives the same path or os.SameFile
// says so (hard links).
func Resolve(path string) (string, error) {
	p, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			break
		}
		if hops == 40 {
			return "", errors.New("too many levels of symbolic links")
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = filepath.Clean(link)
	}
	dir, base := filepath.Split(p)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, base), nil
}
