package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/hookwright/hookwright/hooks/hookstest"
	"github.com/hookwright/hookwright/manifests"
)

// update rewrites the golden trees of hookgen new (testdata/new/<lang>)
// and the JavaScript template's recorded payloads.
var update = flag.Bool("update", false, "rewrite testdata/new and the js template's test/payloads.json")

// readTree reads every file under dir: slash path to contents, and the
// paths of the executable ones.
func readTree(t *testing.T, dir string) (map[string]string, []string) {
	t.Helper()
	files := map[string]string{}
	var exec []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[rel] = string(b)
		if fi, err := d.Info(); err == nil && fi.Mode()&0o111 != 0 {
			exec = append(exec, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(exec)
	return files, exec
}

// newTree runs hookgen new with args and returns the exit code, stdout
// and stderr.
func newTree(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	e, out, errb := fakeEnv(t)
	code := hookgen(t, e, append([]string{"new"}, args...)...)
	return code, out.String(), errb.String()
}

// goldenDir is where the golden tree of a language lives; the files end in
// .golden so that no tool reads them as the sources they are.
func goldenDir(lang string) string { return filepath.Join("testdata", "new", lang) }

// TestNewGolden: hookgen new writes, for a plugin named deliverables with
// the defaults, exactly the golden tree (go test -run TestNewGolden
// -update rewrites it), with the launcher and release.sh executable.
func TestNewGolden(t *testing.T) {
	for _, lang := range []string{"go", "js"} {
		t.Run(lang, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "deliverables")
			code, out, errb := newTree(t, lang, "deliverables", "--dir", dir)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errb)
			}
			got, exec := readTree(t, dir)
			wantExec := map[string][]string{"go": {"plugin/bin/deliverables", "release.sh"}, "js": nil}[lang]
			if !reflect.DeepEqual(exec, wantExec) {
				t.Errorf("executable files %q, want %q", exec, wantExec)
			}
			for p := range got {
				if !strings.Contains(out, "   "+p+"\n") {
					t.Errorf("stdout does not list %s:\n%s", p, out)
				}
			}
			// Unpublished, and no local hookwright given: say so, with the way out.
			if !strings.Contains(errb, "hookwright has no published release yet") {
				t.Errorf("stderr does not say the release is unpublished:\n%s", errb)
			}
			golden := goldenDir(lang)
			if *update {
				os.RemoveAll(golden)
				for p, data := range got {
					path := filepath.Join(golden, filepath.FromSlash(p)+".golden")
					os.MkdirAll(filepath.Dir(path), 0o755)
					if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			want, _ := readTree(t, golden)
			for p, data := range want {
				p = strings.TrimSuffix(p, ".golden")
				if got[p] != data {
					t.Errorf("%s differs from %s (go test ./cmd/hookgen -run TestNewGolden -update, then review the diff)", p, filepath.Join(golden, p+".golden"))
				}
				delete(got, p)
			}
			for p := range got {
				t.Errorf("%s is not in the golden tree %s", p, golden)
			}
		})
	}
}

// jsPayloads are the recorded events the JavaScript template's tests run
// on, in its test/payloads.json.
var jsPayloads = [][2]string{
	{"2.1.25", "PostToolUse-TaskUpdate-completed"},
	{"2.1.25", "PostToolUse-TaskUpdate-in_progress"},
	{"2.1.33", "PostToolUse-TaskUpdate-completed"},
	{"2.1.33", "PreToolUse-Bash"},
	{"2.1.33", "TaskCompleted"},
	{"2.1.330", "TaskCompleted"},
}

// TestNewJSPayloadsAreRecorded: the JavaScript template's events are
// hookstest's recorded payloads, not a copy that can drift (-update
// rewrites them from hookstest).
func TestNewJSPayloadsAreRecorded(t *testing.T) {
	type call struct {
		Input      json.RawMessage   `json:"input"`
		Home       map[string]string `json:"home"`
		Transcript string            `json:"transcript,omitempty"`
		Env        []string          `json:"env,omitempty"`
	}
	want := map[string]call{}
	for _, rn := range jsPayloads {
		p := hookstest.Recorded(rn[0], rn[1])
		want[rn[0]+"/"+rn[1]] = call{Input: json.RawMessage(p.JSON), Home: p.Home, Transcript: p.Transcript, Env: p.Env}
	}
	b, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	path := filepath.Join("newplugin", "js", "test", "payloads.json")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, b) {
		t.Errorf("%s is not hookstest's recorded payloads (%v): go test ./cmd/hookgen -run TestNewJSPayloadsAreRecorded -update", path, err)
	}
}

