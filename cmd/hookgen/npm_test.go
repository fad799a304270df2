package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/hookwright/hookwright/compat"

	"github.com/hookwright/hookwright/internal/testkit"
)

// The npm tier: make npm's packages, packed and installed offline into a
// fresh Node project with no Go on PATH, as a JavaScript plugin's release
// pipeline would use them.

// npmTools returns node's and npm's paths, or skips (fails under CI).
func npmTools(t *testing.T) (node, npm string) {
	t.Helper()
	if testing.Short() {
		t.Skip("npm tier: packs and installs the npm packages")
	}
	node, err1 := exec.LookPath("node")
	npm, err2 := exec.LookPath("npm")
	if err1 != nil || err2 != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("npm tier needs node and npm: %v %v", err1, err2)
		}
		t.Skip("npm tier: no node or npm")
	}
	return node, npm
}

// npmPlatform is this machine as npm names it: linux-x64, win32-arm64.
func npmPlatform(goos, goarch string) string {
	if goos == "windows" {
		goos = "win32"
	}
	if goarch == "amd64" {
		goarch = "x64"
	}
	return goos + "-" + goarch
}

// npmBuild is make npm's output for the test process: the folder of the
// packages and their tarballs.
var npmBuild = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "hookgen-npm-")
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "npm")
	cmd := exec.Command("make", "-s", "npm", "NPM_OUT="+out)
	cmd.Dir = filepath.Join("..", "..")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", &buildError{string(b), err}
	}
	return out, nil
})

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return "make npm: " + e.err.Error() + "\n" + e.out }

// nodeEnv is an environment for node and npm with no Go on PATH, no user
// npm config and a private, empty npm cache (so nothing is fetched).
func nodeEnv(t *testing.T, node, npm string) []string {
	t.Helper()
	path := filepath.Dir(node)
	if d := filepath.Dir(npm); d != path {
		path += string(os.PathListSeparator) + d
	}
	tmp := t.TempDir()
	userconfig := filepath.Join(tmp, "npmrc")
	os.WriteFile(userconfig, nil, 0o644)
	return []string{"PATH=" + path + string(os.PathListSeparator) + "/usr/bin:/bin", "HOME=" + tmp,
		"npm_config_userconfig=" + userconfig, "npm_config_cache=" + filepath.Join(tmp, "cache"),
		"npm_config_offline=true", "npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false"}
}

