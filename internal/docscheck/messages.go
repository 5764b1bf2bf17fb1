package docscheck

import (
	"regexp"
	"strings"
	"unicode"
)

// Messages returns the error messages that pages quote: every span or code
// line that begins with "consensus: " (what the binary prints before a
// message), and every span in the last cell of a table whose last header
// cell is "message".
func Messages(pages []Page) []Ref {
	var refs []Ref
	for _, p := range pages {
		p.Paragraphs(func(line int, span string, row []string) {
			if strings.HasPrefix(span, "consensus: ") {
				refs = append(refs, Ref{p.Path, line, span})
				return
			}
			if row != nil && messageColumn(p, line) && strings.Contains(row[len(row)-1], "`"+span+"`") {
				refs = append(refs, Ref{p.Path, line, span})
			}
		})
		for i, l := range p.Lines {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "consensus: ") && !strings.Contains(t, "`") {
				refs = append(refs, Ref{p.Path, i + 1, t})
			}
		}
	}
	return refs
}

// messageColumn reports whether the table row on line (1-based) belongs to
// a table whose last header cell is "message".
func messageColumn(p Page, line int) bool {
	i := line - 1
	for i > 0 && strings.HasPrefix(strings.TrimSpace(p.Lines[i-1]), "|") {
		i--
	}
	if i == line-1 {
		return false // the header itself
	}
	head := splitRow(strings.TrimSpace(p.Lines[i]))
	return head[len(head)-1] == "message"
}

// Formats turns the module's string literals that read like messages into
// patterns: the literal text kept, each formatting verb standing for any
// text. A literal is cut at "; ", ": " and " (" into pieces, since the
// binary composes its messages from such clauses and rewrites their
// prefixes. Pieces with fewer than minLetters letters outside their verbs
// are left out, since they would match almost anything.
func (c *Code) Formats(minLetters int) []Format {
	seen := map[string]bool{}
	var fs []Format
	for _, s := range c.Strings {
		for _, piece := range clause.Split(strings.TrimRight(s, "\n"), -1) {
			if seen[piece] {
				continue
			}
			seen[piece] = true
			if f, ok := newFormat(piece); ok && f.letters >= minLetters {
				fs = append(fs, f)
			}
		}
	}
	return fs
}

var clause = regexp.MustCompile(`; |: | \(`)

// Values returns the literals of the code that are single lower-case words,
// such as model and flag names, which messages list as values.
func (c *Code) Values() map[string]bool {
	v := map[string]bool{}
	for _, s := range c.Strings {
		if valueWord.MatchString(s) {
			v[s] = true
		}
	}
	return v
}

var valueWord = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// Format is one string literal as a pattern.
type Format struct {
	re      *regexp.Regexp
	longest string // the longest literal run, which a match must contain
	letters int
}

var verb = regexp.MustCompile(`%[-+# 0]*(?:\[\d+\])?[0-9*]*(?:\.[0-9*]*)?[a-zA-Z%]`)

func newFormat(s string) (Format, bool) {
	var re strings.Builder
	var f Format
	lits := verb.Split(s, -1)
	verbs := verb.FindAllString(s, -1)
	for i, lit := range lits {
		re.WriteString(regexp.QuoteMeta(lit))
		if len(lit) > len(f.longest) {
			f.longest = lit
		}
		for _, r := range lit {
			if unicode.IsLetter(r) {
				f.letters++
			}
		}
		if i < len(verbs) {
			switch {
			case strings.HasSuffix(verbs[i], "%"):
				re.WriteString("%")
			case i == len(verbs)-1 && lits[i+1] == "":
				re.WriteString(`\S*`) // a final verb: one word at most
			default:
				re.WriteString(`.*?`)
			}
		}
	}
	r, err := regexp.Compile(re.String())
	if err != nil {
		return f, false
	}
	f.re = r
	return f, true
}

// valueToken matches a value a message may list: a name with hyphens or stars.
var valueToken = regexp.MustCompile(`[A-Za-z0-9*-]+`)

// word matches the words that a quoted message must take from the code.
var word = regexp.MustCompile(`[A-Za-z]{3,}`)

// quoted matches the parts of a message that are values, not wording: text in
// quotes and a leading file name and line.
var quoted = regexp.MustCompile(`'[^']*'|"[^"]*"|^(?:--[a-z-]+ )?(?:\.\.\.|[^\s:]+)(?::\d+)?: `)

// Uncovered returns the words of a quoted message that no literal of the code
// accounts for: a message the code prints is covered word for word by the
// literals it is built from.
func Uncovered(msg string, formats []Format, values map[string]bool) []string {
	msg = strings.TrimPrefix(msg, "consensus: ")
	covered := make([]bool, len(msg))
	for _, m := range quoted.FindAllStringIndex(msg, -1) {
		for i := m[0]; i < m[1]; i++ {
			covered[i] = true
		}
	}
	for _, f := range formats {
		if !strings.Contains(msg, f.longest) {
			continue
		}
		for _, m := range f.re.FindAllStringIndex(msg, -1) {
			for i := m[0]; i < m[1]; i++ {
				covered[i] = true
			}
		}
	}
	for _, m := range valueToken.FindAllStringIndex(msg, -1) {
		parts := strings.FieldsFunc(msg[m[0]:m[1]], func(r rune) bool { return r == '-' || r == '*' })
		value := len(parts) > 0
		for _, p := range parts {
			value = value && values[p]
		}
		if value {
			for i := m[0]; i < m[1]; i++ {
				covered[i] = true
			}
		}
	}
	var missing []string
	for _, m := range word.FindAllStringIndex(msg, -1) {
		for i := m[0]; i < m[1]; i++ {
			if !covered[i] {
				missing = append(missing, msg[m[0]:m[1]])
				break
			}
		}
	}
	return missing
}
