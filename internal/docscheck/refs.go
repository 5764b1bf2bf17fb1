package docscheck

import (
	"fmt"
	"go/ast"
	"regexp"
	"strings"
)

// Ref is one reference that a page quotes, where it is quoted.
type Ref struct {
	Path string // the page, relative to the module root
	Line int    // 1-based
	Text string // the quoted text, without its backticks
}

func (r Ref) String() string { return fmt.Sprintf("%s:%d: `%s`", r.Path, r.Line, r.Text) }

// Paragraphs calls f with each backticked span of the page and the line it
// starts on. Spans may continue onto the next line of their paragraph, as
// Markdown allows.
func (p Page) Paragraphs(f func(line int, span string, row []string)) {
	start := 0
	flush := func(end int) {
		if start >= end {
			return
		}
		var text strings.Builder
		var offsets []int
		for i := start; i < end; i++ {
			offsets = append(offsets, text.Len())
			text.WriteString(p.Lines[i])
			text.WriteByte(' ')
		}
		s := text.String()
		for _, m := range codeSpan.FindAllStringSubmatchIndex(s, -1) {
			line := start
			for i, off := range offsets {
				if off <= m[0] {
					line = start + i
				}
			}
			f(line+1, s[m[2]:m[3]], nil)
		}
	}
	for i, l := range p.Lines {
		t := strings.TrimSpace(l)
		// Table rows are paragraphs of their own: a span never crosses rows.
		if t == "" || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "```") {
			flush(i)
			start = i + 1
			if strings.HasPrefix(t, "|") {
				row := splitRow(t)
				for _, m := range codeSpan.FindAllStringSubmatch(l, -1) {
					f(i+1, m[1], row)
				}
			}
		}
	}
	flush(len(p.Lines))
}

// splitRow splits a Markdown table row into its cells, leaving pipes inside
// backticks alone.
func splitRow(row string) []string {
	var cells []string
	var cell strings.Builder
	code := false
	for _, r := range strings.Trim(row, "|") {
		switch {
		case r == '`':
			code = !code
		case r == '|' && !code:
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
			continue
		}
		cell.WriteRune(r)
	}
	return append(cells, strings.TrimSpace(cell.String()))
}

// identRef matches a quoted Go reference: pkg.Name, Type.Member,
// pkg.Type.Member, with an optional "()".
var identRef = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?(?:\(\))?$`)

// testRef matches a quoted test, benchmark, fuzz target or example name.
var testRef = regexp.MustCompile(`^(?:Test|Benchmark|Fuzz|Example)[A-Z_][A-Za-z0-9_]*$`)

// fileExt lists the name endings that make a span a file name, not Go.
var fileExt = map[string]bool{
	"go": true, "md": true, "csv": true, "tsv": true, "py": true, "png": true, "svg": true,
	"toml": true, "json": true, "jsonl": true, "parquet": true, "gz": true, "txt": true,
	"sh": true, "yaml": true, "yml": true, "html": true, "mod": true, "sum": true, "s": true,
}

// Identifiers returns the spans of pages that look like references to the
// module's Go code: a test, benchmark, fuzz target or example function, or
// a dotted name whose first part is one of its packages or type names. Anything else (the standard library, Python, file names) is
// not the module's and is left out.
func (c *Code) Identifiers(pages []Page) []Ref {
	types := map[string]bool{}
	for pkg, ts := range c.Types {
		for t := range ts {
			if c.Packages[pkg][t] {
				types[t] = true
			}
		}
	}
	var refs []Ref
	for _, p := range pages {
		p.Paragraphs(func(line int, span string, _ []string) {
			if testRef.MatchString(span) {
				refs = append(refs, Ref{p.Path, line, span})
				return
			}
			m := identRef.FindStringSubmatch(span)
			if m == nil {
				return
			}
			last := m[2]
			if m[3] != "" {
				last = m[3]
			}
			if fileExt[last] {
				return
			}
			if _, ok := c.Packages[m[1]]; ok || types[m[1]] {
				refs = append(refs, Ref{p.Path, line, span})
			}
		})
	}
	return refs
}

// Resolve returns why ref names nothing in the code, or "" when it does.
func (c *Code) Resolve(ref Ref) string {
	if testRef.MatchString(ref.Text) {
		for _, names := range c.Packages {
			if names[ref.Text] {
				return ""
			}
		}
		return "no package declares a function " + ref.Text
	}
	m := identRef.FindStringSubmatch(ref.Text)
	a, b, d := m[1], m[2], m[3]
	if names, ok := c.Packages[a]; ok {
		if d == "" {
			if names[b] {
				return ""
			}
			// A package name that is also a type name: Type.Member.
			if c.anyMember(a, b) {
				return ""
			}
			return fmt.Sprintf("package %s declares no %s", a, b)
		}
		if !names[b] {
			if strings.ToLower(b) == b {
				return "" // a Python module path such as crowdkit.metrics.data
			}
			return fmt.Sprintf("package %s declares no %s", a, b)
		}
		if !c.HasMember(a, b, d) {
			return fmt.Sprintf("%s.%s has no field or method %s", a, b, d)
		}
		return ""
	}
	if d != "" {
		return "" // Type.Field.Member: not checked
	}
	if ast.IsExported(a) && !ast.IsExported(b) {
		// An exported Go type with a lower-case member is Crowd-Kit's
		// Python class of the same name (`MMSR.skills_`, `GoldMajorityVote.fit`).
		return ""
	}
	if c.anyMember(a, b) {
		return ""
	}
	return fmt.Sprintf("no type %s (in %s) has a field or method %s", a, strings.Join(c.TypePackages(a), ", "), b)
}

func (c *Code) anyMember(typ, name string) bool {
	for _, pkg := range c.TypePackages(typ) {
		if c.HasMember(pkg, typ, name) {
			return true
		}
	}
	return false
}