// nodeProject installs tarballs into a fresh project and returns its folder.
func nodeProject(t *testing.T, env []string, tarballs []string, extra ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "js-plugin")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"js-plugin","version":"1.0.0","private":true}`), 0o644)
	args := append([]string{"install"}, extra...)
	out, err := runIn(dir, env, "npm", append(args, tarballs...)...)
	if err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	return dir
}

// runIn runs name, looked up on env's PATH only, in dir.
func runIn(dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	p, err := lookIn(strings.TrimPrefix(env[0], "PATH="), name)
	if err != nil {
		return nil, err
	}
	cmd.Path, cmd.Err = p, nil
	return cmd.Output()
}

func lookIn(path, name string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() {
			return filepath.Join(d, name), nil
		}
	}
	return "", os.ErrNotExist
}

// goHookgen is hookgen built by go, the reference the packages must equal.
func goHookgen(t *testing.T) string {
	t.Helper()
	return testkit.Build(t, ".", testkit.Options{Name: "hookgen"})
}

func pluginVersion(t *testing.T) string {
	t.Helper()
	var p struct{ Version string }
	data, err := os.ReadFile(filepath.Join("..", "..", "plugin", ".claude-plugin", "plugin.json"))
	if err != nil || json.Unmarshal(data, &p) != nil || p.Version == "" {
		t.Fatalf("plugin.json version: %v", err)
	}
	return p.Version
}

// TestNPMPackages checks every package's package.json: versions locked to
// plugin.json's, os and cpu on each platform package, every platform an
// exact optionalDependency of hookgen, and no install script anywhere.
func TestNPMPackages(t *testing.T) {
	npmTools(t)
	out, err := npmBuild()
	if err != nil {
		t.Fatal(err)
	}
	version := pluginVersion(t)
	type pkg struct {
		Name, Version        string
		OS, CPU              []string
		Bin                  map[string]string
		Scripts              map[string]string
		OptionalDependencies map[string]string
	}
	read := func(name string) pkg {
		var p pkg
		data, err := os.ReadFile(filepath.Join(out, name, "package.json"))
		if err != nil || json.Unmarshal(data, &p) != nil {
			t.Fatalf("%s/package.json: %v", name, err)
		}
		if len(p.Scripts) > 0 {
			t.Errorf("%s has scripts %v: no install script, no script at all", name, p.Scripts)
		}
		if p.Version != version {
			t.Errorf("%s is version %s, plugin.json says %s", name, p.Version, version)
		}
		if _, err := os.Stat(filepath.Join(out, name+"-"+version+".tgz")); err != nil {
			t.Errorf("%s was not packed: %v", name, err)
		}
		return p
	}
	main := read("hookgen")
	if main.Bin["hookgen"] != "bin/hookgen.js" {
		t.Errorf("hookgen bin = %v", main.Bin)
	}
	goos := []string{"linux", "darwin", "windows"}
	goarch := []string{"amd64", "arm64"}
	for _, o := range goos {
		for _, a := range goarch {
			key := npmPlatform(o, a)
			name := "hookgen-" + key
			if main.OptionalDependencies[name] != version {
				t.Errorf("hookgen's optionalDependencies[%s] = %q, want %s", name, main.OptionalDependencies[name], version)
			}
			p := read(name)
			os_, cpu, _ := strings.Cut(key, "-")
			if !reflect.DeepEqual(p.OS, []string{os_}) || !reflect.DeepEqual(p.CPU, []string{cpu}) {
				t.Errorf("%s: os %v cpu %v", name, p.OS, p.CPU)
			}
			exe := "hookgen"
			if o == "windows" {
				exe += ".exe"
			}
			if fi, err := os.Stat(filepath.Join(out, name, "bin", exe)); err != nil || fi.Size() < 1<<20 {
				t.Errorf("%s has no binary bin/%s: %v", name, exe, err)
			}
		}
	}
	if len(main.OptionalDependencies) != 6 {
		t.Errorf("hookgen has %d optionalDependencies, want 6", len(main.OptionalDependencies))
	}
}

// TestNPMInstallOffline installs hookgen and this machine's platform
// package from their tarballs into a fresh project, offline, with no Go on
// PATH: npx hookgen and the JS API write the Go binary's bytes and report
// its violations.
func TestNPMInstallOffline(t *testing.T) {
	node, npm := npmTools(t)
	out, err := npmBuild()
	if err != nil {
		t.Fatal(err)
	}
	version := pluginVersion(t)
	host := npmPlatform(runtime.GOOS, runtime.GOARCH)
	env := nodeEnv(t, node, npm)
	dir := nodeProject(t, env, []string{
		filepath.Join(out, "hookgen-"+version+".tgz"), filepath.Join(out, "hookgen-"+host+"-"+version+".tgz")})
	if _, err := runIn(dir, env, "go", "version"); err == nil {
		t.Skip("go sits next to node or in /usr/bin: no PATH without go")
	}
	spec, _ := filepath.Abs(filepath.Join("..", "..", "internal", "compatsuite", "testdata", "jsplugin", "spec.json"))
	broken, _ := filepath.Abs(filepath.Join("..", "..", "compat", "testdata", "broken", "teammateidle-2.0.30", "hooks", "hooks.json"))
	ref := goHookgen(t)
	want, err := exec.Command(ref, "--cc-version", "2.1.32", "--spec", spec).Output()
	if err != nil || len(want) == 0 {
		t.Fatalf("go hookgen: %v", err)
	}

	got, err := runIn(dir, env, "npx", "hookgen", "--cc-version", "2.1.32", "--spec", spec)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("npx hookgen wrote other bytes than the Go binary (%v):\n%s\nwant:\n%s", err, got, want)
	}

	script := `const hg = require("hookgen"); const fs = require("fs");
