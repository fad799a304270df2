package layout

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// makeRun runs make with the repository's Makefile in a scratch folder,
// with a PATH whose go only records its arguments (one line per run in
// go.args), and returns the exit code, stderr and what go was asked.
func makeRun(t *testing.T, args ...string) (code int, stderr, goArgs, dir string) {
	t.Helper()
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	dir = t.TempDir()
	// The Makefile and the one file it reads, plugin.json, in a scratch
	// folder: whatever a value might run, it runs there.
	for _, rel := range []string{"Makefile", filepath.Join("plugin", ".claude-plugin", "plugin.json")} {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// The stand-in for go writes its arguments, one per line, then a
	// blank line, to go.args in the folder it runs in.
	stub := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> go.args\necho >> go.args\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mk, append([]string{"--no-print-directory"}, args...)...)
	cmd.Dir = dir
	path := bin
	for _, tool := range []string{"sh", "sed", "mkdir", "printf", "echo", "touch", "cat", "rm"} {
		if p, err := exec.LookPath(tool); err == nil && !strings.Contains(path, filepath.Dir(p)) {
			path += string(os.PathListSeparator) + filepath.Dir(p)
		}
	}
	cmd.Env = []string{"PATH=" + path, "HOME=" + dir}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "go.args"))
	return code, errb.String(), string(b), dir
}

// TestMakefileRunsNoVariable: every variable a user sets that reaches a
// recipe is checked before anything runs and never run itself. Each
// attack would create the file "marker" in the scratch folder if the
// shell or make ran it; the Makefile must refuse the value in one line
// that names the variable, and run nothing.
func TestMakefileRunsNoVariable(t *testing.T) {
	targets := map[string]string{"CC_VERSION": "demo", "KEEP": "demo", "BENCHTIME": "bench-budgets", "BENCH_LINES": "bench-store",
		"NPM_OUT": "npm", "BUILDVCS": "build", "TOOLS_PLATFORMS": "plugin-tools"}
	attacks := []string{
		"2.1.33;touch marker",
		"2.1.33 && touch marker",
		"2.1.33|touch marker",
		"2.1.33\ntouch marker",
		"$(shell touch marker)",
		"$$(touch marker)",
		"`touch marker`",
		"2.1.33 -keep",
		"linux/amd64;touch marker",
	}
	for name, target := range targets {
		for _, v := range attacks {
			code, stderr, goArgs, dir := makeRun(t, target, name+"="+v)
			if _, err := os.Stat(filepath.Join(dir, "marker")); err == nil {
				t.Errorf("make %s %s=%q ran the value: the marker exists", target, name, v)
			}
			if goArgs != "" {
				t.Errorf("make %s %s=%q ran go with %q", target, name, v, goArgs)
			}
			if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, name) || !strings.Contains(stderr, "nothing was run") {
				t.Errorf("make %s %s=%q: exit %d, stderr %q; want one line naming %s", target, name, v, code, stderr, name)
			}
		}
	}
}

// TestMakefileHandsValuesOn: good values reach go as single words, and
// the two spellings of a release both work.
func TestMakefileHandsValuesOn(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"demo"}, "run\n./cmd/hwdemo\n-cc-version\n2.1.33\n\n"},
		{[]string{"demo", "CC_VERSION=v2.1.330", "KEEP=1"}, "run\n./cmd/hwdemo\n-cc-version\nv2.1.330\n-keep\n\n"},
		{[]string{"demo", "KEEP=0"}, "run\n./cmd/hwdemo\n-cc-version\n2.1.33\n\n"},
	} {
		code, stderr, goArgs, _ := makeRun(t, c.args...)
		if code != 0 || goArgs != c.want {
			t.Errorf("make %v: exit %d, go got %q, want %q; stderr %q", c.args, code, goArgs, c.want, stderr)
		}
	}
}
