package dataio

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// The rules for values that every reader applies, whatever the format
// (CSV, TSV, JSON Lines, Parquet, compressed or not), so that the same
// logical input is accepted or refused identically:
//
//   - a value is text: valid UTF-8 (JSON escapes included: an unpaired
//     surrogate such as "\ud800" is refused, not turned into U+FFFD), and
//     not empty after trimming white space; null is refused like an empty
//     cell;
//   - a label that is NaN or an infinity — in text ("NaN", "inf",
//     "-Infinity", in any case) or as a Parquet floating-point value — is a
//     missing value, not a class, and is refused; a Parquet NaN or infinity
//     is refused in any column;
//   - a row whose wanted cells repeat the header's column names, in any
//     order (two exports joined with cat, the second perhaps with its
//     columns in another order or a byte order mark), is refused, naming
//     its line: every wanted cell is the name of a column of the file (of
//     the header, JSON keys or the Parquet schema, ignoring case), no two
//     the same;
//   - invalid UTF-8 is refused in the header (JSON keys) and the wanted
//     columns, and ignored in the columns the reader does not use;
//   - numbers keep the text they were written with where the format keeps
//     it (CSV, TSV, JSON Lines); Parquet decimals are rendered with their
//     scale (1.50), other Parquet numbers in their shortest decimal form.
//
// checkRow applies the row rules; the readers check emptiness and UTF-8
// where they find each value, to name its column.

// missingAdvice ends the messages about missing values.
const missingAdvice = "remove the row or fill in the value"

// checkRow returns what is wrong with the wanted cells of a row, or "".
// h holds the file's column names, roles what each wanted cell holds
// ("task", "worker", "label").
func checkRow(cells []string, h *ingest.HeaderSet, roles []string) string {
	if h.Repeated(cells) {
		return fmt.Sprintf("the row repeats the header's column names (%s): are two files joined into one? Remove the line",
			strings.Join(cells, ","))
	}
	for i, c := range cells {
		if roles[i] == "label" && ingest.NonFiniteText(c) {
			return fmt.Sprintf("label %s is NaN or infinite: a missing value, not a class; %s", show(c), missingAdvice)
		}
	}
	return ""
}

// validCell reports whether a trimmed cell is acceptable text: not empty
// and valid UTF-8.
func validCell(s string) bool { return s != "" && utf8.ValidString(s) }

// badSurrogate returns the 1-based column of the first escape in a JSON
// text that encodes an unpaired UTF-16 surrogate (such as "\ud800"), which
// JSON decoders silently turn into U+FFFD, or 0 if there is none.
func badSurrogate(line []byte) int {
	for i := 0; i < len(line); i++ {
		if line[i] != '\\' {
			continue
		}
		if i+1 >= len(line) || line[i+1] != 'u' {
			i++ // a two-character escape such as \\ or \"
			continue
		}
		r, ok := ingest.JSONHex4(line, i+2)
		if !ok {
			i++
			continue
		}
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return i + 1
		case r >= 0xD800 && r <= 0xDBFF:
			if i+7 < len(line) && line[i+6] == '\\' && line[i+7] == 'u' {
				if lo, ok := ingest.JSONHex4(line, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					i += 11
					continue
				}
			}
			return i + 1
		}
		i += 5
	}
	return 0
}