const [spec, broken] = process.argv.slice(1);
const fromPath = hg.generate({ccVersion: "2.1.32", spec});
const fromObject = hg.generate({ccVersion: "2.1.32", spec: JSON.parse(fs.readFileSync(spec, "utf8"))});
process.stdout.write(JSON.stringify({fromPath, fromObject, violations: hg.validate({ccVersion: "2.0.30", manifest: broken}),
  clean: hg.validate({ccVersion: "2.1.33", manifest: JSON.parse(fromPath)}), bands: hg.bands()}));`
	raw, err := runIn(dir, env, "node", "-e", script, spec, broken)
	if err != nil {
		t.Fatalf("node: %v\n%s", err, raw)
	}
	var api struct {
		FromPath, FromObject string
		Violations, Clean    []map[string]string
		Bands                struct {
			Floor string
			Bands []string
		}
	}
	if err := json.Unmarshal(raw, &api); err != nil {
		t.Fatalf("node printed %s: %v", raw, err)
	}
	if api.FromPath != string(want) || api.FromObject != string(want) {
		t.Errorf("generate() wrote other bytes than the Go binary:\n%s", api.FromPath)
	}
	goViolations, _ := exec.Command(ref, "validate", "--json", "--cc-version", "2.0.30", broken).Output()
	var wantV []map[string]string
	if err := json.Unmarshal(goViolations, &wantV); err != nil || len(wantV) == 0 {
		t.Fatalf("go hookgen validate --json on the broken manifest: %s %v", goViolations, err)
	}
	if !reflect.DeepEqual(api.Violations, wantV) {
		t.Errorf("validate() = %v, the Go binary says %v", api.Violations, wantV)
	}
	if len(api.Clean) != 0 {
		t.Errorf("validate() on a generated manifest = %v, want []", api.Clean)
	}
	if api.Bands.Floor != compat.PluginFloor || len(api.Bands.Bands) != len(compat.Bands()) {
		t.Errorf("bands() = %+v", api.Bands)
	}
}

// TestNPMWrongPlatform: with only another platform's package (or none),
// hookgen says in one line which package to install, from the command and
// from the API.
func TestNPMWrongPlatform(t *testing.T) {
	node, npm := npmTools(t)
	out, err := npmBuild()
	if err != nil {
		t.Fatal(err)
	}
	version := pluginVersion(t)
	host := npmPlatform(runtime.GOOS, runtime.GOARCH)
	other := "linux-arm64"
	if host == other {
		other = "linux-x64"
	}
	env := nodeEnv(t, node, npm)
	dir := nodeProject(t, env, []string{
		filepath.Join(out, "hookgen-"+version+".tgz"), filepath.Join(out, "hookgen-"+other+"-"+version+".tgz")}, "--force", "--omit=optional")
	line := "no hookgen binary for " + host + "; install hookgen-" + host
	cmd := exec.Command("npx", "hookgen", "--cc-version", "2.1.32")
	cmd.Dir, cmd.Env = dir, env
	cmd.Path, _ = lookIn(strings.TrimPrefix(env[0], "PATH="), "npx")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err == nil || len(stdout) != 0 || strings.TrimSpace(stderr.String()) != line {
		t.Errorf("npx hookgen without this platform's package: %v, stdout %q, stderr %q; want one line %q", err, stdout, stderr.String(), line)
	}
	raw, err := runIn(dir, env, "node", "-e", `try { require("hookgen").bands(); } catch (e) { process.stdout.write(e.message); }`)
	if err != nil || string(raw) != line {
		t.Errorf("the API without this platform's package says %q (%v), want %q", raw, err, line)
	}
}
