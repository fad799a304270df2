package layout

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/hookwright/hookwright/"

// goList runs go list with args at the repository root.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// handlerImports are the imports of a handler package from outside
// internal/handlers that remain, each for a reason: the runtime registers
// the built-ins, and hwctl explain runs the guard itself to say what it
// would decide. State lives under internal/state, never in a handler. The
// list may only shrink.
var handlerImports = map[string][]string{
	"cmd/hookwright": {"internal/handlers/builtin"}, // the runtime registers the built-ins
}

// No package outside internal/handlers imports a handler, but for the
// ones handlerImports lists.
func TestNoHandlerImportsOutsideHandlers(t *testing.T) {
	for _, line := range goList(t, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg := strings.TrimPrefix(fields[0], module)
		if strings.HasPrefix(pkg, "internal/handlers/") {
			continue
		}
		for _, imp := range fields[1:] {
			rel, ok := strings.CutPrefix(imp, module)
			if !ok || !strings.HasPrefix(rel, "internal/handlers/") {
				continue
			}
			if !slices.Contains(handlerImports[pkg], rel) {
				t.Errorf("%s imports the handler package %s: move the state it needs into a package of its own", pkg, rel)
			}
		}
	}
}
