package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runStreams runs the program in dir with standard input read from the
// file stdin (none if empty) and standard output appended to the file
// stdout (a pipe to the test if empty).
func runStreams(t *testing.T, dir, stdin, stdout string, args ...string) result {
	t.Helper()
	cmd := exec.Command(consensusBin, args...)
	cmd.Dir = dir
	if stdin != "" {
		f, err := os.Open(filepath.Join(dir, stdin))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	if stdout != "" {
		f, err := os.OpenFile(filepath.Join(dir, stdout), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout = f
	}
	return execute(t, cmd)
}

// TestOutputStreams checks the alias rules through the files behind
// standard input and output: an output that is the file redirected to
// standard input, standard output redirected to an input, two outputs on
// one standard output ("-" twice, or "-" and /dev/stdout), and standard
// input read twice are refused before any work, with exit status 2, one
// line, and no file changed.
func TestOutputStreams(t *testing.T) {
	for _, tc := range []struct {
		name          string
		stdin, stdout string
		args          []string
		want          string
	}{
		{"-o the file behind -i -", "in.csv", "", []string{"fit", "-i", "-", "-m", "mv", "-o", "in.csv"}, "--output in.csv is also an input file (--input - (standard input))"},
		{"-o the file piped without -i", "in.csv", "", []string{"fit", "-m", "mv", "-o", "in.csv"}, "--output in.csv is also an input file"},
		{"-o the file behind -g -", "gold.csv", "", []string{"fit", "in.csv", "-g", "-", "-m", "mv", "-o", "gold.csv"}, "is also an input file"},
		{"report -o the file behind -i -", "in.csv", "", []string{"report", "-i", "-", "-o", "in.csv"}, "is also an input file"},
		{"standard output appended to the input", "", "in.csv", []string{"fit", "in.csv", "-m", "mv", "-o", "-"}, "--output - (standard output) is also an input file (--input in.csv)"},
		{"--workers /dev/stdout beside -o -", "", "out.txt", []string{"fit", "in.csv", "-m", "la-ds", "-q", "--workers", "/dev/stdout"}, "--output - (standard output) and --workers /dev/stdout are the same file"},
		{"-o - and --workers -", "", "", []string{"fit", "in.csv", "-m", "la-ds", "-o", "-", "--workers", "-"}, "--output and --workers both write to standard output"},
		{"simulate -o - --truth /dev/stdout", "", "out.txt", []string{"simulate", "--objects", "3", "--truth", "/dev/stdout"}, "are the same file"},
		{"-i - and -g -", "in.csv", "", []string{"fit", "-i", "-", "-g", "-", "-m", "mv"}, "--input - and --gold - both read standard input, which can be read only once"},
		{"eval -p - and -g -", "gold.csv", "", []string{"eval", "-p", "-", "-g", "-"}, "--predictions - and --gold - both read standard input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"in.csv": hLabels, "gold.csv": hGold, "out.txt": "old\n"})
			before := snapshot(t, dir)
			r := runStreams(t, dir, tc.stdin, tc.stdout, tc.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want 2 and %q on one line", r.code, r.stderr, tc.want)
			}
			if after := snapshot(t, dir); !equalMaps(before, after) {
				t.Errorf("files changed: before %v, after %v", before, after)
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestOutputCommitOrder checks that outputs that cannot be renamed into
// place (a device, standard output) are written before any file is
// replaced: a full device fails the run with every file as it was, in
// either order of the flags; and an interrupt while standard output is
// blocked leaves the other outputs as they were, as the message says.
func TestOutputCommitOrder(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	for _, args := range [][]string{
		{"fit", "in.csv", "-m", "la-ds", "-q", "-o", "/dev/full", "--workers", "w.csv"},
		{"fit", "in.csv", "-m", "la-ds", "-q", "-o", "w.csv", "--workers", "/dev/full"},
		{"simulate", "--objects", "5", "-o", "w.csv", "--truth", "/dev/full"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"in.csv": hLabels, "w.csv": "OLD\n"})
			r := runIn(t, dir, "", args...)
			if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") {
				t.Fatalf("exit %d, stderr %q; want 1 and no space left on device", r.code, r.stderr)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "w.csv")); string(b) != "OLD\n" {
				t.Errorf("w.csv changed to %.40q", b)
			}
			assertNoTemps(t, dir)
		})
	}
	t.Run("interrupted while standard output is blocked", func(t *testing.T) {
		if testing.Short() {
			t.Skip("sends a signal")
		}
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"t.csv": "OLD\n"})
		cmd := exec.Command(consensusBin, "simulate", "--objects", "20000", "--workers", "5", "--truth", "t.csv")
		cmd.Dir = dir
		pr, pw, err := os.Pipe() // never read: the labels fill it and block
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = pw, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pw.Close()
		// Wait until the truth is staged, then until the write to the
		// pipe has had time to block.
		deadline := time.Now().Add(20 * time.Second)
		for {
			if m, _ := filepath.Glob(filepath.Join(dir, ".t.csv.tmp-*")); len(m) > 0 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("the truth was never staged")
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
			t.Fatalf("exit %v, want %d; stderr %q", err, exitInterrupted, stderr.String())
		}
		if !strings.Contains(stderr.String(), "existing files keep their content") {
			t.Errorf("stderr %q", stderr.String())
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "t.csv")); string(b) != "OLD\n" {
			t.Errorf("t.csv changed to %.40q", b)
		}
		assertNoTemps(t, dir)
	})
}

