package hookstest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestYourOwnPluginPage builds the plugin docs/your-own-plugin.md shows, as
// an author would: its Go code (the handler's main.go and its test, with
// the rules.go of hookgen new's template that the page names) in a module
// of its own outside this repository, with a replace to this
// checkout, then go vet, go test and go build there. The page is the
// author's only guide; its code must work as written.
func TestYourOwnPluginPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module outside the repository")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, "docs", "your-own-plugin.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(page, -1)
	var mainGo, testGo []byte
	for _, b := range blocks {
		switch {
		case regexp.MustCompile(`func main\(\)`).Match(b[1]):
			mainGo = b[1]
		case regexp.MustCompile(`func Test`).Match(b[1]):
			testGo = b[1]
		}
	}
	if mainGo == nil || testGo == nil {
		t.Fatalf("the page has no main.go or no test in its Go blocks (%d blocks)", len(blocks))
	}
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", mainGo)
	write("main_test.go", testGo)
	// The page shows the core of hookgen new go's handler; the helpers it
	// names (runsCommand, deliverables, checkDeliverables) are the
	// template's rules.go, as hookgen new writes it (its golden file).
	rules, err := os.ReadFile(filepath.Join(root, "cmd", "hookgen", "testdata", "new", "go", "cmd", "deliverables", "rules.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	write("rules.go", rules)
	write("go.mod", []byte("module example.com/deliverables\n\ngo 1.26\n\nrequire github.com/hookwright/hookwright v0.0.0\n\nreplace github.com/hookwright/hookwright => "+root+"\n"))
	for _, args := range [][]string{{"mod", "tidy"}, {"vet", "."}, {"test", "-count=1", "."}, {"build", "-trimpath", "-o", filepath.Join(dir, "bin", "deliverables"), "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %v in the author's module: %v\n%s", args, err, out)
		}
	}
}
