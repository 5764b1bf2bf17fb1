//go:build unix

package output

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// writable reports whether the process may write the existing file path,
// as access(2) with W_OK says: a shell redirection's rule.
func writable(path string) error {
	if err := syscall.Access(path, 2); err != nil { // W_OK
		return err
	}
	return nil
}

// replaceable reports whether replacing the existing file fi by a new one
// keeps its owner: the process owns it, or runs as root and can give the
// new file the old one's owner (keepOwner).
func replaceable(fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if euid := os.Geteuid(); euid != 0 && int(st.Uid) != euid {
		return fmt.Errorf("the file belongs to another user (uid %d); writing it would replace it with a file of yours: remove it first or write elsewhere", st.Uid)
	}
	return nil
}

// keepOwner gives the temporary file tmp, about to replace the existing
// file fi, fi's owner and group where they differ. Only root can give a
// file to another user, and Check refuses other users' files to anyone
// else; a group the process is not in is left as the directory gives it.
func keepOwner(tmp *os.File, fi fs.FileInfo) error {
	old, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	cur, err := tmp.Stat()
	if err != nil {
		return err
	}
	now, ok := cur.Sys().(*syscall.Stat_t)
	if !ok || (now.Uid == old.Uid && now.Gid == old.Gid) {
		return nil
	}
	err = tmp.Chown(int(old.Uid), int(old.Gid))
	if err != nil && os.Geteuid() != 0 {
		return nil // not root: a group the process is not in cannot be kept
	}
	return err
}
