package dataio

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// FuzzReadLabels checks that ReadLabels never panics, reports every failure
// as a one-line *InputError, and, when it succeeds, returns a valid Dataset
// with one label per data row that survives writing and reading back. It
// also reads each line as JSON Lines by the fast and the slow path, which
// must agree.
func FuzzReadLabels(f *testing.F) {
	for _, s := range []string{
		"task,worker,label\n1,a,x\n1,b,y\n",
		"\xef\xbb\xbftask,worker,label\r\n1,a,x\r\n2,b,y\r\n",
		"label,task,worker,extra\n\"x\",\" 1\",a,\n\"y\"\"\",\"2\n3\",b,e\n",
		"task,worker,label\n1,a,x\n\"2,b,y\n",
		`{"task":"t1","worker":"w1","label":"x"}` + "\n" + `{"task":2,"worker":"w\u00e9","label":true,"e":[{}]}` + "\n",
		`{"Task":"t1","worker":"w1","label":"x","task":null}` + "\n" + `{"task":1e3,"worker":" w ","label":"y"} 1` + "\n",
		"{\"task\":\"задача\u00a0\",\"worker\":\" w\u3000\",\"label\":\"кошка\"}\n{\"task\":\"задача\",\"worker\":\"w\xc3\",\"label\":\"x\"}\n",
		`{"task": "\u0437\u0430-t0", "worker": "w\u00e9\ud83d\ude00", "label": "\/\\x\t"}` + "\n" + `{"task":"\ud800","worker":"w","label":"x","n":"\udc00"}` + "\n",
		`{"task":"t","worker":"w","label":"x","e":{"a":[1,{"b":null}],"c":"\u00e9\""}}` + "\n" + `{"task":"t\q","worker":"w","label":"x"}` + "\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkJSONLPaths(t, in) // the fast and slow paths of the JSON Lines reader agree
		d, err := ReadLabels(ctx, bytes.NewReader(in), "fuzz.csv", ReadSettings{})
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is %T, not *InputError", err, err)
			}
			if msg := err.Error(); strings.ContainsAny(msg, "\r\n") || !strings.HasPrefix(msg, "fuzz.csv:") {
				t.Fatalf("bad message %q", msg)
			}
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("invalid Dataset: %v", err)
		}
		if d.NumClasses() < 2 {
			t.Fatalf("%d classes", d.NumClasses())
		}
		if len(in) < 2 || in[0] != 0x1f || in[1] != 0x8b { // not gzip
			if rows := countRows(t, in); d.NumLabels() != rows {
				t.Fatalf("%d labels from %d data rows", d.NumLabels(), rows)
			}
		}
		for _, s := range slices.Concat(d.Tasks, d.Workers, d.Classes) {
			if s == "" || s != strings.TrimSpace(s) {
				t.Fatalf("identifier %q is empty or not trimmed", s)
			}
		}

		// Write the labels out and read them back. encoding/csv, which
		// writes them here, does not round-trip a quoted "\r\n": its reader
		// turns it into "\n" (as ReadLabels does on the way in, so such a
		// pair can only come from "\r\r\n" in the input). Expect exactly
		// that change; skip the rare input where it would merge two classes.
		crlf := strings.NewReplacer("\r\n", "\n")
		classes := make([]string, len(d.Classes))
		for i, c := range d.Classes {
			classes[i] = crlf.Replace(c)
		}
		if len(slices.Compact(slices.Sorted(slices.Values(classes)))) < len(classes) {
			return
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.Write([]string{"task", "worker", "label"})
		for j, task := range d.Tasks {
			workers, labels := d.TaskLabels(j)
			for i := range workers {
				w.Write([]string{task, d.Workers[workers[i]], d.Classes[labels[i]]})
			}
		}
		w.Flush()
		d2, err := ReadLabels(ctx, &buf, "again.csv", ReadSettings{Classes: classes})
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		want := labelsOf(d)
		for i, s := range want {
			want[i] = crlf.Replace(s)
		}
		if a, b := want, labelsOf(d2); !slices.Equal(a, b) {
			t.Fatalf("read back %q, want %q", b, a)
		}
	})
}

// countRows counts the data rows of a comma-separated input independently of
// ReadLabels: records other than the header and blank lines. LazyQuotes
// reads a quote inside an unquoted cell as ReadLabels does, and any input
// that ReadLabels accepts as it does.
func countRows(t *testing.T, in []byte) int {
	in = bytes.TrimPrefix(in, []byte("\xef\xbb\xbf"))
	r := csv.NewReader(bytes.NewReader(in))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.TrimLeadingSpace = true
	n := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("ReadLabels accepted input that encoding/csv rejects: %v", err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		n++
	}
	return n - 1
}