// TestOutputCheckedFirst checks that an output that cannot be written is
// refused before the input is read or anything is fitted — a name too
// long for the file system, a directory that takes no file — and that a
// name just short enough is written (its temporary file's name is
// shortened to fit).
func TestOutputCheckedFirst(t *testing.T) {
	long := strings.Repeat("a", 300) + ".csv"
	for _, tc := range []struct {
		name, out, want string
	}{
		{"name too long", long, "cannot write it: file name too long"},
		{"directory takes no file", "/proc/consensus-out.csv", "cannot write it:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasPrefix(tc.out, "/proc") {
				if _, err := os.Stat("/proc/self"); err != nil {
					t.Skip("no /proc")
				}
			}
			dir := t.TempDir()
			// The input is empty: an error about it would mean that it
			// was read before the output was checked.
			writeFiles(t, dir, map[string]string{"empty.csv": ""})
			r := runIn(t, dir, "", "fit", "empty.csv", "-m", "da-mme", "-o", tc.out)
			if r.code != 1 || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want 1 and %q", r.code, r.stderr, tc.want)
			}
			assertNoTemps(t, dir)
		})
	}
	t.Run("a name of 250 bytes", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"in.csv": hLabels})
		name := strings.Repeat("é", 123) + ".csv" // 250 bytes
		if r := runIn(t, dir, "", "fit", "in.csv", "-m", "mv", "-q", "-o", name); r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
		assertNoTemps(t, dir)
	})
}

