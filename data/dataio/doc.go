// Package dataio reads crowdsourced labels, gold labels and other tables
// from files into the types of package data.
//
// ReadLabels and ReadGold read delimited text (CSV, TSV or another
// separator). ReadLabelsAs and ReadGoldAs also read JSON Lines, one object
// a line such as {"task":"t1","worker":"w7","label":"cat"}, and Parquet
// files with flat columns of those names; the Format is given or follows
// from the file name (FormatOf: .csv, .tsv, .jsonl, .ndjson, .parquet, each
// optionally .gz). LoadLabels and LoadGold open a file, or standard input
// for "-". Every reader streams its rows into a Builder, and every problem
// is an *InputError with a one-line message "FILE:LINE: problem", where
// LINE is the record's line for text formats and its row for Parquet:
//
//	d, err := dataio.LoadLabels(ctx, "labels.jsonl.gz", "", dataio.ReadSettings{})
//	if err != nil {
//		log.Fatal(err) // such as "labels.jsonl.gz:12: the worker value (key 'worker') is null"
//	}
//	fmt.Println(d.NumTasks(), d.NumWorkers(), d.NumLabels(), d.Classes)
//
// Every reader takes a context first: a nil context is never cancelled.
// Messages name no option of a program. Where one of the reader's settings
// is the remedy (another separator, other column names, the classes, the
// format), InputError.Hint says which, so that a program can add advice
// naming its own flag. A read stopped by ReadSettings.MaxMemory wraps
// ErrLimit, and one stopped by its context wraps the context's error.
//
// # Paths
//
// Each format has a general reader, which gives every message, and faster
// paths that take only the records whose result they can vouch for and
// hand every other record to the general one, from that record on:
//
//   - delimited text: encoding/csv is the general reader, and reads the
//     header (its line alone, in csvLines); one tokenizer,
//     ingest.ChunkParser.SplitLine, splits the data lines with the cell
//     rules (trimming, simple quoting, blank lines), row by row in csvLines
//     and in the parallel blocks of a labels file alike;
//   - JSON Lines: encoding/json is the general reader, which gives every
//     message; the scanner of package ingest, ingest.JSONLScan, is the one
//     fast path: it reads the valid records, escapes and nested values the
//     reader ignores included, row by row and in blocks (a record whose
//     wanted values have escapes, row by row only);
//   - Parquet: the row-by-row reader of the parquet package's values, and
//     a page reader for dictionary and plain pages; one conversion of a
//     value to text (parquetText) serves both.
//
// The rules for values that every format applies are listed in
// validate.go. Tests compare each fast path with the general reader.
//
// # Other tables
//
// ReadTable and LoadTable read any table of named columns — a consensus,
// a table of worker parameters — in the same formats and with the same
// rules and messages, calling a function with the cells of each row;
// Columns names the columns, or picks them from the header. Package
// output reads the tables it writes with them.
package dataio
