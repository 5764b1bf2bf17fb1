//go:build ignore

// Gen copies the data sets of the paper into files/ for embedding: for each
// data set it writes labels.csv.gz and gold.csv.gz, compressed
// deterministically (no file name or time stamp in the gzip header), and
// copies SOURCE.md; it also copies the top-level README.md.
//
// Usage, from this directory:
//
//	go run gen.go [-src /work/shared/data]
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
)

var names = []string{"adult", "duchenne", "rte", "temp", "trec2010", "websearch"}

func main() {
	src := flag.String("src", "/work/shared/data", "directory holding one folder per data set")
	out := flag.String("out", "files", "output directory")
	flag.Parse()
	if err := copyFile(filepath.Join(*src, "README.md"), filepath.Join(*out, "README.md"), false); err != nil {
		log.Fatal(err)
	}
	for _, name := range names {
		for _, f := range []struct {
			name string
			gz   bool
		}{{"labels.csv", true}, {"gold.csv", true}, {"SOURCE.md", false}} {
			to := filepath.Join(*out, name, f.name)
			if f.gz {
				to += ".gz"
			}
			if err := copyFile(filepath.Join(*src, name, f.name), to, f.gz); err != nil {
				log.Fatal(err)
			}
		}
	}
}

// copyFile copies from to to, gzip-compressing it if gz is set.
func copyFile(from, to string, gz bool) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if gz {
		var buf bytes.Buffer
		w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return err
		}
		// The zero Header has no name and no modification time, so the
		// output depends only on the input.
		if _, err := w.Write(b); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		b = buf.Bytes()
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	fmt.Println(to, len(b))
	return os.WriteFile(to, b, 0o644)
}
