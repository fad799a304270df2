package docs

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/hookwright/hookwright"

// goList runs go list at the repository and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Fields(string(out))
}

// layoutRows reads the table under "## Layout" in docs/architecture.md:
// each row's folder cell and holds cell.
func layoutRows(t *testing.T) [][2]string {
	t.Helper()
	text := read(t, "docs/architecture.md")
	i := strings.Index(text, "\n## Layout")
	if i < 0 {
		t.Fatal("docs/architecture.md has no ## Layout")
	}
	var rows [][2]string
	for _, l := range strings.Split(text[i:], "\n")[2:] {
		if strings.HasPrefix(l, "## ") {
			break
		}
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if !strings.HasPrefix(l, "|") || len(cells) != 2 || strings.HasPrefix(cells[0], "---") || cells[0] == "folder" {
			continue
		}
		rows = append(rows, [2]string{cells[0], cells[1]})
	}
	if len(rows) < 10 {
		t.Fatalf("the layout table has %d rows", len(rows))
	}
	return rows
}

var ticked = regexp.MustCompile("`([^`]+)`")
var ident = regexp.MustCompile(`^[a-z][a-z0-9]*(/[a-z][a-z0-9]*)?$`)

// pkgPath is a package path a holds cell names: internal/x or cmd/x/y.
var pkgPath = regexp.MustCompile(`^(internal|cmd)(/[a-z][a-z0-9]*)+$`)

// TestLayoutTable holds the layout table of docs/architecture.md to the
// code: every package of the module is named by a row (its folder, a
// folder above it, or, in a row for "X/…", its name under X); everything
// the table names exists; the packages a command's row names are ones the
// command imports; and a row that says "standard library and this module
// only" is true of its command.
func TestLayoutTable(t *testing.T) {
	rows := layoutRows(t)
	named := map[string]string{} // package path -> the row that names it
	for _, r := range rows {
		for _, m := range ticked.FindAllStringSubmatch(r[0], -1) {
			folder := strings.TrimSuffix(m[1], "/")
			if parent, ok := strings.CutSuffix(folder, "/…"); ok {
				for _, w := range ticked.FindAllStringSubmatch(r[1], -1) {
					if ident.MatchString(w[1]) {
						named[parent+"/"+w[1]] = r[0]
					}
				}
				continue
			}
			named[folder] = r[0]
		}
		for _, w := range ticked.FindAllStringSubmatch(r[1], -1) {
			if pkgPath.MatchString(w[1]) {
				named[w[1]] = r[0]
			}
		}
	}
	var pkgs []string
	for _, p := range goList(t, "./...") {
		pkgs = append(pkgs, strings.TrimPrefix(strings.TrimPrefix(p, module), "/"))
	}
	for _, p := range pkgs {
		covered := false
		for q := p; q != "." && q != ""; q = parentOf(q) {
			if named[q] != "" {
				covered = true
				break
			}
		}
		if !covered {
			t.Errorf("package %s is in no row of the layout table (docs/architecture.md): add it", p)
		}
	}
	for n, row := range named {
		exists := slices.ContainsFunc(pkgs, func(p string) bool { return p == n || strings.HasPrefix(p, n+"/") })
		if !exists {
			t.Errorf("the layout table's row %s names %s, which is no package of the module", row, n)
		}
	}
	for _, r := range rows {
		cmds := ticked.FindAllStringSubmatch(r[0], -1)
		if len(cmds) != 1 || !strings.HasPrefix(cmds[0][1], "cmd/") {
			continue
		}
		cmd := cmds[0][1]
		deps := goList(t, "-deps", "-f", "{{if .Standard}}std {{end}}{{.ImportPath}}", "./"+cmd)
		for _, w := range ticked.FindAllStringSubmatch(r[1], -1) {
			if strings.HasPrefix(w[1], "internal/") && !slices.Contains(deps, module+"/"+w[1]) {
				t.Errorf("the layout table says %s holds %s, but %s does not import it", cmd, w[1], cmd)
			}
		}
		if strings.Contains(r[1], "standard library and this module only") {
			for i, d := range deps {
				if d == "std" || i > 0 && deps[i-1] == "std" {
					continue
				}
				if !strings.HasPrefix(d, module) {
					t.Errorf("the layout table says %s imports the standard library and this module only, but it imports %s", cmd, d)
				}
			}
		}
	}
	// The diagram's claim about the public API: of internal/, hooks (and
	// hookstest) import only the packages it names, and it names each.
	allowed := []string{"jsonscan", "termsafe", "runtime/safepath", "runtime/tasklist", "runtime/teams", "testkit"}
	doc := read(t, "docs/architecture.md")
	if !strings.Contains(doc, "of internal/, hooks imports only") {
		t.Error("docs/architecture.md no longer says what hooks imports from internal/")
	}
	for _, a := range allowed {
		if base := a[strings.LastIndex(a, "/")+1:]; !strings.Contains(doc, base) {
			t.Errorf("docs/architecture.md does not name internal/%s, which hooks may import", a)
		}
	}
	for _, d := range goList(t, "-deps", "./hooks/...") {
		rest, ok := strings.CutPrefix(d, module+"/internal/")
		if ok && !slices.Contains(allowed, rest) {
			t.Errorf("hooks imports %s, which docs/architecture.md does not allow it", d)
		}
	}
}

func parentOf(p string) string {
	i := strings.LastIndex(p, "/")
	if i < 0 {
		return ""
	}
	return p[:i]
}
