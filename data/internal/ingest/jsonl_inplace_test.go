package ingest

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"testing"
)

// TestJSONLBlocksEscaped checks that records whose wanted values have
// escapes stay in the parallel blocks, decoded as the record-by-record
// reader decodes them, and that a block path that stops hands on the
// input from the stop on exactly as it was: the lines whose values were
// decoded in place are restored, in the block that stopped and in the
// blocks parsed ahead of it.
func TestJSONLBlocksEscaped(t *testing.T) {
	names := []string{"task", "worker", "label"}
	var in bytes.Buffer
	const n = 3000
	for i := range n {
		fmt.Fprintf(&in, `{"task": "\u0437-t%d", "worker": "w%d\u00e9\ud83d\ude00", "label": "\u0434%d", "n": "\ud800"}`+"\n", i/3, i%97, i%2)
	}
	escaped := in.Bytes()
	// The stop: a label that is not a class of the fixed ones, late.
	stopAt := 2500
	lines := bytes.SplitAfter(escaped, []byte("\n"))
	stopped := slices.Concat(slices.Concat(lines[:stopAt]...), []byte(`{"task":"x","worker":"y","label":"\u0434\u0033"}`+"\n"), slices.Concat(lines[stopAt:]...))
	defer func(size, threads int) { ChunkSize, ChunkThreads = size, threads }(ChunkSize, ChunkThreads)
	for _, threads := range []int{1, 2} {
		for _, size := range []int{1, 4096, 1 << 20} {
			ChunkSize, ChunkThreads = size, threads
			name := fmt.Sprintf("%d goroutines, blocks of %d bytes", threads, size)
			// Every record in blocks, with the decoded identifiers.
			b, rest := readBlocks(t, escaped, names, nil)
			if rest != "" || b.Len() != n {
				t.Fatalf("%s: %d records in blocks, rest %.80q", name, b.Len(), rest)
			}
			l, err := b.Build(false)
			if err != nil {
				t.Fatal(err)
			}
			if l.Tasks[1] != "з-t1" || l.Workers[5] != "w5é😀" || !slices.Equal(l.Classes, []string{"д0", "д1"}) {
				t.Errorf("%s: tasks %q..., workers %q..., classes %q", name, l.Tasks[:2], l.Workers[:6], l.Classes)
			}
			// A stop restores the rest of the input.
			b, rest = readBlocks(t, stopped, names, []string{"д0", "д1"})
			if want := string(slices.Concat(stopped[len(slices.Concat(lines[:stopAt]...)):])); rest != want || b.Len() != stopAt {
				t.Errorf("%s: stopped after %d records (want %d), rest of %d bytes differs from the input's %d", name, b.Len(), stopAt, len(rest), len(want))
			}
		}
	}
}

// readBlocks reads in with ReadBlocks and the JSON Lines parser of names
// into a Builder of the classes (any if nil), and returns it with the rest
// of the input that ReadBlocks leaves.
func readBlocks(t *testing.T, in []byte, names, classes []string) (*Builder, string) {
	t.Helper()
	b, err := NewBuilder(classes)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadBlocks(BlockInput{R: bytes.NewReader(in)}, func() *ChunkParser { return NewJSONLChunkParser(names) }, b, nil, NewHeaderSet(names))
	if err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(r.R)
	if err != nil {
		t.Fatal(err)
	}
	return b, string(rest)
}