// TestNewGoVersionIsHookwrights: a new plugin's go line is hookwright's
// own, which a module requiring hookwright needs at least.
func TestNewGoVersionIsHookwrights(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax("go.mod", b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Go == nil || f.Go.Version != newGoVersion {
		t.Errorf("newGoVersion = %s, hookwright's go.mod says %v", newGoVersion, f.Go)
	}
}

// TestNewReleaseMachineryIsHookwrights: the Go template's release uses
// what hookwright's own does: the launcher (byte for byte), the SBOM
// tool at the same version, the reproducible build flags.
func TestNewReleaseMachineryIsHookwrights(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	if code, _, errb := newTree(t, "go", "deliverables", "--dir", dir); code != exitOK {
		t.Fatal(errb)
	}
	files, _ := readTree(t, dir)
	launcher, err := os.ReadFile(filepath.Join("..", "..", "plugin", "bin", "hookwright"))
	if err != nil {
		t.Fatal(err)
	}
	if files["plugin/bin/deliverables"] != string(launcher) {
		t.Error("the new plugin's launcher is not plugin/bin/hookwright")
	}
	if copied, err := os.ReadFile("launcher.sh"); err != nil || !bytes.Equal(copied, launcher) {
		t.Error("cmd/hookgen/launcher.sh is not plugin/bin/hookwright: cp plugin/bin/hookwright cmd/hookgen/launcher.sh")
	}
	ours, err := os.ReadFile(filepath.Join("..", "..", "plugin", "release.sh"))
	if err != nil {
		t.Fatal(err)
	}
	tool := regexp.MustCompile(`(?m)^cyclonedx=(\S+)$`)
	if a, b := tool.FindStringSubmatch(string(ours)), tool.FindStringSubmatch(files["release.sh"]); a == nil || b == nil || a[1] != b[1] {
		t.Errorf("the SBOM tool: hookwright's release.sh %q, the template's %q", a, b)
	}
	for _, flag := range []string{"-trimpath", `-ldflags "-s -w -buildid=`, "gzip -9 -n", "-notimestamp"} {
		if !strings.Contains(files["release.sh"], flag) {
			t.Errorf("the template's release.sh lacks %q", flag)
		}
	}
}

// TestNewRefusesBadNames: hostile names, folders and commands are refused
// with one clear line and exit 2, and nothing is written.
func TestNewRefusesBadNames(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	full := filepath.Join(work, "full")
	os.Mkdir(full, 0o755)
	os.WriteFile(filepath.Join(full, "keep.txt"), []byte("mine\n"), 0o644)
	os.WriteFile(filepath.Join(work, "afile"), []byte("mine\n"), 0o644)
	os.Symlink(t.TempDir(), filepath.Join(work, "alink"))
	ok := filepath.Join(work, "fresh")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"go", "../x"}, "is a path"},
		{[]string{"go", "a b"}, "not kebab-case"},
		{[]string{"go", "-rf"}, "with a hyphen"},
		{[]string{"go", "--", "-rf"}, "with a hyphen"},
		{[]string{"go", "plugin\u0430"}, "not ASCII"}, // Cyrillic a
		{[]string{"js", "\uff50lugin"}, "not ASCII"},  // fullwidth p
		{[]string{"go", "plug\u200bin"}, "not ASCII"}, // zero-width space
		{[]string{"go", strings.Repeat("a", 200)}, "200 bytes long"},
		{[]string{"go", ""}, "is empty"},
		{[]string{"go", "My-Plugin"}, "not kebab-case"},
		{[]string{"go", "a--b"}, "not kebab-case"},
		{[]string{"go", "a_b"}, "not kebab-case"},
		{[]string{"go", "x/y"}, "is a path"},
		{[]string{"go", ".."}, "is a path"},
		{[]string{"go", "a\x00b"}, "not kebab-case"},
		{[]string{"go", "a\nb"}, "not kebab-case"},
		{[]string{"go", "con"}, "device name on Windows"},
		{[]string{"go", "hookwright"}, "hookwright's own"},
		{[]string{"rust", "x"}, "go or js"},
		{[]string{"go"}, "a language (go or js) and a plugin NAME"},
		{[]string{"go", "a", "b"}, "a language (go or js) and a plugin NAME"},
		{[]string{"go", "ok", "--dir", full}, "is not empty"},
		{[]string{"go", "ok", "--dir", filepath.Join(work, "afile")}, "is not a folder"},
		{[]string{"go", "ok", "--dir", filepath.Join(work, "alink")}, "symbolic link"},
		{[]string{"go", "ok", "--dir", "-x"}, "starts with a hyphen"},
		{[]string{"go", "ok", "--dir", "a\nb"}, "control or formatting character"},
		{[]string{"go", "ok", "--dir", ok, "--block", ""}, "--block is empty"},
		{[]string{"go", "ok", "--dir", ok, "--block", "git push\n--force"}, "control or formatting character"},
		{[]string{"go", "ok", "--dir", ok, "--block", "rm\x00-rf"}, "control or formatting character"},
		{[]string{"go", "ok", "--dir", ok, "--block", "rm \u202e-rf"}, "control or formatting character"},
		{[]string{"go", "ok", "--dir", ok, "--block", strings.Repeat("x ", 101)}, "at most 200"},
		{[]string{"go", "ok", "--dir", ok, "--block", "--force"}, "starts with an option"},
		{[]string{"go", "ok", "--dir", ok, "--module", "a b"}, "--module"},
		{[]string{"go", "ok", "--dir", ok, "--module", "../x"}, "--module"},
		{[]string{"go", "ok", "--dir", ok, "--module", "x\ny"}, "--module"},
		{[]string{"go", "ok", "--dir", ok, "--replace", work}, "has no go.mod"},
		{[]string{"js", "ok", "--dir", ok, "--replace", work}, "for a Go plugin"},
		{[]string{"go", "ok", "--dir", ok, "--hookgen-npm", work}, "for a JavaScript plugin"},
		{[]string{"js", "ok", "--dir", ok, "--hookgen-npm", work}, "no hookgen-<version>.tgz"},
		{[]string{"go", "ok", "--nope"}, "no option"},
		{[]string{"go", "ok", "--dir"}, "needs a value"},
	}
	for _, tc := range cases {
		code, out, errb := newTree(t, tc.args...)
		if code != exitUsage || !strings.Contains(errb, tc.want) || strings.Count(errb, "\n") != 1 || out != "" {
			t.Errorf("hookgen new %q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.args, code, out, errb, tc.want)
		}
	}
	entries, _ := os.ReadDir(work)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !reflect.DeepEqual(names, []string{"afile", "alink", "full"}) {
		t.Errorf("the folder holds %q after refusals; want only what was there", names)
	}
	if b, _ := os.ReadFile(filepath.Join(full, "keep.txt")); string(b) != "mine\n" {
		t.Errorf("keep.txt = %q", b)
	}
}

