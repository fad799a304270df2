package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
)

// releaseLiteral is a string literal that names a release.
var releaseLiteral = regexp.MustCompile(`^v?(\d+\.\d+\.\d+)$`)

// pickedReleases are string literals equal to a release edge that are not
// the edge: a release someone picked to run, keyed by file.
var pickedReleases = map[string][]string{
	"cmd/hwdemo/main.go":    {"2.1.33"}, // the default --cc-version to run
	"cmd/hookbench/ascc.go": {"2.1.33"}, // the band a benchmark row runs at
}

// TestNoHardCodedReleaseEdges: a release where the matrix changes something
// (a band edge, or the release just before one) is written once, in
// compat's table; code outside compat reads it from there (compat.Lookup,
// a constant, or the generated hooks/zz_release_table.go). Test files may
// name releases freely; comments are not read.
func TestNoHardCodedReleaseEdges(t *testing.T) {
	edges := map[string]string{}
	for _, b := range compat.Bands() {
		edges[b.String()] = "a band edge"
	}
	for _, f := range compat.Matrix {
		if f.Before != "" {
			edges[f.Before] = "the release before " + f.Name
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || rel == "compat") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || strings.HasPrefix(d.Name(), "zz_") {
			return nil
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			m := releaseLiteral.FindStringSubmatch(s)
			if m == nil {
				return true
			}
			found++
			why, isEdge := edges[m[1]]
			if isEdge && !contains(pickedReleases[rel], m[1]) {
				t.Errorf("%s: %q is hard-coded, and is %s in compat's table: read it from there", rel, s, why)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no release literal found outside compat: the scan reads nothing")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
