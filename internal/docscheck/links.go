package docscheck

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode"
)

// mdLink matches an inline Markdown link or image: its target is group 1.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// anchorTag matches an explicit anchor, <a id="...">.
var anchorTag = regexp.MustCompile(`<a id="([^"]+)">`)

// Slug returns the anchor GitHub gives a heading: lower case, punctuation
// other than hyphens and underscores dropped, spaces turned into hyphens.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Anchors returns the anchors of a page: its headings' slugs (numbered as
// GitHub numbers repeated ones) and its explicit anchors.
func (p Page) Anchors() map[string]bool {
	a := map[string]bool{}
	seen := map[string]int{}
	code := false
	for _, l := range p.Lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			code = !code
			continue
		}
		for _, m := range anchorTag.FindAllStringSubmatch(l, -1) {
			a[m[1]] = true
		}
		if code || !strings.HasPrefix(l, "#") {
			continue
		}
		s := Slug(strings.TrimLeft(l, "#"))
		if n := seen[s]; n > 0 {
			a[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			a[s] = true
		}
		seen[s]++
	}
	return a
}

// BrokenLinks returns the links of pages to another page (or a place in
// one) that does not exist: a relative link to a Markdown file missing from
// pages, or an anchor that the target page does not have. exists reports
// whether a relative path other than a page (an image, a script) exists.
func BrokenLinks(pages []Page, exists func(string) bool) []string {
	byPath := map[string]Page{}
	for _, p := range pages {
		byPath[p.Path] = p
	}
	anchors := map[string]map[string]bool{}
	var broken []string
	for _, p := range pages {
		for i, l := range p.Lines {
			for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				dest := p.Path
				if file != "" {
					dest = path.Clean(path.Join(path.Dir(p.Path), file))
				}
				where := fmt.Sprintf("%s:%d: (%s)", p.Path, i+1, target)
				q, ok := byPath[dest]
				if !ok {
					if strings.HasSuffix(dest, ".md") || !exists(dest) {
						broken = append(broken, where+": no file "+dest)
					}
					continue
				}
				if anchor == "" {
					continue
				}
				if anchors[dest] == nil {
					anchors[dest] = q.Anchors()
				}
				if !anchors[dest][anchor] {
					broken = append(broken, where+": "+dest+" has no heading or anchor #"+anchor)
				}
			}
		}
	}
	return broken
}