// TestNewIntoEmptyAndDefaultFolder: an empty folder is filled, ./NAME is
// the default, and a second run into the same place is refused without
// touching the first.
func TestNewIntoEmptyAndDefaultFolder(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	if code, out, errb := newTree(t, "js", "my-plugin"); code != exitOK || !strings.Contains(out, "into my-plugin") {
		t.Fatalf("exit %d: %s%s", code, out, errb)
	}
	readme := filepath.Join(work, "my-plugin", "README.md")
	os.WriteFile(readme, []byte("edited\n"), 0o644)
	if code, _, errb := newTree(t, "go", "my-plugin"); code != exitUsage || !strings.Contains(errb, "is not empty") {
		t.Errorf("a second hookgen new into my-plugin: exit %d, %s", code, errb)
	}
	if b, _ := os.ReadFile(readme); string(b) != "edited\n" {
		t.Errorf("the second run touched README.md: %q", b)
	}
	os.Mkdir(filepath.Join(work, "empty"), 0o755)
	if code, _, errb := newTree(t, "go", "other", "--dir", "empty", "--block", "terraform apply"); code != exitOK {
		t.Fatalf("into an empty folder: exit %d: %s", code, errb)
	}
	entries, _ := os.ReadDir(work)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".hookgen-new-") {
			t.Errorf("left behind %s", e.Name())
		}
	}
	// The current folder, empty: filled in place, still the same folder.
	here := filepath.Join(work, "here")
	os.Mkdir(here, 0o755)
	t.Chdir(here)
	before, _ := os.Stat(".")
	if code, _, errb := newTree(t, "go", "here", "--dir", "."); code != exitOK {
		t.Fatalf("--dir . in an empty folder: exit %d: %s", code, errb)
	}
	after, _ := os.Stat(".")
	if !os.SameFile(before, after) {
		t.Error("--dir . replaced the current folder instead of filling it")
	}
	if _, err := os.Stat(filepath.Join(here, "cmd", "here", "handlers.go")); err != nil {
		t.Error(err)
	}
}

