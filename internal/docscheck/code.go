// Package docscheck checks the project's Markdown against its code: every Go
// identifier that a page quotes must exist, every error message that a page
// quotes must be one the code can print, and docs/ must stay within its size
// budgets. The checks are its tests; this package holds what they share.
package docscheck

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Code is what the checks know of the module's Go source: its package names,
// the names each package declares at package level, the members (fields and
// methods) of each named type, and every string literal.
type Code struct {
	// Packages maps a package name to its package-level names.
	Packages map[string]map[string]bool
	// Types maps a package name and a type name to the type's members: its
	// fields, its methods and, for an interface, the methods it lists.
	Types map[string]map[string]map[string]bool
	// embeds maps a package name and a type name to the types it embeds.
	embeds map[string]map[string][]string
	// Strings holds every string literal of the module, unquoted.
	Strings []string
}

// ParseModule reads every Go file under root (test files included, since
// pages may name a test or a fuzz target), skipping testdata and hidden
// directories.
func ParseModule(root string) (*Code, error) {
	c := &Code{
		Packages: map[string]map[string]bool{},
		Types:    map[string]map[string]map[string]bool{},
		embeds:   map[string]map[string][]string{},
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || name == "python") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		c.addFile(f)
		return nil
	})
	return c, err
}

func (c *Code) addFile(f *ast.File) {
	pkg := strings.TrimSuffix(f.Name.Name, "_test")
	names := c.Packages[pkg]
	if names == nil {
		names = map[string]bool{}
		c.Packages[pkg] = names
		c.Types[pkg] = map[string]map[string]bool{}
		c.embeds[pkg] = map[string][]string{}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				names[d.Name.Name] = true
				continue
			}
			if recv := typeName(d.Recv.List[0].Type); recv != "" {
				c.member(pkg, recv)[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				case *ast.TypeSpec:
					names[s.Name.Name] = true
					c.addType(pkg, s)
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				c.Strings = append(c.Strings, s)
			}
		}
		return true
	})
}

func (c *Code) member(pkg, typ string) map[string]bool {
	m := c.Types[pkg][typ]
	if m == nil {
		m = map[string]bool{}
		c.Types[pkg][typ] = m
	}
	return m
}

func (c *Code) addType(pkg string, s *ast.TypeSpec) {
	m := c.member(pkg, s.Name.Name)
	var fields *ast.FieldList
	switch t := s.Type.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	}
	if fields == nil {
		return
	}
	for _, f := range fields.List {
		if len(f.Names) == 0 {
			if e := typeName(f.Type); e != "" {
				m[e] = true
				c.embeds[pkg][s.Name.Name] = append(c.embeds[pkg][s.Name.Name], e)
			}
			continue
		}
		for _, n := range f.Names {
			m[n.Name] = true
		}
	}
}

// typeName returns the name of a receiver or embedded type: T for T, *T,
// T[P], pkg.T.
func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return typeName(t.X)
	case *ast.IndexExpr:
		return typeName(t.X)
	case *ast.IndexListExpr:
		return typeName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}

// HasMember reports whether type typ of package pkg has the field or method
// name, directly or through a type it embeds from the same package.
func (c *Code) HasMember(pkg, typ, name string) bool {
	return c.hasMember(pkg, typ, name, 0)
}

func (c *Code) hasMember(pkg, typ, name string, depth int) bool {
	if c.Types[pkg][typ][name] {
		return true
	}
	if depth > 4 {
		return false
	}
	for _, e := range c.embeds[pkg][typ] {
		if c.hasMember(pkg, e, name, depth+1) {
			return true
		}
	}
	return false
}

// TypePackages returns the packages that declare a type named typ.
func (c *Code) TypePackages(typ string) []string {
	var pkgs []string
	for pkg, types := range c.Types {
		if _, ok := types[typ]; ok && c.Packages[pkg][typ] {
			pkgs = append(pkgs, pkg)
		}
	}
	return pkgs
}

// AddDependencies adds to c.Strings the string literals of the packages
// outside the module that the module's programs import (the standard
// library and the modules in go.mod): some messages the binary prints come
// from them, such as the flag parser's.
func (c *Code) AddDependencies(root string) error {
	cmd := exec.Command("go", "list", "-deps", "-f",
		`{{if or (not .Module) (not .Module.Main)}}{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{end}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		for _, name := range f[1:] {
			src, err := os.ReadFile(filepath.Join(f[0], name))
			if err != nil {
				return err
			}
			c.Strings = append(c.Strings, literals(src)...)
		}
	}
	return nil
}

// literals returns the string literals of a Go source file, unquoted.
func literals(src []byte) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var lits []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return lits
		}
		if tok == token.STRING {
			if u, err := strconv.Unquote(lit); err == nil {
				lits = append(lits, u)
			}
		}
	}
}

// pyString matches a one-line Python string literal.
var pyString = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`)

// AddPython adds to c.Strings the string literals of the Python front end
// under python/, whose messages wrap the binary's.
func (c *Code) AddPython(root string) error {
	return filepath.WalkDir(filepath.Join(root, "python"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".py") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range pyString.FindAllString(string(src), -1) {
			c.Strings = append(c.Strings, m[1:len(m)-1])
		}
		return nil
	})
}

// Page is one Markdown file, by its path relative to the module root, and
// its lines.
type Page struct {
	Path  string
	Lines []string
}

// ReadPages reads the Markdown files that the checks cover: README.md and
// ARCHITECTURE.md in the module root and every .md file under docs/.
func ReadPages(root string) ([]Page, error) {
	paths := []string{"README.md", "ARCHITECTURE.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var pages []Page
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			return nil, err
		}
		pages = append(pages, Page{Path: p, Lines: strings.Split(string(b), "\n")})
	}
	return pages, nil
}

// codeSpan matches one backticked span of a Markdown line.
var codeSpan = regexp.MustCompile("`([^`]+)`")

// Spans returns the backticked spans of a line.
func Spans(line string) []string {
	var spans []string
	for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
		spans = append(spans, m[1])
	}
	return spans
}
