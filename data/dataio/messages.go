package dataio

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// baseName returns the file name without directory and extensions, such as
// "labels" for "dir/labels.csv.gz".
func baseName(name string) string {
	if name == "" || name == "-" {
		return ""
	}
	b := filepath.Base(name)
	if strings.EqualFold(filepath.Ext(b), ".gz") {
		b = b[:len(b)-3]
	}
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// displayName returns the file name to use in messages.
func displayName(name string) string {
	switch name {
	case "":
		return "<input>"
	case "-":
		return "<stdin>"
	}
	return name
}

func orDefault(s, def string) string {
	if s = strings.TrimSpace(s); s == "" {
		return def
	}
	return s
}

// invalidAt returns the byte offset of the first invalid UTF-8 sequence in s.
func invalidAt(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n <= 1 {
				return i
			}
		}
	}
	return 0
}

// show quotes a string from the input for a one-line message, shortening
// long strings.
func show(s string) string {
	const max = 40
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	for _, r := range s {
		if r == '\'' || r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' {
			return strconv.Quote(s)
		}
	}
	return "'" + s + "'"
}

// showList quotes up to ten strings, separated by commas.
func showList(list []string) string {
	var b strings.Builder
	for i, s := range list {
		if i == 10 {
			fmt.Fprintf(&b, ", … (%d more)", len(list)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(show(s))
	}
	return b.String()
}

// showOr quotes strings as "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
func showOr(list []string) string {
	if len(list) == 1 {
		return show(list[0])
	}
	return showList(list[:len(list)-1]) + " or " + show(list[len(list)-1])
}

// listClasses lists class names for messages, shortening long lists.
func listClasses(classes []string) string {
	if len(classes) > 20 {
		return strings.Join(classes[:20], ",") + fmt.Sprintf(",… (%d classes)", len(classes))
	}
	return strings.Join(classes, ",")
}
