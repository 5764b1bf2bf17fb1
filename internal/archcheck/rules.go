package archcheck

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// Finding is one place in the source that breaks a rule.
type Finding struct {
	// Pos is the file, relative to the module root, and line.
	Pos string
	// Expr is the offending expression as written.
	Expr string
}

// String returns "Pos: Expr".
func (f Finding) String() string { return f.Pos + ": " + f.Expr }

// NilTests returns the comparisons X.field == nil and X.field != nil in
// the files for which keep returns true, test files included.
func (m Module) NilTests(field string, keep func(file string) bool) []Finding {
	var out []Finding
	m.inspect(keep, func(p *Package, file string, n ast.Node) {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || (b.Op != token.EQL && b.Op != token.NEQ) {
			return
		}
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			sel, ok := pair[0].(*ast.SelectorExpr)
			if id, isNil := pair[1].(*ast.Ident); ok && sel.Sel.Name == field && isNil && id.Name == "nil" {
				out = append(out, finding(p, b))
				return
			}
		}
	})
	return out
}

// stringFuncs are the functions of package strings whose second argument
// a name test would pass as a literal.
var stringFuncs = []string{"HasPrefix", "HasSuffix", "TrimPrefix", "TrimSuffix", "CutPrefix", "CutSuffix", "Contains", "EqualFold", "Index"}

// LiteralTests returns, in the non-test files for which keep returns
// true, the tests of a string against a literal that want reports true
// for: comparisons with == and !=, cases of a switch, and calls of the
// functions of package strings that test a prefix, a suffix or a part
// (strings.HasPrefix(name, "vb-")).
func (m Module) LiteralTests(want func(lit string) bool, keep func(file string) bool) []Finding {
	var out []Finding
	lit := func(e ast.Expr) bool {
		b, ok := e.(*ast.BasicLit)
		if !ok || b.Kind != token.STRING {
			return false
		}
		s, err := strconv.Unquote(b.Value)
		return err == nil && want(s)
	}
	m.inspect(nonTest(keep), func(p *Package, file string, n ast.Node) {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (lit(n.X) || lit(n.Y)) {
				out = append(out, finding(p, n))
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if lit(e) {
					out = append(out, finding(p, e))
				}
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || len(n.Args) != 2 || !slices.Contains(stringFuncs, sel.Sel.Name) {
				return
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "strings" && lit(n.Args[1]) {
				out = append(out, finding(p, n))
			}
		}
	})
	return out
}

// inspect calls f on every node of the files that keep accepts, in the
// order of their paths.
func (m Module) inspect(keep func(file string) bool, f func(p *Package, file string, n ast.Node)) {
	for _, path := range m.Paths() {
		p := m[path]
		files := make([]string, 0, len(p.Files))
		for name := range p.Files {
			files = append(files, name)
		}
		slices.Sort(files)
		for _, name := range files {
			if !keep(name) {
				continue
			}
			ast.Inspect(p.Files[name], func(n ast.Node) bool {
				if n != nil {
					f(p, name, n)
				}
				return true
			})
		}
	}
}

// finding returns the Finding of the node n of package p.
func finding(p *Package, n ast.Node) Finding {
	pos := p.Fset.Position(n.Pos())
	return Finding{Pos: pos.Filename + ":" + strconv.Itoa(pos.Line), Expr: exprString(p.Fset, n)}
}

// exprString returns the source text of n, or its type if it does not
// print.
func exprString(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, n); err != nil {
		return "?"
	}
	return b.String()
}

// isContext reports whether the type expression e is context.Context.
func isContext(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Context" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "context"
}

// ContextFields returns the exported struct fields of type
// context.Context in the non-test files for which keep returns true: a
// context is a function's first parameter, not a field.
func (m Module) ContextFields(keep func(file string) bool) []Finding {
	var out []Finding
	m.inspect(nonTest(keep), func(p *Package, file string, n ast.Node) {
		st, ok := n.(*ast.StructType)
		if !ok {
			return
		}
		for _, f := range st.Fields.List {
			if !isContext(f.Type) {
				continue
			}
			for _, name := range f.Names {
				if name.IsExported() {
					out = append(out, finding(p, name))
				}
			}
			if len(f.Names) == 0 { // an embedded context.Context
				out = append(out, finding(p, f.Type))
			}
		}
	})
	return out
}

// ContextNotFirst returns the functions, methods and function literals of
// the non-test files for which keep returns true that take a
// context.Context other than as their first parameter.
func (m Module) ContextNotFirst(keep func(file string) bool) []Finding {
	var out []Finding
	m.inspect(nonTest(keep), func(p *Package, file string, n ast.Node) {
		ft, ok := n.(*ast.FuncType)
		if !ok || ft.Params.NumFields() == 0 {
			return
		}
		i := 0
		for _, f := range ft.Params.List {
			k := max(len(f.Names), 1)
			if isContext(f.Type) && i+k > 1 {
				out = append(out, finding(p, f.Type))
			}
			i += k
		}
	})
	return out
}

// ExportedNames returns the declarations of exported types, functions,
// methods, struct fields and interface methods in the non-test files for
// which keep returns true whose name bad reports true for.
func (m Module) ExportedNames(bad func(name string) bool, keep func(file string) bool) []Finding {
	var out []Finding
	check := func(p *Package, id *ast.Ident) {
		if id != nil && id.IsExported() && bad(id.Name) {
			out = append(out, finding(p, id))
		}
	}
	m.inspect(nonTest(keep), func(p *Package, file string, n ast.Node) {
		switch n := n.(type) {
		case *ast.TypeSpec:
			check(p, n.Name)
		case *ast.FuncDecl:
			check(p, n.Name)
		case *ast.Field:
			for _, id := range n.Names {
				check(p, id)
			}
		}
	})
	return out
}

// nonTest returns a filter that keeps the non-test files that keep keeps.
func nonTest(keep func(file string) bool) func(string) bool {
	return func(file string) bool { return !strings.HasSuffix(file, "_test.go") && keep(file) }
}