// TestOutputExtensions checks that a table output whose extension names
// no format is refused before any work (not written as CSV), that
// --output-format overrides the extension, and that names without an
// extension (devices) are CSV.
func TestOutputExtensions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"fit", "in.csv", "-m", "mv", "-o", "out.json"}, 2, "--output out.json: the extension .json names no table format; name the file .csv, .tsv, .jsonl or .parquet (optionally .gz), or use --output-format"},
		{[]string{"fit", "in.csv", "-m", "la-ds", "-o", "out.csv", "--workers", "w.xlsx"}, 2, "--workers w.xlsx: the extension .xlsx names no table format"},
		{[]string{"fit", "in.csv", "-m", "la-glad", "-o", "out.csv", "--tasks", "t.csv.xz"}, 2, "--tasks t.csv.xz: the extension .xz"},
		{[]string{"simulate", "--objects", "3", "-o", "s.csv.bz2"}, 2, "--output s.csv.bz2: the extension .bz2"},
		{[]string{"simulate", "--objects", "3", "-o", "s.csv", "--truth", "t.txt"}, 2, "--truth t.txt: the extension .txt"},
		{[]string{"agreement", "in.csv", "--tasks", "t.json"}, 2, "--tasks t.json: the extension .json names no table format; name the file .csv, .tsv, .jsonl or .parquet (optionally .gz), or use --output-format"},
		{[]string{"pairwise", "simulate", "--items", "3", "--comparisons", "5", "-o", "c.json"}, 2, "--output c.json: the extension .json"},
		{[]string{"next", "-i", "in.csv", "--budget", "2", "-o", "n.csv", "--tasks", "t.json"}, 2, "--tasks t.json: the extension .json names no table format; name the file .csv, .tsv, .jsonl or .parquet (optionally .gz), or use --output-format"},
		{[]string{"next", "-i", "in.csv", "-o", "n.xlsx"}, 2, "--output n.xlsx: the extension .xlsx"},
		{[]string{"next", "-i", "in.csv", "-o", "n.csv", "--workers", "w.txt"}, 2, "--workers w.txt: the extension .txt"},
		{[]string{"multilabel", "in.csv", "-o", "m.json"}, 2, "--output m.json: the extension .json"},
		{[]string{"simulate", "--objects", "3", "-o", "s.csv", "--truth-workers", "tw.json"}, 2, "--truth-workers tw.json: the extension .json"},
		{[]string{"pairwise", "fit", "in.csv", "-o", "p.json"}, 2, "--output p.json: the extension .json"},
		{[]string{"fit", "in.csv", "-m", "mv", "-o", "out.json", "--output-format", "jsonl"}, 0, ""},
		{[]string{"fit", "in.csv", "-m", "mv", "-o", "/dev/null"}, 0, ""},
		{[]string{"fit", "in.csv", "-m", "mv", "-o", "out.CSV.GZ"}, 0, ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"in.csv": hLabels})
			r := runIn(t, dir, "", tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, tc.code, tc.want)
			}
			if tc.code != 0 {
				if entries, _ := os.ReadDir(dir); len(entries) != 1 {
					t.Errorf("files written: %v", entries)
				}
			}
		})
	}
}

// TestOutputOwner checks that an existing output's protection and owner
// count as they do for a shell redirection: a file of mode 0444 is refused
// (to a user other than root), another user's file is refused (it would
// become the writer's), and root replacing another user's file keeps its
// owner and group. As root the refusals run as the user nobody.
func TestOutputOwner(t *testing.T) {
	dir, err := os.MkdirTemp("", "consensus-owner-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o777)
	bin := filepath.Join(dir, "consensus")
	b, err := os.ReadFile(consensusBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"in.csv": hLabels})
	root := os.Geteuid() == 0
	const nobody = 65534
	runAs := func(uid int, out string) result {
		cmd := exec.Command(bin, "fit", "in.csv", "-m", "mv", "-q", "-o", out)
		cmd.Dir = dir
		if uid != os.Geteuid() {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: nobody}}
		}
		return execute(t, cmd)
	}
	user := os.Geteuid()
	if root {
		user = nobody
	}
	create := func(name string, mode os.FileMode, uid int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("old\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if uid != os.Geteuid() {
			if err := os.Chown(p, uid, nobody); err != nil {
				t.Fatal(err)
			}
		}
		os.Chmod(p, mode)
		return p
	}
	t.Run("mode 0444", func(t *testing.T) {
		p := create("ro.csv", 0o444, user)
		r := runAs(user, "ro.csv")
		if r.code != 1 || !strings.Contains(r.stderr, "--output ro.csv: cannot write it: permission denied") {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
		if b, _ := os.ReadFile(p); string(b) != "old\n" {
			t.Errorf("ro.csv changed to %q", b)
		}
	})
	if !root {
		return
	}
	t.Run("another user's file", func(t *testing.T) {
		p := create("root.csv", 0o666, 0)
		r := runAs(nobody, "root.csv")
		if r.code != 1 || !strings.Contains(r.stderr, "belongs to another user (uid 0)") {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
		if b, _ := os.ReadFile(p); string(b) != "old\n" {
			t.Errorf("root.csv changed to %q", b)
		}
	})
	t.Run("root keeps the owner", func(t *testing.T) {
		p := create("theirs.csv", 0o640, nobody)
		if r := runAs(0, "theirs.csv"); r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != nobody || st.Gid != nobody || fi.Mode().Perm() != 0o640 {
			t.Errorf("owner %d:%d mode %v, want %d:%d 0640", st.Uid, st.Gid, fi.Mode().Perm(), nobody, nobody)
		}
		if b, _ := os.ReadFile(p); !strings.HasPrefix(string(b), "task,label") {
			t.Errorf("theirs.csv is %q", b)
		}
	})
}
