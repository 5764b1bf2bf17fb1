package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const hLabels = "task,worker,label\n1,a,x\n1,b,y\n2,a,x\n2,b,x\n3,a,y\n3,b,y\n"
const hGold = "task,label\n1,x\n2,x\n"

// snapshot returns the content of every file in dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
			m[e.Name()] = string(b)
		}
	}
	return m
}

// TestOutputAliases checks, for every subcommand that writes files, that an
// output resolving to an input or to another output — by path, symbolic
// link (existing or dangling) or hard link — is refused before any work,
// with exit status 2, and nothing changes.
func TestOutputAliases(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(dir string) error
		args  []string
		want  string
	}{
		{"fit -o = -i", nil, []string{"fit", "-i", "in.csv", "-m", "rfe", "-o", "in.csv"}, "is also an input file"},
		{"fit -o = -g", nil, []string{"fit", "-i", "in.csv", "-g", "gold.csv", "-m", "rfe", "-o", "gold.csv"}, "is also an input file"},
		{"report -o = -i", nil, []string{"report", "-i", "in.csv", "-o", "in.csv"}, "is also an input file"},
		{"report -o = -g", nil, []string{"report", "-i", "in.csv", "-g", "gold.csv", "-o", "./gold.csv"}, "is also an input file"},
		{"report -o symlink to -i", func(d string) error { return os.Symlink("in.csv", filepath.Join(d, "link.html")) },
			[]string{"report", "-i", "in.csv", "-o", "link.html"}, "is also an input file"},
		{"fit -o hard link of -i", func(d string) error { return os.Link(filepath.Join(d, "in.csv"), filepath.Join(d, "hard.csv")) },
			[]string{"fit", "-i", "in.csv", "-m", "mv", "-o", "hard.csv"}, "is also an input file"},
		{"fit --workers dangling link to -o", func(d string) error { return os.Symlink("out.csv", filepath.Join(d, "w.csv")) },
			[]string{"fit", "-i", "in.csv", "-m", "la-ds", "-o", "out.csv", "--workers", "w.csv"}, "name the same file"},
		{"fit --workers link to -o through a directory link", func(d string) error { return os.Symlink(".", filepath.Join(d, "sub")) },
			[]string{"fit", "-i", "in.csv", "-m", "la-ds", "-o", "out.csv", "--workers", "sub/out.csv"}, "name the same file"},
		{"fit -o dangling link to --init-workers", func(d string) error { return os.Symlink("gold.csv", filepath.Join(d, "o.csv")) },
			[]string{"fit", "-i", "in.csv", "-m", "la-ds", "--init-workers", "gold.csv", "-o", "o.csv"}, "is also an input file"},
		{"simulate --truth = -o", nil, []string{"simulate", "-o", "s.csv", "--truth", "./s.csv"}, "name the same file"},
		{"simulate --truth dangling link to -o", func(d string) error { return os.Symlink("s.csv", filepath.Join(d, "t.csv")) },
			[]string{"simulate", "-o", "s.csv", "--truth", "t.csv"}, "name the same file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"in.csv": hLabels, "gold.csv": hGold})
			if tc.setup != nil {
				if err := tc.setup(dir); err != nil {
					t.Skip(err)
				}
			}
			before := snapshot(t, dir)
			r := runIn(t, dir, "", tc.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want 2 and %q on one line", r.code, r.stderr, tc.want)
			}
			after := snapshot(t, dir)
			if fmt.Sprint(before) != fmt.Sprint(after) {
				t.Errorf("files changed: before %v, after %v", before, after)
			}
		})
	}
}

// TestMultiOutputAllOrNothing checks that when one output of a run cannot
// be written (here in /proc, which takes no new file, even from root), no
// other output changes: fit's consensus with --workers, simulate's labels
// with --truth.
func TestMultiOutputAllOrNothing(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc")
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"fit --workers", []string{"fit", "-i", "in.csv", "-m", "la-ds", "-o", "out.csv", "--workers", "/proc/consensus-w.csv"}},
		{"fit --workers first", []string{"fit", "-i", "in.csv", "-m", "la-ds", "-o", "/proc/consensus-o.csv", "--workers", "out.csv"}},
		{"simulate --truth", []string{"simulate", "--objects", "5", "-o", "out.csv", "--truth", "/proc/consensus-t.csv"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"in.csv": hLabels, "out.csv": "old\n"})
			r := runIn(t, dir, "", tc.args...)
			if r.code != 1 {
				t.Fatalf("exit %d, stderr %q; want 1", r.code, r.stderr)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "out.csv")); string(b) != "old\n" {
				t.Errorf("out.csv changed to %q", b)
			}
			assertNoTemps(t, dir)
		})
	}
}

