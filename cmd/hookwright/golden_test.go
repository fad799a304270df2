package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/hookwright/hookwright/hooks/hookstest"
	"github.com/hookwright/hookwright/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/cases/*.txtar")

// binPath is the hookwright binary built once for the golden cases.
var binPath string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "hookwright-golden")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "hookwright")
	if runtime.GOOS == "windows" {
		binPath += ".exe"
	}
	if err := testkit.BuildFile(".", binPath, testkit.Options{Flags: []string{"-buildvcs=false"}}); err != nil {
		fmt.Fprintln(os.Stderr, "building hookwright:", err)
		os.Exit(1)
	}
	code := testkit.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// A golden case is one txtar file. Its comment is the description. Sections:
//
//	args        the command line after the binary, as Claude Code's hooks.json writes it
//	stdin       the event JSON (omit for empty stdin)
//	stdin-open  present: stdin is a pipe that is never closed
//	env         KEY=VALUE lines added to the environment
//	file:PATH   a file created in the project folder before the run
//	stdout      expected stdout ($PROJECT stands for the project folder)
//	stderr      expected stderr
//	exit        expected exit code
//
// The binary runs through `sh -c` with CLAUDE_PROJECT_DIR set to a fresh
// project folder, exactly as Claude Code runs a hook, in an environment of
// PATH and a temporary HOME only (plus a generous stdin deadline), through
// hookstest.Exec. -update rewrites stdout, stderr and exit.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "cases", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no golden cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runCase(t, file)
		})
	}
}

func runCase(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sec := map[string][]byte{}
	files := map[string]string{}
	for _, f := range ar.Files {
		if path, ok := strings.CutPrefix(f.Name, "file:"); ok {
			files[path] = string(f.Data)
			continue
		}
		sec[f.Name] = f.Data
	}
	// Through the helper every plugin's tests use: sh -c in the project,
	// a hermetic environment (PATH, a fresh HOME, CLAUDE_PROJECT_DIR, and
	// the case's env), so running the tests inside a Claude Code session
	// (CLAUDE_*, TMUX_PANE, AI_AGENT ...) cannot change their result. The
	// stdin deadline is raised from 1 s: on a loaded machine the pipe may
	// take longer than that to deliver (a case's own env may lower it).
	project := t.TempDir()
	call := hookstest.Call{Args: strings.TrimSpace(string(sec["args"])), Stdin: string(sec["stdin"]), Files: files, Project: project,
		Env: []string{"HOOKWRIGHT_STDIN_TIMEOUT=10s"}}
	for _, kv := range strings.Split(strings.TrimSpace(string(sec["env"])), "\n") {
		if kv != "" {
			call.Env = append(call.Env, kv)
		}
	}
	_, call.StdinOpen = sec["stdin-open"]
	r := hookstest.Exec(t, binPath, call)
	stdout, stderr, code := r.Stdout, r.Stderr, r.Code
	got := map[string]string{
		"stdout": normalize(stdout, project),
		"stderr": normalize(stderr, project),
		"exit":   strconv.Itoa(code) + "\n",
	}
	if *update {
		for i, f := range ar.Files {
			if v, ok := got[f.Name]; ok {
				ar.Files[i].Data = []byte(v)
				delete(got, f.Name)
			}
		}
		for _, name := range []string{"stdout", "stderr", "exit"} {
			if v, ok := got[name]; ok {
				ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(v)})
			}
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, name := range []string{"exit", "stdout", "stderr"} {
		if want := string(sec[name]); got[name] != want {
			t.Errorf("%s:\n got: %q\nwant: %q", name, got[name], want)
		}
	}
	if t.Failed() {
		t.Logf("case: %s", strings.TrimSpace(string(ar.Comment)))
	}
}

var tsPattern = regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`)

// normalize makes output independent of the run's folder and date.
func normalize(s, project string) string {
	s = strings.ReplaceAll(s, project, "$PROJECT")
	return tsPattern.ReplaceAllString(s, "$$DATE")
}
