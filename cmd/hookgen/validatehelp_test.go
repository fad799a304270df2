package main

import (
	"path/filepath"
	"strings"
	"testing"

	hwcli "github.com/hookwright/hookwright/internal/cli"
)

// hookgen validate --help teaches: the shared exit codes, and examples
// whose shown output is what the command prints (run from the repository
// root, output cut at "...").
func TestValidateHelpExamplesAreReal(t *testing.T) {
	e, out, _ := fakeEnv(t)
	if code := hookgen(t, e, "validate", "--help"); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	help := out.String()
	for _, l := range strings.Split(strings.TrimSpace(hwcli.ExitCodesHelp), "\n") {
		if !strings.Contains(help, strings.TrimSpace(l)) {
			t.Errorf("validate --help lacks the exit codes line %q", strings.TrimSpace(l))
		}
	}
	if !strings.Contains(help, "EXIT CODES") {
		t.Errorf("validate --help lacks the exit codes:\n%s", help)
	}
	lines := strings.Split(help, "\n")
	examples := 0
	for i, l := range lines {
		cmd, ok := strings.CutPrefix(strings.TrimSpace(l), "hookgen validate ")
		if !ok || i+1 >= len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[i+1]), "rejected ") {
			continue
		}
		examples++
		shown, _, _ := strings.Cut(strings.TrimSpace(lines[i+1]), "...")
		args := strings.Fields(cmd)
		for j, a := range args {
			if strings.HasSuffix(a, ".json") {
				args[j] = filepath.Join("..", "..", a)
			}
		}
		e, got, gotErr := fakeEnv(t)
		hookgen(t, e, append([]string{"validate"}, args...)...)
		if !strings.Contains(got.String()+gotErr.String(), shown) {
			t.Errorf("example %q shows %q; it prints:\n%s%s", cmd, shown, got, gotErr)
		}
	}
	if examples == 0 {
		t.Errorf("validate --help has no example with its output:\n%s", help)
	}
}