// TestOutputModes checks that an existing output keeps its mode and that a
// new one honours the umask (077 here), for every subcommand writing files.
func TestOutputModes(t *testing.T) {
	old := syscall.Umask(0o077) // inherited by the child processes
	defer syscall.Umask(old)
	for _, tc := range []struct {
		name     string
		args     []string
		existing os.FileMode
		want     os.FileMode
	}{
		{"fit, existing 0600", []string{"fit", "-i", "in.csv", "-m", "mv", "-o", "out.csv"}, 0o600, 0o600},
		{"fit, existing 0664", []string{"fit", "-i", "in.csv", "-m", "mv", "-o", "out.csv"}, 0o664, 0o664},
		{"fit, new, umask 077", []string{"fit", "-i", "in.csv", "-m", "mv", "-o", "out.csv"}, 0, 0o600},
		{"report, new", []string{"report", "-i", "in.csv", "--bootstrap", "-1", "-o", "out.csv"}, 0, 0o600},
		{"simulate, existing 0640", []string{"simulate", "--objects", "5", "-o", "out.csv"}, 0o640, 0o640},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"in.csv": hLabels})
			out := filepath.Join(dir, "out.csv")
			if tc.existing != 0 {
				os.WriteFile(out, []byte("old"), 0o600)
				os.Chmod(out, tc.existing)
			}
			if r := runIn(t, dir, "", tc.args...); r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			fi, err := os.Stat(out)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != tc.want {
				t.Errorf("mode %v, want %v", got, tc.want)
			}
		})
	}
}

// TestReadLimitCLI checks that --max-memory is enforced while reading: a
// gzip file whose text is far larger than its size (and whose trailer size
// wraps) and /dev/zero stop with exit status 2 and one line, not a runtime
// crash; and that the advice of a refused fit does not recommend the
// refused model.
func TestReadLimitCLI(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"in.csv": hLabels, "pred.csv": "task,label,p_x,p_y\n1,x,0.5,0.5\n2,x,0.5,0.5\n"})
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
	io.WriteString(zw, "task,worker,label\n")
	for i := 0; z.Len() < 1<<20 && i < 3_000_000; i++ {
		fmt.Fprintf(zw, "t%d,w%d,%d\n", i, i%100, i%2)
	}
	zw.Close()
	bomb := z.Bytes()
	// A trailer size that says the text is as small as the file, as when
	// the real size wraps past 4 GiB: the estimate before reading passes.
	n := len(bomb)
	bomb[n-4], bomb[n-3], bomb[n-2], bomb[n-1] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
	if err := os.WriteFile(filepath.Join(dir, "bomb.csv.gz"), bomb, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"gzip", []string{"fit", "-i", "bomb.csv.gz", "-m", "rfe", "--max-memory", "20M", "-o", "o.csv"}, 2, "reading stopped"},
		{"/dev/zero as JSON Lines", []string{"fit", "-i", "/dev/zero", "--format", "jsonl", "-m", "mv", "--max-memory", "4M", "-o", "o.csv"}, 2, "longer than"},
		{"/dev/zero", []string{"fit", "-i", "/dev/zero", "-m", "rfe", "--max-memory", "4M", "-o", "o.csv"}, 2, "longer than"},
		{"report of /dev/zero", []string{"report", "-i", "/dev/zero", "--max-memory", "4M", "-o", "o.html"}, 2, "longer than"},
		{"compare of /dev/zero", []string{"compare", "-i", "/dev/zero", "--max-memory", "4M"}, 2, "longer than"},
		{"gold /dev/zero", []string{"fit", "-i", "in.csv", "-g", "/dev/zero", "-m", "mv", "--max-memory", "4M", "-o", "o.csv"}, 2, "longer than"},
		{"eval of /dev/zero", []string{"eval", "-p", "/dev/zero", "-g", "in.csv", "--max-memory", "4M"}, 2, "reading stopped"},
		{"eval gold /dev/zero", []string{"eval", "-p", "pred.csv", "-g", "/dev/zero", "--max-memory", "4M"}, 2, "longer than"},
		{"--init-workers /dev/zero", []string{"fit", "-i", "in.csv", "-m", "la-ds", "--init-workers", "/dev/zero", "--max-memory", "4M", "-o", "o.csv"}, 2, "reading stopped"},
		{"multilabel of /dev/zero, with the advice", []string{"multilabel", "/dev/zero", "--max-memory", "4M", "-o", "o.csv"}, 2, "longer than 976.6 KiB without a line end, which needs about 3.8 MiB of memory to read, more than the memory limit of 3.8 MiB; use a machine with more memory, or --max-memory to change the limit"},
		{"pairwise fit of /dev/zero", []string{"pairwise", "fit", "/dev/zero", "--max-memory", "4M", "-o", "o.csv"}, 2, "; use a machine with more memory, or --max-memory to change the limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runIn(t, dir, "", tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want %d and %q on one line", r.code, r.stderr, tc.code, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "o.csv")); err == nil {
				t.Error("an output was written")
			}
		})
	}
	for _, m := range []string{"la-ds", "la-glad", "da-mme"} {
		r := runIn(t, dir, "", "fit", "-i", "in.csv", "-m", m, "--max-memory", "1000")
		if r.code != 1 || !strings.Contains(r.stderr, "fitting "+m) {
			t.Fatalf("%s: exit %d, stderr %q", m, r.code, r.stderr)
		}
		if _, advice, _ := strings.Cut(r.stderr, "; "); strings.Contains(advice, m+",") || strings.Contains(advice, m+")") {
			t.Errorf("%s: the advice recommends the refused model: %q", m, r.stderr)
		}
	}
}