// TestNewHelpAfterTheArguments: --help anywhere before "--" shows the
// help, as it does before the arguments.
func TestNewHelpAfterTheArguments(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errb := newTree(t, "go", "my-plugin", "--help")
	if code != exitOK || !strings.Contains(out, "hookgen new go|js NAME") || errb != "" {
		t.Errorf("hookgen new go my-plugin --help: exit %d, stdout %q, stderr %q", code, out, errb)
	}
	if _, err := os.Stat("my-plugin"); err == nil {
		t.Error("--help wrote the plugin")
	}
}

// TestNewReplaceIsQuoted: a clone whose path has a space and a quote is
// written into go.mod as one path, which go.mod reads back.
func TestNewReplaceIsQuoted(t *testing.T) {
	clone := filepath.Join(t.TempDir(), `hw clone "x"`)
	os.MkdirAll(clone, 0o755)
	os.WriteFile(filepath.Join(clone, "go.mod"), []byte("module github.com/hookwright/hookwright\n\ngo 1.26.8\n"), 0o644)
	dir := filepath.Join(t.TempDir(), "p")
	if code, _, errb := newTree(t, "go", "p", "--dir", dir, "--replace", clone, "--module", "example.com/me/p"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	f, err := modfile.Parse("go.mod", b, nil)
	if err != nil {
		t.Fatalf("go.mod does not parse: %v\n%s", err, b)
	}
	if len(f.Replace) != 1 || f.Replace[0].New.Path != clone || f.Module.Mod.Path != "example.com/me/p" {
		t.Errorf("go.mod:\n%s", b)
	}
}

// TestNewBlockIsData: whatever --block holds is a string in the code it
// is written into, never code: quotes, backslashes, $(...), backticks and
// line separators come back exactly from the Go and the JavaScript
// literal, and the generated Go parses and is gofmt'ed.
func TestNewBlockIsData(t *testing.T) {
	for _, block := range []string{
		`rm -rf "$HOME"`,
		`echo '\' "\"" $(touch marker) ` + "`touch marker` ${x}",
		"psql -c 'drop table x;' </script>",
		"git push --force \u2028\u2029 \u00e9\u4e2d",
		"x `` y",
	} {
		dir := filepath.Join(t.TempDir(), "p")
		if code, _, errb := newTree(t, "go", "p", "--dir", dir, "--block", block); code != exitOK {
			t.Fatalf("--block %q: exit %d: %s", block, code, errb)
		}
		src, err := os.ReadFile(filepath.Join(dir, "cmd", "p", "handlers.go"))
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), "handlers.go", src, 0)
		if err != nil {
			t.Fatalf("--block %q: handlers.go does not parse: %v", block, err)
		}
		var got string
		ast.Inspect(f, func(n ast.Node) bool {
			if v, ok := n.(*ast.ValueSpec); ok && v.Names[0].Name == "blocked" {
				got, _ = strconv.Unquote(v.Values[0].(*ast.BasicLit).Value)
			}
			return true
		})
		if got != block {
			t.Errorf("Go: blocked = %q, want %q", got, block)
		}
		jsDir := filepath.Join(t.TempDir(), "j")
		if code, _, errb := newTree(t, "js", "j", "--dir", jsDir, "--block", block); code != exitOK {
			t.Fatalf("js --block %q: exit %d: %s", block, code, errb)
		}
		js, _ := os.ReadFile(filepath.Join(jsDir, "lib", "rules.js"))
		m := regexp.MustCompile(`(?m)^const BLOCKED = (.*);$`).FindSubmatch(js)
		var gotJS string
		if m == nil || json.Unmarshal(m[1], &gotJS) != nil || gotJS != block || bytes.ContainsAny(m[1], "\u2028\u2029") {
			t.Errorf("JavaScript: BLOCKED = %q, want %q as an escaped string literal", m, block)
		}
	}
}

