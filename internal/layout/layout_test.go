// Package layout holds the tests that keep the repository's public
// surface honest: every importable package outside internal/ and cmd/ is
// one a plugin author imports or a README/docs page shows, each has a doc
// comment that says who it is for, and no exported API of them exposes a
// type from internal/ (an author could not name it).
package layout

import (
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// publicPackages returns the repository-relative folders of the importable
// packages outside internal/ and cmd/, and checks their doc comments.
func publicPackages(t *testing.T, root string) []string {
	t.Helper()
	var public []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		name := d.Name()
		if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		if rel == "internal" || rel == "cmd" || strings.HasSuffix(filepath.ToSlash(rel), "/internal") {
			return filepath.SkipDir
		}
		if rel != "." {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		docs := map[string]bool{} // package name -> has a doc comment
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(path, n), nil, parser.ParseComments|parser.PackageClauseOnly)
			if err != nil {
				t.Errorf("%s: %v", filepath.Join(rel, n), err)
				continue
			}
			docs[f.Name.Name] = docs[f.Name.Name] || (f.Doc != nil && strings.TrimSpace(f.Doc.Text()) != "")
		}
		for pname, doc := range docs {
			if pname == "main" {
				continue
			}
			public = append(public, filepath.ToSlash(rel))
			if !doc {
				t.Errorf("package %s (%s) has no doc comment saying who it is for", pname, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(public)
	return public
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s", root)
	}
	return root
}

// Public means an author imports it or a page shows it: every importable
// package outside internal/ and cmd/ is named (by its folder, as
// `hooks/hookstest`, or by its import path) in the README or a page under
// docs/. A package that only serves another belongs under internal/.
func TestPublicPackagesAreShown(t *testing.T) {
	root := repoRoot(t)
	public := publicPackages(t, root)
	if len(public) == 0 {
		t.Fatal("no public package found: the walk reads nothing")
	}
	var pages strings.Builder
	for _, glob := range []string{"README.md", filepath.Join("docs", "*.md"), filepath.Join("docs", "*", "*.md")} {
		files, _ := filepath.Glob(filepath.Join(root, glob))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			pages.Write(data)
		}
	}
	text := pages.String()
	for _, p := range public {
		if !strings.Contains(text, "`"+p+"`") && !strings.Contains(text, "`"+p+"/`") && !strings.Contains(text, module+p) {
			t.Errorf("package %s is importable but no README or docs page shows it: show it to authors, or move it under internal/", p)
		}
	}
	t.Logf("public packages: %s", strings.Join(public, ", "))
}

// No exported API of a public package names a type from internal/: a
// plugin author could hold such a value but never name its type, and
// every change to it would break them unannounced. Checked on the
// type-checked packages: exported functions and methods (parameters and
// results), exported variables and constants, and exported types (their
// exported fields, embedded types and exported methods).
func TestNoInternalTypeInPublicAPI(t *testing.T) {
	root := repoRoot(t)
	var patterns []string
	for _, p := range publicPackages(t, root) {
		patterns = append(patterns, "./"+p)
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax, Dir: root}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, pkg := range pkgs {
		for _, e := range pkg.Errors {
			t.Errorf("%s: %v", pkg.PkgPath, e)
		}
		if pkg.Types == nil {
			continue
		}
		scope := pkg.Types.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if !obj.Exported() {
				continue
			}
			checked++
			w := &walker{seen: map[types.Type]bool{}}
			switch o := obj.(type) {
			case *types.TypeName:
				named, ok := o.Type().(*types.Named)
				if !ok {
					w.walk(o.Type(), name)
					continue
				}
				w.walkStruct(named.Underlying(), name)
				if iface, ok := named.Underlying().(*types.Interface); ok {
					for i := 0; i < iface.NumMethods(); i++ {
						if m := iface.Method(i); m.Exported() {
							w.walk(m.Type(), name+"."+m.Name())
						}
					}
				}
				if _, isStruct := named.Underlying().(*types.Struct); !isStruct {
					if _, isIface := named.Underlying().(*types.Interface); !isIface {
						w.walk(named.Underlying(), name)
					}
				}
				for i := 0; i < named.NumMethods(); i++ {
					if m := named.Method(i); m.Exported() {
						w.walk(m.Type(), name+"."+m.Name())
					}
				}
			default:
				w.walk(obj.Type(), name)
			}
			for _, where := range w.found {
				t.Errorf("%s.%s", pkg.PkgPath, where)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no exported name checked: the test reads nothing")
	}
}

// walker finds internal types reachable from an exported declaration.
type walker struct {
	seen  map[types.Type]bool
	found []string
}

// isInternal reports whether path is an internal package of any module.
func isInternal(path string) bool {
	return strings.Contains(path, "/internal/") || strings.HasSuffix(path, "/internal")
}

// walkStruct looks at the exported and embedded fields of a struct type.
func (w *walker) walkStruct(t types.Type, where string) {
	st, ok := t.(*types.Struct)
	if !ok {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Exported() || f.Embedded() {
			w.walk(f.Type(), where+"."+f.Name())
		}
	}
}

func (w *walker) walk(t types.Type, where string) {
	if t == nil || w.seen[t] {
		return
	}
	w.seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if p := t.Obj().Pkg(); p != nil && isInternal(p.Path()) {
			w.found = append(w.found, where+" exposes "+p.Path()+"."+t.Obj().Name())
			return
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			w.walk(t.TypeArgs().At(i), where)
		}
	case *types.Alias:
		w.walk(types.Unalias(t), where)
	case *types.Pointer:
		w.walk(t.Elem(), where)
	case *types.Slice:
		w.walk(t.Elem(), where)
	case *types.Array:
		w.walk(t.Elem(), where)
	case *types.Map:
		w.walk(t.Key(), where)
		w.walk(t.Elem(), where)
	case *types.Chan:
		w.walk(t.Elem(), where)
	case *types.Signature:
		for i := 0; i < t.Params().Len(); i++ {
			w.walk(t.Params().At(i).Type(), where)
		}
		for i := 0; i < t.Results().Len(); i++ {
			w.walk(t.Results().At(i).Type(), where)
		}
	case *types.Struct:
		w.walkStruct(t, where)
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			w.walk(t.Method(i).Type(), where)
		}
	}
}