// TestInterruptWhileReading sends SIGINT and SIGTERM to runs of every
// subcommand and model that are reading standard input (CSV, and Parquet,
// which is copied to a temporary file first) — an endless one, and a
// finite one that pauses while the signal arrives: exit status 130,
// outputs unchanged, no temporary file left in the output directory or in
// TMPDIR.
func TestInterruptWhileReading(t *testing.T) {
	if testing.Short() {
		t.Skip("sends signals to running programs")
	}
	type run struct {
		name string
		args []string
	}
	var runs []run
	for _, m := range []string{"rfe", "mv", "la-ds", "da-glad"} {
		runs = append(runs, run{"fit " + m, []string{"fit", "-i", "-", "-m", m, "-o", "out.csv", "--workers", "w.csv"}})
	}
	runs = append(runs[:1], runs[1:]...)
	runs[0].args = runs[0].args[:len(runs[0].args)-2] // rfe has no workers
	runs[1].args = runs[1].args[:len(runs[1].args)-2]
	runs = append(runs,
		run{"fit parquet", []string{"fit", "-i", "-", "--format", "parquet", "-m", "mv", "-o", "out.csv"}},
		run{"report", []string{"report", "-i", "-", "-o", "out.csv"}},
		run{"compare", []string{"compare", "-i", "-"}},
		run{"eval", []string{"eval", "-p", "/dev/stdin", "-g", "gold.csv"}},
		run{"fit --init-workers", []string{"fit", "-i", "in.csv", "-m", "la-ds", "--init-workers", "/dev/stdin", "-o", "out.csv"}},
	)
	for _, rn := range runs {
		for _, tc := range []struct {
			sig     syscall.Signal
			endless bool
		}{{syscall.SIGINT, true}, {syscall.SIGTERM, true}, {syscall.SIGINT, false}} {
			sig := tc.sig
			what := map[bool]string{true: "endless", false: "finite, paused"}[tc.endless]
			t.Run(rn.name+" "+sig.String()+" "+what, func(t *testing.T) {
				dir, tmp := t.TempDir(), t.TempDir()
				writeFiles(t, dir, map[string]string{"out.csv": "old\n", "gold.csv": hGold, "in.csv": hLabels})
				cmd := exec.Command(consensusBin, rn.args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
				stdin, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				head := "task,worker,label\n"
				row := func(i int) string { return fmt.Sprintf("t%d,w%d,%d\n", i%5000, i%50, i%2) }
				switch rn.name {
				case "fit parquet":
					head = "PAR1" // the magic number, checked before the copy
				case "eval":
					head = "task,label,p_0,p_1\n"
					row = func(i int) string { return fmt.Sprintf("t%d,1,0.5,0.5\n", i) }
				case "fit --init-workers":
					head = "worker,\"p[x,x]\",\"p[x,y]\",\"p[y,x]\",\"p[y,y]\"\n"
					row = func(i int) string { return fmt.Sprintf("w%d,0.8,0.2,0.2,0.8\n", i) }
				}
				// Endless: the reading never ends by itself. Finite: a
				// pause while the signal arrives, then the rest of a
				// file that reads in well under the 2 s grace period, so
				// that a reader ignoring the signal would finish and
				// write its outputs.
				// The signal goes once the program has read more than
				// the pipe holds, so it has set up its signal handling.
				reading := make(chan struct{})
				go func() {
					io.WriteString(stdin, head)
					written := 0
					for i := 0; tc.endless || i < 40000; i++ {
						if !tc.endless && i == 20000 {
							time.Sleep(500 * time.Millisecond)
						}
						n, err := io.WriteString(stdin, row(i))
						if err != nil {
							return
						}
						if written += n; written > 128<<10 && written-n <= 128<<10 {
							close(reading)
						}
					}
					stdin.Close()
				}()
				select {
				case <-reading:
				case <-time.After(20 * time.Second):
					t.Fatal("the program did not read its input")
				}
				cmd.Process.Signal(sig)
				err = cmd.Wait()
				stdin.Close()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != 130 {
					t.Fatalf("exit %v, want 130; stderr %q", err, stderr.String())
				}
				if b, _ := os.ReadFile(filepath.Join(dir, "out.csv")); string(b) != "old\n" {
					t.Errorf("out.csv changed")
				}
				if _, err := os.Stat(filepath.Join(dir, "w.csv")); err == nil {
					t.Error("w.csv written")
				}
				assertNoTemps(t, dir)
				if left, _ := os.ReadDir(tmp); len(left) > 0 {
					t.Errorf("left in TMPDIR: %v", left)
				}
			})
		}
	}
}

// TestGoldLayout checks that the gold file's layout does not depend on the
// labels file's: a plain task,label gold file is read next to labels with
// another separator or label column, the gold flags give the gold file its
// own layout, and the advice for a gold header names the gold flags.
func TestGoldLayout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"semi.csv":     strings.ReplaceAll(hLabels, ",", ";"),
		"answer.csv":   strings.Replace(hLabels, "label", "answer", 1),
		"gold.csv":     hGold,
		"goldsemi.csv": strings.ReplaceAll(hGold, ",", ";"),
		"goldans.csv":  "id,truth\n1,x\n2,x\n",
	})
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"labels --sep ';', gold comma", []string{"fit", "-i", "semi.csv", "--sep", ";", "-g", "gold.csv", "-m", "mv"}, 0, "gold (2 tasks)"},
		{"labels --label-column answer, gold label", []string{"fit", "-i", "answer.csv", "--label-column", "answer", "-g", "gold.csv", "-m", "mv"}, 0, "gold (2 tasks)"},
		{"labels --sep ';', gold ';'", []string{"fit", "-i", "semi.csv", "--sep", ";", "-g", "goldsemi.csv", "-m", "mv"}, 0, "gold (2 tasks)"},
		{"--gold-sep", []string{"fit", "-i", "in.csv", "-g", "goldsemi.csv", "--gold-sep", ";", "-m", "mv"}, 0, "gold (2 tasks)"},
		{"--gold-task-column and --gold-label-column", []string{"fit", "-i", "in.csv", "-g", "goldans.csv", "--gold-task-column", "id", "--gold-label-column", "truth", "-m", "mv"}, 0, "gold (2 tasks)"},
		{"eval --gold-sep", []string{"eval", "-p", "pred.csv", "-g", "goldsemi.csv", "--gold-sep", ";"}, 0, ""},
		{"advice names the gold flags", []string{"fit", "-i", "semi.csv", "--sep", ";", "-g", "goldans.csv", "-m", "mv"}, 2, "--gold-task-column and --gold-label-column"},
		{"advice names --gold-sep", []string{"fit", "-i", "in.csv", "-g", "goldsemi.csv", "-m", "mv"}, 2, "--gold-sep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writeFiles(t, dir, map[string]string{"in.csv": hLabels})
			if r := runIn(t, dir, "", "fit", "-i", "in.csv", "-m", "mv", "-o", "pred.csv"); r.code != 0 {
				t.Fatal(r.stderr)
			}
			r := runIn(t, dir, "", tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, tc.code, tc.want)
			}
			if tc.code == 2 && (strings.Contains(r.stderr, "(use --sep)") || strings.Contains(r.stderr, " --label-column")) {
				t.Errorf("the advice names a labels flag: %q", r.stderr)
			}
		})
	}
}

// TestParquetStdinMagicFirst checks that Parquet piped on standard input
// is refused by its first bytes, before any copy: an endless stream of
// zeros ends at once with exit status 2 (it used to be copied whole to
// TMPDIR first), and nothing is left in TMPDIR.
func TestParquetStdinMagicFirst(t *testing.T) {
	tmp := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, consensusBin, "fit", "-i", "-", "--format", "parquet", "-m", "rfe")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		zeros := make([]byte, 1<<16)
		for {
			if _, err := stdin.Write(zeros); err != nil {
				return
			}
		}
	}()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "<stdin>: not a Parquet file (it does not start with PAR1)") {
		t.Fatalf("%v, stderr %q; want exit 2 and not a Parquet file", err, stderr.String())
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("TMPDIR holds %v", entries)
	}
}
