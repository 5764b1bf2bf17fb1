// Package ingest turns rows of text into the index form of a data.Dataset
// for the readers of package dataio: the Builder and its tables of
// identifiers, the cell rules of delimited text and JSON Lines, and the
// block paths that read the plain rows of a file in parallel.
package ingest
