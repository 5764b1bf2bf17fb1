// Package table writes tables of named columns in every format the
// command reads: CSV and TSV with a header line, JSON Lines with the column
// names as keys, and Parquet with one flat required column per name, each
// gzip-compressed when the path ends in ".gz".
//
// A Writer takes typed cells row by row (String, Float, Int), so that
// numbers are formatted once, in the form that reads back bit for bit:
// the shortest decimal text in CSV, TSV and JSON Lines (null in JSON for a
// value that is not finite) and doubles or 64-bit integers in Parquet.
// CSV and TSV rows are the bytes encoding/csv's Writer writes (text cells
// quoted by its rules), built by the Writer itself, which appends numbers
// without encoding/csv's per-cell checks. The consensus, worker, label and
// gold files of package output are schemas on it: a list of Columns and
// one call per cell.
//
// Reading is the other half of the layer and lives in package data
// (dataio.ReadTable), next to the fast paths of the labels reader, so that
// every table is read with the same rules and messages.
package table
