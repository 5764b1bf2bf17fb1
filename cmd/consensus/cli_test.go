package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/internal/race"
)

// consensusBin is the consensus program built once for the tests that run it as
// a user would, with exit statuses and signals.
var consensusBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "consensus-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	consensusBin = filepath.Join(dir, "consensus")
	build := []string{"build", "-o", consensusBin}
	if race.Enabled {
		// Under the race detector the program the tests run is
		// instrumented too, so that its own goroutines (the interrupt
		// watcher, the fits and reads it cancels) are raced: a race
		// makes it exit with status 66, which fails the test.
		build = append(build, "-race")
	}
	if out, err := exec.Command("go", append(build, ".")...).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the consensusBin: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is the outcome of one run of the consensusBin.
type result struct {
	code           int
	stdout, stderr string
}

// runIn runs the consensusBin in dir with args and stdin, and returns its exit
// status and output.
func runIn(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(consensusBin, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	return execute(t, cmd)
}

// execute runs cmd and returns its exit status and its output, where
// cmd's standard output and error are not already set.
func execute(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout = &out
	}
	cmd.Stderr = &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

// writeFiles writes name → content files into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const okLabels = "task,worker,label\n1,a,x\n1,b,y\n2,a,x\n2,b,x\n3,a,y\n"

// TestErrors runs the consensusBin on bad input and bad command lines and checks
// the exit status, that the message is one line naming the file, the line
// and the problem, that there is no panic trace, and that no output file
// was written.
func TestErrors(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		args  []string
		code  int
		want  []string
	}{
		{"missing file", nil, []string{"fit", "-i", "nope.csv"}, 2,
			[]string{"nope.csv: cannot open the file: no such file or directory"}},
		{"empty file", map[string]string{"in.csv": ""}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv: the file is empty", "header such as 'task,worker,label'"}},
		{"no header", map[string]string{"in.csv": "1,a,x\n2,b,y\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:1: header has 3 columns '1', 'a', 'x'", "no 'task', 'worker' or 'label' column"}},
		{"header without a needed column", map[string]string{"in.csv": "task,worker,answer\n1,a,x\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:1:", "'task', 'worker', 'answer'", "no 'label' column", "--label-column"}},
		{"wrong separator", map[string]string{"in.csv": "task;worker;label\n1;a;x\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:1:", "is the separator ';'?"}},
		{"too few fields", map[string]string{"in.csv": "task,worker,label\n1,a,x\n2,b\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:3: too few fields: the row has 2, the header has 3"}},
		{"too many fields", map[string]string{"in.csv": "task,worker,label\n1,a,x\n2,b,y,z\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:3: too many fields: the row has 4, the header has 3", "quote"}},
		{"empty task", map[string]string{"in.csv": "task,worker,label\n1,a,x\n ,b,y\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:3: empty task cell (column 1, 'task')"}},
		{"empty worker", map[string]string{"in.csv": "task,worker,label\n1,a,x\n2,,y\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:3: empty worker cell (column 2, 'worker')"}},
		{"empty label", map[string]string{"in.csv": "task,worker,label\n1,a,x\n2,b,\"\"\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:3: empty label cell (column 3, 'label')"}},
		{"unbalanced quote", map[string]string{"in.csv": "task,worker,label\n1,a,x\n2,\"b,y\n3,c,x\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:3: unbalanced quote"}},
		{"text after a closing quote", map[string]string{"in.csv": "task,worker,label\n1,a,x\n2,\"b\"b,y\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:3: unbalanced quote near column 5"}},
		{"invalid UTF-8", map[string]string{"in.csv": "task,worker,label\n1,a,x\n2,b\xff,y\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv:3: invalid UTF-8 (byte 0xFF) in the worker cell", "iconv"}},
		{"label outside --classes", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--classes", "x,z"}, 2,
			[]string{"in.csv:3:", `label "y" is not one of the classes x,z`, "--classes"}},
		{"gold with an unknown class", map[string]string{"in.csv": okLabels, "gold.csv": "task,label\n1,x\n2,maybe\n"},
			[]string{"fit", "-i", "in.csv", "-g", "gold.csv"}, 2,
			[]string{"gold.csv:3: gold label 'maybe' of task '2' is not one of the classes of the labels (x,y)"}},
		{"gold matching no task", map[string]string{"in.csv": okLabels, "gold.csv": "task,label\nT1,x\nT2,y\n"},
			[]string{"fit", "-i", "in.csv", "-g", "gold.csv"}, 2,
			[]string{"gold.csv: none of the 2 gold tasks (such as 'T1', 'T2') has noisy labels", "same task identifiers"}},
		{"gold with conflicting labels", map[string]string{"in.csv": okLabels, "gold.csv": "task,label\n1,x\n1,y\n"},
			[]string{"fit", "-i", "in.csv", "-g", "gold.csv"}, 2,
			[]string{"gold.csv:3: task '1' has gold label 'y' here but 'x' on line 2"}},
		{"one class", map[string]string{"in.csv": "task,worker,label\n1,a,yes\n2,b,yes\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv: only one class, 'yes', in 2 labels", "use --classes yes,OTHER"}},
		{"no data rows", map[string]string{"in.csv": "task,worker,label\n\n"}, []string{"fit", "-i", "in.csv"}, 2,
			[]string{"in.csv: no data rows after the header on line 1"}},
		{"a directory as input", nil, []string{"fit", "-i", "."}, 2, []string{".: is a directory"}},
		{"unknown model", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--model", "ds"}, 2,
			[]string{`unknown model "ds"`, "valid:", "rfe", "la-ds", "da-glad", "da-mme"}},
		{"--dataset with --input", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--dataset", "rte"}, 2,
			[]string{"--dataset cannot be combined with --input or --gold"}},
		{"--classes with --dataset", nil, []string{"fit", "--dataset", "rte", "--classes", "0,1"}, 2,
			[]string{"--classes applies to --input files, not to --dataset"}},
		{"--solver em with --ridge", nil, []string{"fit", "--dataset", "rte", "-m", "da-ds", "--solver", "em", "--ridge", "0.1"}, 2,
			[]string{"--solver em does not support --ridge"}},
		{"--solver em with GLAD", nil, []string{"fit", "--dataset", "rte", "-m", "da-glad", "--solver", "em"}, 2,
			[]string{"EM needs closed-form M-steps", "use lbfgs or cg"}},
		// The tests' standard input is an empty pipe, which fit reads
		// when it is given no labels file.
		{"neither --dataset nor --input", nil, []string{"fit"}, 2, []string{"<stdin>: the file is empty"}},
		{"unknown data set", nil, []string{"fit", "--dataset", "mnist"}, 2, []string{`unknown data set "mnist"`, "duchenne"}},
		{"--workers with rfe", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--model", "rfe", "--workers", "w.csv"}, 2,
			[]string{"--workers: model rfe has no worker parameters"}},
		{"eval without --gold", map[string]string{"p.csv": "task,label,p_x,p_y\n1,x,1,0\n"}, []string{"eval", "--predictions", "p.csv"}, 2,
			[]string{"eval needs --predictions and --gold"}},
		{"eval of a file that is not a consensus", map[string]string{"in.csv": okLabels, "gold.csv": "task,label\n1,x\n"},
			[]string{"eval", "--predictions", "in.csv", "--gold", "gold.csv"}, 2, []string{"in.csv:1:", "p_<class>"}},
		{"eval with --bins 0", map[string]string{"p.csv": "task,label,p_x,p_y\n1,x,1,0\n", "gold.csv": "task,label\n1,x\n"},
			[]string{"eval", "-p", "p.csv", "-g", "gold.csv", "--bins", "0"}, 2, []string{"--bins 0: want between 1 and 1000000"}},
		{"eval of a NaN probability", map[string]string{"p.csv": "task,label,p_x,p_y\n1,x,NaN,0\n", "gold.csv": "task,label\n1,x\n"},
			[]string{"eval", "-p", "p.csv", "-g", "gold.csv"}, 2, []string{`p.csv:2: p_x = "NaN" is not a probability`}},
		{"bad --sep", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--sep", "ab"}, 2,
			[]string{`--sep "ab": want one character`}},
		{"quote as --sep", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--sep", `"`}, 2,
			[]string{`--sep "\"": a separator cannot be a quote`}},
		{"negative --max-iter", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--max-iter", "-1"}, 2,
			[]string{"--max-iter -1: must not be negative"}},
		{"negative --threads", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--threads", "-4"}, 2,
			[]string{"--threads -4: must not be negative"}},
		{"NaN --grad-tol", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--grad-tol", "NaN"}, 2,
			[]string{"--grad-tol NaN: want a finite number"}},
		{"negative --ridge", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--ridge", "-0.1"}, 2,
			[]string{"--ridge -0.1: must not be negative"}},
		{"--ridge the default model ignores", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--ridge", "1"}, 2,
			[]string{"--ridge: model vb-ds does not use it; it applies to la-*, da-*, hda-*"}},
		{"--max-iter rfe ignores", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "-m", "rfe", "--max-iter", "5"}, 2,
			[]string{"--max-iter: model rfe does not use it"}},
		{"--grad-tol an EM fit ignores", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "-m", "la-ds", "--grad-tol", "1e-3"}, 2,
			[]string{"--grad-tol: model la-ds does not use it", "--solver lbfgs or cg"}},
		{"--solver no auto candidate reads", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "-m", "auto", "--solver", "lbfgs"}, 2,
			[]string{"--solver: none of the models (" + strings.Join(compare.AutoModels, ", ") + ") uses it"}},
		{"--func-tol no compared model reads", map[string]string{"in.csv": okLabels}, []string{"compare", "-i", "in.csv", "--models", "rfe,wawa", "--func-tol", "1e-3"}, 2,
			[]string{"--func-tol: none of the models (rfe, wawa) uses it"}},
		{"not a number", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--max-iter", "ten"}, 2,
			[]string{`invalid argument "ten" for "--max-iter"`}},
		{"unknown flag", nil, []string{"fit", "--inptu", "x.csv"}, 2, []string{"unknown flag: --inptu"}},
		{"unknown command", nil, []string{"fti"}, 2, []string{`unknown command "fti"`, "did you mean fit?"}},
		{"labels file twice", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "out.csv"}, 2,
			[]string{"the labels file out.csv is given twice"}},
		{"extra argument", map[string]string{"in.csv": okLabels}, []string{"fit", "in.csv", "out.csv"}, 2,
			[]string{"accepts at most 1 arg(s), received 2"}},
		{"output overwriting the input", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "-o", "./in.csv"}, 2,
			[]string{"--output ./in.csv is also an input file"}},
		{"output and workers the same", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "-o", "out.csv", "--workers", "out.csv"}, 2,
			[]string{"--output and --workers name the same file out.csv"}},
		{"output directory missing", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "-o", "no/such/out.csv"}, 2,
			[]string{"--output no/such/out.csv: directory no/such does not exist"}},
		{"negative --objects", nil, []string{"simulate", "--objects", "-5", "-o", "out.csv"}, 2, []string{"must not be negative"}},
		{"more labels an object than workers", nil, []string{"simulate", "--objects", "1", "--workers", "5", "--labels-per-object", "1000000000", "-o", "out.csv"}, 2,
			[]string{"--labels-per-object 1000000000 is more than the 5 workers"}},
		{"negative --concentration", nil, []string{"simulate", "--concentration", "-1", "-o", "out.csv"}, 2,
			[]string{"--concentration -1: must not be negative"}},
		{"simulate from rfe", nil, []string{"simulate", "--model", "rfe", "-o", "out.csv"}, 2, []string{"no generative process"}},
		{"fit memory over --max-memory", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--max-memory", "1k"}, 1,
			[]string{"fitting vb-ds needs about", "more than the --max-memory limit of 1000 B"}},
		{"read memory over --max-memory", map[string]string{"in.csv": "task,worker,label\n" + strings.Repeat("task,worker,label\n", 20000)},
			[]string{"fit", "-i", "in.csv", "--max-memory", "100k"}, 1,
			[]string{"in.csv: reading it needs about", "20000 rows", "more than the --max-memory limit of 97.7 KiB"}},
		{"bad --max-memory", map[string]string{"in.csv": okLabels}, []string{"fit", "-i", "in.csv", "--max-memory", "lots"}, 2,
			[]string{`invalid size "lots"`}},
		{"simulation over --max-memory", nil, []string{"simulate", "--objects", "1000", "--max-memory", "10k", "-o", "out.csv"}, 1,
			[]string{"simulating 20000 labels", "more than the --max-memory limit"}},
		{"simulation whose noise parameters exceed the limit", nil, []string{"simulate", "-m", "da-ds", "--classes", "3000", "--workers", "3000", "--objects", "1000", "--max-memory", "1G", "-o", "out.csv"}, 1,
			[]string{"402.4 GiB", "most of it for 27.0 billion parameters of the noise model (1000 objects, 3000 workers, 3000 classes)"}},
		{"bench beyond any address space, no limit", nil, []string{"bench", "--labels", "1e15", "--model", "la-ds", "--max-memory", "off"}, 1,
			[]string{"simulating 1000 trillion labels", "more than any process can address"}},
		{"pairwise simulation beyond any address space", nil, []string{"pairwise", "simulate", "--items", "10", "--comparisons", "10000000000000", "--max-memory", "off", "-o", "c.csv"}, 1,
			[]string{"simulating 10 trillion comparisons of 10 items by 50 workers", "more than any process can address"}},
		{"pairwise simulation over --max-memory", nil, []string{"pairwise", "simulate", "--workers", "1000000000", "--comparisons", "10", "--max-memory", "1G", "-o", "c.csv"}, 1,
			[]string{"simulating 10 comparisons of 1000 items by 1.0 billion workers", "more than the --max-memory limit of 953.7 MiB"}},
		{"bootstrap resamples of report beyond any use", map[string]string{"in.csv": okLabels}, []string{"report", "-i", "in.csv", "--bootstrap", "100000000000", "-o", "r.html"}, 2,
			[]string{"--bootstrap 100000000000: want at most 1000000 resamples"}},
		{"bootstrap resamples of compare beyond any use", map[string]string{"in.csv": okLabels}, []string{"compare", "-i", "in.csv", "--bootstrap", "100000000000"}, 2,
			[]string{"--bootstrap 100000000000: want at most 1000000 resamples"}},
		{"bench over --max-memory before simulating", nil, []string{"bench", "--labels", "1e9", "--model", "la-ds", "--max-memory", "1G"}, 1,
			[]string{"simulating 1.0 billion labels", "more than the --max-memory limit of 953.7 MiB"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, c.files)
			args := c.args
			if args[0] == "fit" && !slices.Contains(args, "-o") {
				args = append(args, "-o", "out.csv")
			}
			r := runIn(t, dir, "", args...)
			if r.code != c.code {
				t.Errorf("exit status %d, want %d; stderr %q", r.code, c.code, r.stderr)
			}
			msg := r.stderr
			if strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n") || !strings.HasPrefix(msg, "consensus: ") {
				t.Errorf("stderr is not one line starting with \"consensus: \": %q", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr %q does not contain %q", msg, w)
				}
			}
			if strings.Contains(msg, "goroutine") || strings.Contains(msg, "panic") {
				t.Errorf("panic trace: %q", msg)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
			for _, name := range []string{"out.csv", "w.csv"} {
				if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
					t.Errorf("%s was written", name)
				}
			}
			assertNoTemps(t, dir)
		})
	}
}

// assertNoTemps fails if dir holds a temporary file of output.WriteFile.
func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	if len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// TestAcceptsRealExports checks that what real exports contain and is
// unambiguous (a UTF-8 byte order mark, CRLF line ends, white space around
// cells, quoted cells, blank lines, reordered and extra columns, header
// names in another case) gives byte for byte the output of the plain file.
func TestAcceptsRealExports(t *testing.T) {
	plain := "task,worker,label\n1,a,x\n1,b,y\n2,a,x\n2,b,x\n3,a,y\n3,c,\"x,1\"\n"
	variants := map[string]string{
		"bom_crlf.csv":     "\xef\xbb\xbftask,worker,label\r\n1,a,x\r\n1,b,y\r\n2,a,x\r\n2,b,x\r\n3,a,y\r\n3,c,\"x,1\"\r\n",
		"spaces.csv":       "task , worker , label\n 1 , a , x \n1,\tb,y\n2,a ,x\n\n2,b,x\n  3,a,y\n3,c, \"x,1\"\n",
		"quoted.csv":       "\"task\",\"worker\",\"label\"\n\"1\",\"a\",\"x\"\n\"1\",\"b\",\"y\"\n\"2\",\"a\",\"x\"\n\"2\",\"b\",\"x\"\n\"3\",\"a\",\"y\"\n\"3\",\"c\",\"x,1\"\n",
		"reordered.csv":    "Label,extra,Worker,TASK\nx,,a,1\ny,0,b,1\nx,,a,2\nx,,b,2\ny,,a,3\n\"x,1\",,c,3\n",
		"tabs.tsv":         "task\tworker\tlabel\n1\ta\tx\n1\tb\ty\n2\ta\tx\n2\tb\tx\n3\ta\ty\n3\tc\tx,1\n",
		"no_final_eol.csv": strings.TrimSuffix(plain, "\n"),
	}
	dir := t.TempDir()
	writeFiles(t, dir, variants)
	writeFiles(t, dir, map[string]string{"plain.csv": plain})
	for _, m := range []string{"rfe", "da-ds"} {
		want := runIn(t, dir, "", "fit", "-i", "plain.csv", "-m", m, "-q")
		if want.code != 0 {
			t.Fatalf("plain: exit %d: %s", want.code, want.stderr)
		}
		for name := range variants {
			r := runIn(t, dir, "", "fit", "-i", name, "-m", m, "-q")
			if r.code != 0 || r.stdout != want.stdout {
				t.Errorf("%s with %s: exit %d, stderr %q, output\n%s\nwant\n%s", name, m, r.code, r.stderr, r.stdout, want.stdout)
			}
		}
		r := runIn(t, dir, plain, "fit", "-i", "-", "-m", m, "-q")
		if r.code != 0 || r.stdout != want.stdout {
			t.Errorf("standard input: exit %d, stderr %q", r.code, r.stderr)
		}
	}
}

// TestNumericalEdgesCLI fits every model of the paper through the consensusBin on
// data where the optimum lies at the boundary and checks that no NaN or
// infinity reaches the output or the summary.
func TestNumericalEdgesCLI(t *testing.T) {
	var b strings.Builder
	b.WriteString("task,worker,label\n")
	for j := range 30 {
		for w := range 4 {
			fmt.Fprintf(&b, "t%d,w%d,%d\n", j, w, j%3) // everyone agrees
		}
		fmt.Fprintf(&b, "t%d,adv,%d\n", j, (j+1)%3) // always wrong
	}
	b.WriteString("lonely,once,0\n") // a worker and an object with one label
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"in.csv": b.String()})
	for _, m := range []string{"rfe", "la-ds", "da-ds", "la-glad", "da-glad", "la-mme", "da-mme"} {
		r := runIn(t, dir, "", "fit", "-i", "in.csv", "-m", m, "--workers", "w_"+m+".csv")
		if m == "rfe" {
			r = runIn(t, dir, "", "fit", "-i", "in.csv", "-m", m)
		}
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", m, r.code, r.stderr)
		}
		out := r.stdout
		if w, err := os.ReadFile(filepath.Join(dir, "w_"+m+".csv")); err == nil {
			out += string(w)
		}
		for _, bad := range []string{"NaN", "Inf", "nan", "inf"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: output contains %s:\n%s", m, bad, out)
			}
			if strings.Contains(r.stderr, "log-likelihood "+bad) || strings.Contains(r.stderr, "log-likelihood +"+bad) {
				t.Errorf("%s: summary: %s", m, r.stderr)
			}
		}
		if got := strings.Count(r.stdout, "\n"); got != 32 {
			t.Errorf("%s: %d output lines, want 32", m, got)
		}
	}
}

// simulated writes a simulated labels file of about n labels into dir and
// returns its name.
func simulated(t *testing.T, dir string, objects, workers int, model string) string {
	t.Helper()
	name := fmt.Sprintf("sim_%d_%d_%s.csv", objects, workers, model)
	r := runIn(t, dir, "", "simulate", "--model", model, "--objects", fmt.Sprint(objects),
		"--workers", fmt.Sprint(workers), "--classes", "3", "--seed", "7", "-o", name)
	if r.code != 0 {
		t.Fatalf("simulate: exit %d: %s", r.code, r.stderr)
	}
	return name
}

// TestDeterminism checks that the same input and seed give byte-identical
// output across runs and for 1, 2 and 4 threads, on a data set of 120,000
// labels (several evaluation chunks).
func TestDeterminism(t *testing.T) {
	dir := t.TempDir()
	in := simulated(t, dir, 12000, 10, "da-ds")
	for _, c := range []struct {
		model, iters string
		threads      []string
	}{
		{"la-ds", "10", []string{"1", "2", "4", "4"}},
		{"da-glad", "10", []string{"1", "2", "4", "4"}},
		{"da-mme", "3", []string{"1", "4"}},
	} {
		m := c.model
		var first []byte
		for i, threads := range c.threads {
			out := fmt.Sprintf("out_%s_%d.csv", m, i)
			r := runIn(t, dir, "", "fit", "-i", in, "-m", m, "--max-iter", c.iters, "--threads", threads,
				"-o", out, "--workers", "w"+out, "-q")
			if r.code != 0 {
				t.Fatalf("%s --threads %s: exit %d: %s", m, threads, r.code, r.stderr)
			}
			got, err := os.ReadFile(filepath.Join(dir, out))
			if err != nil {
				t.Fatal(err)
			}
			w, err := os.ReadFile(filepath.Join(dir, "w"+out))
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, w...)
			if i == 0 {
				first = got
				if n := bytes.Count(got, []byte("\n")); n < 12000 {
					t.Fatalf("%s: %d lines", m, n)
				}
				continue
			}
			if !bytes.Equal(got, first) {
				t.Errorf("%s: output with --threads %s (run %d) differs from --threads 1", m, threads, i)
			}
		}
	}
}

// TestInterrupt sends SIGINT to a running fit and checks that it exits 130
// promptly with a message, and that the output file keeps its old content
// (or stays absent) with no temporary file left behind.
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a fit for about a second")
	}
	dir := t.TempDir()
	in := simulated(t, dir, 20000, 10, "da-mme")
	for _, old := range []string{"old content\n", ""} {
		out := filepath.Join(dir, "out.csv")
		os.Remove(out)
		if old != "" {
			writeFiles(t, dir, map[string]string{"out.csv": old})
		}
		cmd := exec.Command(consensusBin, "fit", "-i", filepath.Join(dir, in), "-m", "da-mme", "--max-iter", "100000", "--func-tol", "1e-300",
			"--grad-tol", "1e-300", "-o", out, "--workers", filepath.Join(dir, "w.csv"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond) // reading takes ~0.2 s; then it fits
		sent := time.Now()
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		took := time.Since(sent)
		t.Logf("stopped %v after SIGINT", took)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Fatalf("exit %v after SIGINT, want status 130; stderr %q", err, stderr.String())
		}
		// The grace period is 2 s; the bound is loose because on a busy
		// machine stopping took over 5 s. A fit that ignored the signal
		// would run its 100000 iterations, for minutes.
		if took > 30*time.Second {
			t.Errorf("took %v to stop after SIGINT", took)
		}
		if !strings.Contains(stderr.String(), "consensus: interrupted") {
			t.Errorf("stderr %q does not say it was interrupted", stderr.String())
		}
		got, err := os.ReadFile(out)
		switch {
		case old == "" && err == nil:
			t.Errorf("interrupted run wrote %s", out)
		case old != "" && string(got) != old:
			t.Errorf("interrupted run changed %s to %q", out, got)
		}
		if _, err := os.Stat(filepath.Join(dir, "w.csv")); err == nil {
			t.Error("interrupted run wrote the workers file")
		}
		assertNoTemps(t, dir)
	}
}

// TestSummary checks the summary of a fit that stops at the iteration
// limit: exit status 0, the result written, and a warning.
func TestSummary(t *testing.T) {
	dir := t.TempDir()
	in := simulated(t, dir, 300, 5, "da-glad")
	r := runIn(t, dir, "", "fit", "-i", in, "-m", "da-ds", "--max-iter", "2", "-o", "out.csv")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "warning: the fit did not converge (IterationLimit); raise --max-iter") {
		t.Errorf("no warning in %q", r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.csv")); err != nil || bytes.Count(b, []byte("\n")) != 301 {
		t.Errorf("output not written: %v", err)
	}
}

// TestBench runs the bench command with repeats and a CPU profile: it
// reports every fit, its own peak memory where Linux tells it, and the
// median and range of their times, fits a vote too, refuses a fit beyond
// --max-memory, writes a profile that go tool pprof can read, and leaves
// no profile behind when the command fails.
func TestBench(t *testing.T) {
	dir := t.TempDir()
	r := runIn(t, dir, "", "bench", "--model", "la-ds", "--labels", "2e4", "--repeat", "3", "--cpuprofile", "cpu.out")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"fit 1: solver em", "fit 3: solver em", "fit time: median ", "peak memory"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if _, _, ok := benchdata.RSS(); ok && benchdata.ResetPeakRSS() && !strings.Contains(r.stdout, "fit 1 memory: peak ") {
		t.Errorf("output lacks the fit's own peak and its estimate:\n%s", r.stdout)
	}
	if out, err := exec.Command("go", "tool", "pprof", "-top", filepath.Join(dir, "cpu.out")).CombinedOutput(); err != nil {
		t.Errorf("go tool pprof cannot read the profile: %v\n%s", err, out)
	}
	// A fit estimated beyond --max-memory is refused in one line (the
	// simulation, about 42 MiB, is within it).
	r = runIn(t, dir, "", "bench", "--model", "la-mme", "--labels", "2e4", "--classes", "20", "--max-memory", "100M")
	if r.code != 1 || !strings.Contains(r.stderr, "fitting la-mme needs about") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Errorf("bench beyond --max-memory: exit %d, stderr %q; want 1 and one line", r.code, r.stderr)
	}
	// A vote is fitted to labels from da-ds, without the passes' figures.
	r = runIn(t, dir, "", "bench", "--model", "wawa", "--labels", "2e4")
	if r.code != 0 || !strings.Contains(r.stdout, "fit 1: solver ") || strings.Contains(r.stdout, "labels/s") {
		t.Errorf("wawa: exit %d, stdout %q, stderr %q; want a fit without passes", r.code, r.stdout, r.stderr)
	}
	// A fit that fails (EM for GLAD) leaves no profile.
	r = runIn(t, dir, "", "bench", "--model", "la-glad", "--labels", "2e4", "--solver", "em", "--cpuprofile", "bad.out")
	if r.code == 0 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Errorf("EM for GLAD: exit %d, stderr %q; want a one-line error", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.out")); !os.IsNotExist(err) {
		t.Errorf("a failed bench left its profile: %v", err)
	}
}
