// Package archcheck reads the module's Go source to check the rules of its
// layout that ARCHITECTURE.md states: which packages may import which
// (low-level packages import no higher one), how large a package may grow,
// and that only the registry of package model asks for a model by its name
// or tests a result's Params for nil. Its tests are the checks; the
// functions here load what they read.
package archcheck

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Package is one directory of Go files of the module.
type Package struct {
	// Path is the import path relative to the module, such as "model/vb";
	// "." for the module root.
	Path string
	// Imports lists the module-relative import paths of the module's
	// packages that the non-test files import, sorted.
	Imports []string
	// Lines is the number of lines of the non-test files.
	Lines int
	// Files are the parsed files, test files included, by their path
	// relative to the module root with forward slashes.
	Files map[string]*ast.File
	// Fset holds the positions of Files.
	Fset *token.FileSet
}

// Module is the module's packages by Path.
type Module map[string]*Package

// Load parses every Go file under root, the module root, except those in
// directories named testdata or python or starting with a dot.
func Load(root string) (Module, error) {
	modPath, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	m := Module{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "python" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, rel, src, parser.ParseComments)
		if err != nil {
			return err
		}
		dir := pathDir(rel)
		p := m[dir]
		if p == nil {
			p = &Package{Path: dir, Files: map[string]*ast.File{}, Fset: fset}
			m[dir] = p
		}
		p.Files[rel] = f
		if strings.HasSuffix(name, "_test.go") {
			return nil
		}
		p.Lines += bytes.Count(src, []byte{'\n'})
		for _, imp := range f.Imports {
			ip := strings.Trim(imp.Path.Value, `"`)
			if ip == modPath {
				ip = "."
			} else if r, ok := strings.CutPrefix(ip, modPath+"/"); ok {
				ip = r
			} else {
				continue
			}
			if !slices.Contains(p.Imports, ip) {
				p.Imports = append(p.Imports, ip)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range m {
		slices.Sort(p.Imports)
	}
	return m, nil
}

// Deps returns the module's packages that path imports directly or
// indirectly through non-test files, sorted.
func (m Module) Deps(path string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		pkg := m[p]
		if pkg == nil {
			return
		}
		for _, ip := range pkg.Imports {
			if !seen[ip] {
				seen[ip] = true
				walk(ip)
			}
		}
	}
	walk(path)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Paths returns the paths of the module's packages, sorted.
func (m Module) Paths() []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Under reports whether the package path is prefix or inside it, by whole
// path elements: "model/vb" is under "model", "modelx" is not.
func Under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// pathDir returns the module-relative directory of the file rel.
func pathDir(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return "."
}

// modulePath returns the module path that the go.mod file at path
// declares.
func modulePath(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if mod, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(mod), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s: no module line", path)
}

// parseOne returns a module of the one file src at the module-relative
// path rel.
func parseOne(rel, src string) (Module, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	dir := pathDir(rel)
	return Module{dir: {Path: dir, Files: map[string]*ast.File{rel: f}, Fset: fset}}, nil
}
