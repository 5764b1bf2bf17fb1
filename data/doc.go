// Package data holds crowdsourced labels in the compact, index-based form the
// consensus models work on, and reads them from delimited text files.
//
// A Dataset stores every noisy label as a (task, worker, class) triple of small
// integers. Labels are grouped by task: the labels of task j are the entries
// Offsets[j] to Offsets[j+1] of the Worker and Label slices, in input order.
// Task, worker and class identifiers are kept once each, as strings, in the
// Tasks, Workers and Classes slices; the dense indices are positions in them.
//
// A Builder turns a stream of string triples into a Dataset without keeping
// any row's strings: each identifier is interned on first sight. Classes are
// ordered numerically when every class label parses as a number (so 1 < 2 < 10),
// lexically otherwise, or as the caller lists them.
//
// Several labels from the same worker on the same task are all kept; each is
// one observation, as in the paper's label counts.
//
// # Formats
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
//	d, err := data.LoadLabels("labels.jsonl.gz", "", data.ReadOptions{})
//	if err != nil {
//		log.Fatal(err) // such as "labels.jsonl.gz:12: the worker value (key 'worker') is null"
//	}
//	fmt.Println(d.NumTasks(), d.NumWorkers(), d.NumLabels(), d.Classes)
//
// Messages name no option of a program. Where one of the reader's options
// is the remedy (another separator, other column names, the classes, the
// format), InputError.Hint says which, so that a program can add advice
// naming its own flag. A read stopped by ReadOptions.MaxMemory wraps
// ErrLimit, and one stopped by ReadOptions.Context wraps the context's
// error.
//
// # Other tables
//
// ReadTable and LoadTable read any table of named columns — a consensus,
// a table of worker parameters — in the same formats and with the same
// rules and messages, calling a function with the cells of each row;
// Columns names the columns, or picks them from the header. Package
// output reads the tables it writes with them.
package data