// TestNewHelpTeaches: hookgen new --help names both languages, the
// gate, the guard, the flags and examples.
func TestNewHelpTeaches(t *testing.T) {
	e, out, errb := fakeEnv(t)
	if code := hookgen(t, e, "new", "--help"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"hookgen new go|js NAME", "deliverable: <path>", "--block", "--replace", "--hookgen-npm", "make release", "npm test", "kebab-case", "hookgen new go deliverables"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("hookgen new --help lacks %q", want)
		}
	}
}

// TestNewTestsRunTheInstallsCommandLines: the command lines the templates'
// tests give their hooks are the ones the hooks files hookgen writes give
// them, every one of them, so the tests run what Claude Code runs.
func TestNewTestsRunTheInstallsCommandLines(t *testing.T) {
	for lang, c := range map[string]struct{ tests, consts, prefix, hooksDir string }{
		"go": {"cmd/deliverables/handlers_test.go", `(?m)^\s+(?:guardArgs|nativeArgs|fallbackArgs)\s+= "([^"]*)"$`, `"${CLAUDE_PLUGIN_ROOT}/bin/deliverables" `, "plugin/hooks"},
		"js": {"test/hooks.test.js", `(?m)^const (?:GUARD|NATIVE|FALLBACK) = "([^"]*)";$`, `node "${CLAUDE_PLUGIN_ROOT}/hooks/`, "hooks"},
	} {
		dir := filepath.Join(t.TempDir(), lang)
		if code, _, errb := newTree(t, lang, "deliverables", "--dir", dir); code != exitOK {
			t.Fatal(errb)
		}
		files, _ := readTree(t, dir)
		tested := map[string]bool{}
		for _, m := range regexp.MustCompile(c.consts).FindAllStringSubmatch(files[c.tests], -1) {
			tested[m[1]] = true
		}
		written := map[string]bool{}
		for p, data := range files {
			if !strings.HasPrefix(p, c.hooksDir+"/") || !strings.HasSuffix(p, ".json") {
				continue
			}
			var m struct {
				Hooks map[string][]struct {
					Hooks []struct{ Command string }
				}
			}
			if err := json.Unmarshal([]byte(data), &m); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for _, groups := range m.Hooks {
				for _, g := range groups {
					for _, h := range g.Hooks {
						cmd, _ := manifests.LauncherCall(h.Command)
						rest, ok := strings.CutPrefix(cmd, c.prefix)
						if lang == "js" {
							_, rest, ok = strings.Cut(rest, `.js" `)
						}
						if !ok {
							t.Fatalf("%s: a command %q not of the form %s...", p, cmd, c.prefix)
						}
						written[rest] = true
					}
				}
			}
		}
		if len(written) == 0 || !reflect.DeepEqual(tested, written) {
			t.Errorf("%s: the tests run the command lines %v; the hooks files give %v", lang, slices.Sorted(maps.Keys(tested)), slices.Sorted(maps.Keys(written)))
		}
	}
}
