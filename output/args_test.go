package output

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
)

// TestBadArguments checks that the writers return an error naming the
// problem, instead of panicking, on a nil result and on a File without a
// Write function, and that WriteFiles then writes none of the files.
func TestBadArguments(t *testing.T) {
	var buf bytes.Buffer
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"consensus", func() error { return WriteConsensus(&buf, nil, 1, dataio.CSV) }, "no fit result"},
		{"consensus/no data", func() error { return WriteConsensus(&buf, &model.Result{}, 1, dataio.CSV) }, "no fit result"},
		{"workers", func() error { return WriteWorkers(&buf, nil, dataio.CSV) }, "no fit result"},
		{"tasks", func() error { return WriteTasks(&buf, nil, dataio.CSV) }, "no fit result"},
		{"crowd-kit", func() error { return WriteConsensusCrowdKit(&buf, nil, 1, dataio.CSV) }, "no fit result"},
		{"file", func() error { return WriteConsensusFile(good, "", nil, 1) }, "no fit result"},
		{"write file", func() error { return WriteFile(good, nil) }, `file 1 ("` + good + `") has no Write function`},
		{"write files", func() error {
			ok := File{Path: good, Write: func(w io.Writer) error { _, err := w.Write([]byte("x\n")); return err }}
			return WriteFiles(context.Background(), ok, File{Path: filepath.Join(dir, "b.csv")})
		}, "file 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.run(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
			if _, err := os.Stat(good); !os.IsNotExist(err) {
				t.Errorf("%s exists after the error (%v)", good, err)
			}
		})
	}
}
