// Package layout holds the test that keeps the repository's public surface
// small: outside internal/ and cmd/, at most six importable packages, each
// with a doc comment that says who it is for.
package layout

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxPublic is the most importable packages allowed outside internal/ and
// cmd/: every one of them is API someone will import and we will keep.
const maxPublic = 6

func TestPublicPackages(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s", root)
	}
	var public []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
		if rel == "internal" || rel == "cmd" {
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
	if len(public) > maxPublic {
		t.Errorf("%d importable packages outside internal/ and cmd/ (at most %d): %s; new code goes under internal/",
			len(public), maxPublic, strings.Join(public, ", "))
	}
	t.Logf("public packages: %s", strings.Join(public, ", "))
}
