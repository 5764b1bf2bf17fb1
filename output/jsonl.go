package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// WriteConsensusJSONL writes the consensus as JSON Lines, one object per
// task with the keys of the CSV form: "task", "label" and "p_<class>" for
// every class, such as
//
//	{"task":"t1","label":"b","p_a":0.25,"p_b":0.75}
//
// pandas reads it with read_json(path, lines=True). Probabilities are
// written with the shortest decimal text that reads back to the same
// float64. The label is the argmax, ties broken as by WriteConsensusCSV.
func WriteConsensusJSONL(w io.Writer, r *model.Result, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	d := r.Data
	keys := make([][]byte, d.NumClasses())
	for z, c := range d.Classes {
		keys[z] = append(appendJSONString(nil, "p_"+c), ':')
	}
	labels := r.Labels(seed)
	var b []byte
	for j, task := range d.Tasks {
		b = append(b[:0], `{"task":`...)
		b = appendJSONString(b, task)
		b = append(b, `,"label":`...)
		b = appendJSONString(b, d.Classes[labels[j]])
		for z, p := range r.Dist(j) {
			b = append(b, ',')
			b = append(b, keys[z]...)
			b = appendJSONNumber(b, p)
		}
		b = append(b, "}\n"...)
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteWorkersJSONL writes one JSON object per worker with the columns of
// WriteWorkersCSV as keys: "worker", "labels" and the fitted parameters
// named by model.Result.WorkerColumns. A parameter that is not a finite
// number is written as null.
func WriteWorkersJSONL(w io.Writer, r *model.Result) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	d := r.Data
	cols := workerColumns(r)
	skills := r.WorkerSkills()
	keys := make([][]byte, len(cols))
	for i, c := range cols {
		keys[i] = append(appendJSONString(nil, c), ':')
	}
	n := labelsPerWorker(d)
	var vals []float64
	var b []byte
	for wk, name := range d.Workers {
		vals = workerValues(r, skills, int32(wk), vals[:0])
		b = append(b[:0], `{"worker":`...)
		b = appendJSONString(b, name)
		b = append(b, `,"labels":`...)
		b = strconv.AppendInt(b, int64(n[wk]), 10)
		for i, v := range vals {
			b = append(b, ',')
			b = append(b, keys[i]...)
			b = appendJSONNumber(b, v)
		}
		b = append(b, "}\n"...)
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// labelsPerWorker counts the labels of every worker.
func labelsPerWorker(d *data.Dataset) []int {
	n := make([]int, d.NumWorkers())
	for _, wk := range d.Worker {
		n[wk]++
	}
	return n
}

// appendJSONNumber appends v in its shortest round-tripping form, or null
// if v is not finite (JSON has no NaN or infinity).
func appendJSONNumber(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes
// U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, `\u202`...)
			b = append(b, hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// ReadConsensusJSONL reads a consensus table in the form
// WriteConsensusJSONL writes: one object a line with a "task" key and at
// least two "p_<class>" keys, the same in every record (other keys, such as
// "label", are ignored). The checks are those of ReadConsensusCSV; errors
// name the file (name) and the line.
func ReadConsensusJSONL(r io.Reader, name string) (*Predictions, error) {
	fail := func(line int, format string, a ...any) error {
		return &data.InputError{File: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	br := bufio.NewReaderSize(r, 1<<16)
	p := &Predictions{}
	seen := make(map[string]bool)
	var class map[string]int
	var row []float64
	var got []bool
	line := 0
	for {
		raw, err := br.ReadBytes('\n')
		if len(raw) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return nil, fail(0, "read error: %v", err)
		}
		line++
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		var rec map[string]json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&rec); err != nil {
			return nil, fail(line, "invalid JSON: %v", strings.TrimPrefix(err.Error(), "json: "))
		}
		if class == nil {
			class = make(map[string]int)
			for _, k := range objectKeys(raw) {
				if c, ok := strings.CutPrefix(k, "p_"); ok {
					p.Classes = append(p.Classes, c)
				}
			}
			for z, c := range p.Classes {
				class["p_"+c] = z
			}
			if _, ok := rec["task"]; !ok || len(p.Classes) < 2 {
				return nil, fail(line, "want a task key and at least two p_<class> keys")
			}
			row = make([]float64, len(p.Classes))
			got = make([]bool, len(p.Classes))
		}
		var task any
		if err := json.Unmarshal(rec["task"], &task); err != nil || rec["task"] == nil {
			return nil, fail(line, "no task")
		}
		var id string
		switch t := task.(type) {
		case string:
			id = strings.TrimSpace(t)
		case float64:
			id = strings.TrimSpace(string(rec["task"]))
		}
		if id == "" {
			return nil, fail(line, "empty task")
		}
		if seen[id] {
			return nil, fail(line, "task %q appears twice", id)
		}
		seen[id] = true
		p.Tasks = append(p.Tasks, id)
		clear(got)
		var sum float64
		for k, v := range rec {
			z, ok := class[k]
			if !ok {
				if strings.HasPrefix(k, "p_") {
					return nil, fail(line, "key %q is not in the first record", k)
				}
				continue
			}
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil || f < 0 || f > 1 || math.IsNaN(f) {
				return nil, fail(line, "%s = %s is not a probability", k, v)
			}
			row[z], got[z] = f, true
			sum += f
		}
		for z, ok := range got {
			if !ok {
				return nil, fail(line, "no p_%s key", p.Classes[z])
			}
		}
		if math.Abs(sum-1) > 1e-6 {
			return nil, fail(line, "probabilities sum to %v, not 1", sum)
		}
		p.Probs = append(p.Probs, row...)
	}
	if len(p.Tasks) == 0 {
		return nil, fail(0, "no rows")
	}
	return p, nil
}

// objectKeys returns the top-level keys of a JSON object in their order.
func objectKeys(obj []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := tok.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
	}
	return keys
}
