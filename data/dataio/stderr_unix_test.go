//go:build unix

package dataio

import (
	"io"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// captureStderr runs f with the process's file descriptor 2 redirected to
// a pipe and returns what was written on it: also what the runtime's
// println writes, which os.Stderr does not see.
func captureStderr(t testing.TB, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	saved, err := unix.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(saved)
	if err := unix.Dup2(int(w.Fd()), 2); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	func() {
		defer func() {
			unix.Dup2(saved, 2)
			w.Close()
		}()
		f()
	}()
	return string(<-got)
}
