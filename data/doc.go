// Package data holds crowdsourced labels in the compact, index-based form the
// consensus models work on.
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
// lexically otherwise, or as the caller lists them. FromIndices builds a
// Dataset from index slices, as a simulation makes them.
//
// Several labels from the same worker on the same task are all kept; each is
// one observation, as in the paper's label counts.
//
// Package dataio reads labels and gold labels from files (CSV, TSV, JSON
// Lines, Parquet) into a Dataset and a Gold.
package data
