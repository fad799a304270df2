package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/buildinfo"
	"github.com/hookwright/hookwright/manifests"
)

// newTemplates are the files `hookgen new` writes, per language: every
// file NAME.tmpl is rendered with text/template (delimiters [% %], the
// data a newData) to NAME, and "_name_" in a path is the plugin's name.
// The files the generator owns elsewhere are not here: the hooks files
// and plugin.json's "hooks" (manifests.BuildInstall, as hookgen plugin
// writes them), the launcher (hookwright's own, package plugin), go.mod
// (modfile).
//
//go:embed all:newplugin
var newTemplates embed.FS

// launcher is plugin/bin/hookwright, the launcher of a Go plugin: a POSIX
// shell script that runs bin/<name>-<os>-<arch> beside it, or unpacks and
// checks a release's bin/<name>-<version>-<os>-<arch>.gz, where <name> is
// the name it is called by; nothing in it is hookwright's own. Embedding
// needs a copy here; TestNewReleaseMachineryIsHookwrights holds it equal to
// the plugin's byte for byte.
//
//go:embed launcher.sh
var launcher []byte

// hookwrightModule is the module a Go plugin requires for package hooks.
const hookwrightModule = "github.com/hookwright/hookwright"

// newGoVersion is the go line of a new Go plugin's go.mod: hookwright's
// own (TestNewGoVersionIsHookwrights), which a module requiring it needs
// at least.
const newGoVersion = "1.26.8"

// defaultBlock is the command the PreToolUse handler of a new plugin
// refuses unless --block names another.
const defaultBlock = "git push --force"

// Limits on what hookgen new takes, so that every value fits the files it
// is written into and reads back in a terminal.
const (
	maxNameLen  = 64
	maxBlockLen = 200
	maxPathLen  = 1024
)

// pluginName is the kebab-case a new plugin's name must be: it becomes a
// folder, a binary, a Go command, an npm package and the marketplace
// entry, so it is lower-case ASCII letters and digits in words joined by
// single hyphens, starting with a letter.
var pluginName = regexp.MustCompile(`^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$`)

// windowsReserved are names no folder or file may have on Windows.
var windowsReserved = regexp.MustCompile(`^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$`)

// checkPluginName says why name cannot name a new plugin, or nil.
func checkPluginName(name string) error {
	show := strconv.QuoteToASCII(clipText(name, 40))
	switch {
	case name == "":
		return errors.New("the plugin NAME is empty")
	case len(name) > maxNameLen:
		return fmt.Errorf("the plugin NAME %s is %d bytes long; at most %d", show, len(name), maxNameLen)
	case !utf8.ValidString(name) || strings.IndexFunc(name, func(r rune) bool { return r > unicode.MaxASCII }) >= 0:
		return fmt.Errorf("the plugin NAME %s holds a character that is not ASCII (a look-alike letter?); use kebab-case such as my-plugin", show)
	case strings.ContainsAny(name, `/\`) || name == "." || name == "..":
		return fmt.Errorf("the plugin NAME %s is a path; name the plugin (my-plugin) and choose its folder with --dir", show)
	case strings.HasPrefix(name, "-"):
		return fmt.Errorf("the plugin NAME %s starts with a hyphen; use kebab-case such as my-plugin", show)
	case !pluginName.MatchString(name):
		return fmt.Errorf("the plugin NAME %s is not kebab-case: lower-case letters and digits in words joined by single hyphens, starting with a letter (my-plugin)", show)
	case windowsReserved.MatchString(name):
		return fmt.Errorf("the plugin NAME %s is a device name on Windows; choose another", show)
	case name == "hookwright":
		return errors.New("the plugin NAME hookwright is hookwright's own plugin; choose another")
	}
	return nil
}

// checkBlock says why cmd cannot be the command a new plugin blocks.
func checkBlock(cmd string) error {
	show := strconv.QuoteToASCII(clipText(cmd, 40))
	switch {
	case strings.TrimSpace(cmd) == "":
		return errors.New("--block is empty: name the command to block, such as 'git push --force'")
	case len(cmd) > maxBlockLen:
		return fmt.Errorf("--block %s is %d bytes long; at most %d", show, len(cmd), maxBlockLen)
	case !utf8.ValidString(cmd):
		return fmt.Errorf("--block %s is not UTF-8", show)
	case strings.IndexFunc(cmd, notPlain) >= 0:
		return fmt.Errorf("--block %s holds a control or formatting character; give the command as the words it is typed with", show)
	case strings.HasPrefix(strings.TrimSpace(cmd), "-"):
		return fmt.Errorf("--block %s starts with an option; start with the program (git push --force)", show)
	}
	return nil
}

// notPlain is a rune no name or command hookgen new writes may hold: a
// control character, or a formatting one (a bidirectional override that
// shows a text in another order than it runs).
func notPlain(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError
}

// clipText shortens s to n bytes for an error message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// newOptions are hookgen new's flags and arguments.
type newOptions struct {
	lang, name, dir, block, module, replace, npmDir string
}

// newData is what the templates see.
type newData struct {
	// Name is the plugin's name; Lang "go" or "js".
	Name, Lang string
	// Module is the Go module path (go only).
	Module string
	// Block is the command the PreToolUse handler refuses; BlockGo and
	// BlockJS are it as a string literal of each language. Pass is a
	// command the handler lets through, for the tests.
	Block, BlockGo, BlockJS string
	Pass, PassGo, PassJS    string
	// Hookwright is the module path, Version the release of it (and of
	// the npm package hookgen) the plugin requires, without a v.
	Hookwright, Version string
	// Published says whether that release is published; Unpublished is
	// the line every install path shows until it is.
	Published   bool
	Unpublished string
	// Replace is the local hookwright checkout go.mod points to, or "".
	Replace string
	// Hookgen is package.json's dependency on the npm package hookgen
	// ("^<Version>", or a local tarball "file:..."); Overrides install
	// its platform packages from local tarballs too (--hookgen-npm).
	Hookgen   string
	Overrides []npmPackage
	// NpmLocal says the hookgen npm packages come from local tarballs.
	NpmLocal bool
	// Floor is the plugin floor, Newest the newest release hookgen knows.
	Floor, Newest string
	// GoVersion is go.mod's go line.
	GoVersion string
}

const newHelp = `new writes a plugin repository that builds, tests and loads on its first
run, into ./NAME (or --dir DIR, which must not exist or be empty):

   a gate on TaskCompleted   refuses to complete a task whose description
                             names "deliverable: <path>" while that file is
                             missing in the project (the path confined to
                             the project: no "..", no absolute path, no
                             symbolic link out of it)
   a guard on PreToolUse     blocks one shell command (--block, default
                             'git push --force'), matched on the words of the
                             Bash tool's "command", read by exact key
   tests of both             on events real Claude Code releases sent
   the spec, the hooks files hooks.spec.json, and what "hookgen plugin" writes
                             from it: hooks/hooks.json for every release from
                             the floor, hooks/<release>.json for later events,
                             named in plugin.json
   CI                        .github/workflows/ci.yml: the tests, the hooks
                             files checked against the spec, hookgen audit

go: a Go module (package hooks: hooks.Main, hooks/hookstest). make test,
make plugin (the plugin folder for this machine, in plugin/), make release
(six platforms, the launcher, SHA256SUMS, SBOMs, reproducible, checked by
hookgen doctor: hookwright's own release design). Until hookwright is
published, go.mod needs a local clone of hookwright: --replace DIR writes
the replace directive (go mod edit -replace does it later).

js: a Node.js package whose root is the plugin folder (the npm package
hookgen: hookgen.run, hookgen.event). npm install, npm test (which runs the
hooks:check step). --hookgen-npm DIR takes hookgen's npm packages from the
folder make npm writes (dist/npm) instead of the registry.

   hookgen new go deliverables
   hookgen new go deliverables --replace ~/src/hookwright --block 'terraform apply'
   hookgen new js deliverables --dir ~/src/deliverables-plugin
   cd deliverables && make test && make plugin && claude --plugin-dir plugin

NAME is kebab-case (my-plugin): lower-case letters and digits in words
joined by hyphens, 64 bytes at most. Nothing is written unless all of it
is: the repository appears at once, or not at all.`

func newCommand(e env) *cli.Command {
	o := &newOptions{}
	return &cli.Command{
		Name:        "new",
		Usage:       "write a new plugin repository, in Go or JavaScript, that builds, tests and loads on its first run",
		UsageText:   "hookgen new go|js NAME [--dir DIR] [--block COMMAND] [--module PATH] [--replace DIR] [--hookgen-npm DIR]",
		Description: newHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "write the repository into `DIR` (default ./NAME); it must not exist or be empty", Destination: &o.dir},
			&cli.StringFlag{Name: "block", Usage: "the shell `COMMAND` the PreToolUse handler blocks", Value: defaultBlock, Destination: &o.block},
			&cli.StringFlag{Name: "module", Usage: "go: the module `PATH` (default NAME; github.com/you/NAME to publish)", Destination: &o.module},
			&cli.StringFlag{Name: "replace", Usage: "go: use the hookwright clone in `DIR` (a replace directive in go.mod) instead of a published release", Destination: &o.replace},
			&cli.StringFlag{Name: "hookgen-npm", Usage: "js: take the hookgen npm packages from `DIR` (make npm's output) instead of the registry", Destination: &o.npmDir},
		},
		Action: func(c *cli.Context) error {
			for _, a := range c.Args().Slice() {
				if a == "--" {
					break
				}
				if a == "-h" || a == "--help" || a == "-help" {
					return cli.ShowCommandHelp(c.Lineage()[1], "new")
				}
			}
			args, err := newArgs(c.Args().Slice(), o)
			if err != nil {
				return err
			}
			if len(args) != 2 {
				return usageErr("new needs a language (go or js) and a plugin NAME: hookgen new go my-plugin")
			}
			o.lang, o.name = args[0], args[1]
			return runNew(e, o)
		},
	}
}

// newArgs reads the flags written after the arguments (hookgen new go
// NAME --block 'terraform apply'), which the command line parser leaves
// among them, into o, and returns the arguments. "--" ends the flags.
func newArgs(args []string, o *newOptions) ([]string, error) {
	flags := map[string]*string{"dir": &o.dir, "block": &o.block, "module": &o.module, "replace": &o.replace, "hookgen-npm": &o.npmDir}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i+1:]...), nil
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		dst, known := flags[name]
		if !strings.HasPrefix(a, "-") || a == "-" {
			out = append(out, a)
			continue
		}
		if !known {
			return nil, usageErr("new has no option %s, and a plugin NAME cannot start with a hyphen (hookgen new --help)", strconv.QuoteToASCII(clipText(a, 40)))
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, usageErr("--%s needs a value", name)
			}
			i++
			val = args[i]
		}
		*dst = val
	}
	return out, nil
}

// runNew checks o, renders the repository and writes it.
func runNew(e env, o *newOptions) error {
	if o.lang != "go" && o.lang != "js" {
		return usageErr("new writes a plugin in go or js, not %s", strconv.QuoteToASCII(clipText(o.lang, 40)))
	}
	if err := checkPluginName(o.name); err != nil {
		return usageErr("%w", err)
	}
	if err := checkBlock(o.block); err != nil {
		return usageErr("%w", err)
	}
	if o.lang == "js" && (o.module != "" || o.replace != "") {
		return usageErr("--module and --replace are for a Go plugin (hookgen new go)")
	}
	if o.lang == "go" && o.npmDir != "" {
		return usageErr("--hookgen-npm is for a JavaScript plugin (hookgen new js)")
	}
	if o.dir == "" {
		o.dir = o.name
	}
	if err := checkDirArg(o.dir); err != nil {
		return usageErr("%w", err)
	}
	d := newData{
		Name: o.name, Lang: o.lang, Block: strings.TrimSpace(o.block),
		Hookwright: hookwrightModule, Version: buildinfo.Release,
		Published: buildinfo.Published, Unpublished: buildinfo.Unpublished,
		Floor: compat.PluginFloor, Newest: compat.NewestKnown, GoVersion: newGoVersion,
	}
	d.Pass = harmlessCommand(d.Block)
	d.BlockGo, d.PassGo = strconv.Quote(d.Block), strconv.Quote(d.Pass)
	d.BlockJS, d.PassJS = jsString(d.Block), jsString(d.Pass)
	switch o.lang {
	case "go":
		d.Module = o.module
		if d.Module == "" {
			d.Module = o.name
		}
		if err := module.CheckImportPath(d.Module); err != nil {
			return usageErr("--module: %w", err)
		}
		if o.replace != "" {
			abs, err := hookwrightClone(o.replace)
			if err != nil {
				return usageErr("--replace: %w", err)
			}
			d.Replace = abs
		}
	case "js":
		d.Hookgen = "^" + d.Version
		if o.npmDir != "" {
			main, platforms, err := localNpm(o.npmDir)
			if err != nil {
				return usageErr("--hookgen-npm: %w", err)
			}
			d.Hookgen, d.Overrides, d.NpmLocal = main, platforms, true
		}
	}
	files, err := renderNew(d)
	if err != nil {
		return err
	}
	if err := writeTree(o.dir, files); err != nil {
		return err
	}
	return reportNew(e, o, d, files)
}

// harmlessCommand is a command that shares no word with block, for the
// tests of the guard.
func harmlessCommand(block string) string {
	words := map[string]bool{}
	for _, w := range strings.Fields(strings.NewReplacer(`"`, "", "'", "", `\`, "").Replace(block)) {
		words[path.Base(w)] = true
	}
	for _, c := range []string{"ls -la", "go version", "date -u", "true"} {
		shared := false
		for _, w := range strings.Fields(c) {
			shared = shared || words[w]
		}
		if !shared {
			return c
		}
	}
	return "pwd"
}

// jsString writes s as a JavaScript string literal: JSON's, which
// encoding/json writes with U+2028 and U+2029 escaped, as JavaScript
// before ES2019 needs.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// checkDirArg refuses a --dir that cannot be a folder to write into, and
// one that already holds something: hookgen new never overwrites.
func checkDirArg(dir string) error {
	show := strconv.QuoteToASCII(clipText(dir, 60))
	switch {
	case len(dir) > maxPathLen:
		return fmt.Errorf("--dir %s is longer than %d bytes", show, maxPathLen)
	case strings.IndexFunc(dir, notPlain) >= 0:
		return fmt.Errorf("--dir %s holds a control or formatting character", show)
	case strings.HasPrefix(dir, "-"):
		return fmt.Errorf("--dir %s starts with a hyphen, which reads as an option in the commands you type next; put ./ before it", show)
	}
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %v", show, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link; name the folder itself", show)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s exists and is not a folder; hookgen new writes a new folder", show)
	}
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("%s: %v", show, err)
	}
	defer f.Close()
	if names, _ := f.Readdirnames(1); len(names) > 0 {
		return fmt.Errorf("%s is not empty (it holds %s); hookgen new never overwrites: choose a new folder with --dir", show, strconv.QuoteToASCII(clipText(names[0], 40)))
	}
	return nil
}

// hookwrightClone returns the absolute path of dir after checking it is a
// clone of hookwright: its go.mod names the module.
func hookwrightClone(dir string) (string, error) {
	if strings.IndexFunc(dir, notPlain) >= 0 || len(dir) > maxPathLen {
		return "", fmt.Errorf("%s is not a usable path", strconv.QuoteToASCII(clipText(dir, 60)))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	f, err := os.Open(filepath.Join(abs, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("%s has no go.mod: give the folder of a clone of hookwright (git clone https://github.com/hookwright/hookwright)", abs)
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := f.Read(head)
	if p := modfile.ModulePath(head[:n]); p != hookwrightModule {
		return "", fmt.Errorf("%s/go.mod is module %q, not %s", abs, p, hookwrightModule)
	}
	return abs, nil
}

// npmTarball is an npm pack file name: <package>-<version>.tgz.
var npmTarball = regexp.MustCompile(`^(hookgen(?:-[a-z0-9]+-[a-z0-9]+)?)-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\.tgz$`)

// npmPackage is an npm package and the spec that installs it.
type npmPackage struct{ Name, Spec string }

// localNpm finds make npm's tarballs in dir: the spec that installs the
// hookgen package from there, and its platform packages (which hookgen
// names as optional dependencies by version), for package.json's
// overrides.
func localNpm(dir string) (string, []npmPackage, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, err
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %v (make npm writes the packages into dist/npm)", abs, err)
	}
	var main string
	var platforms []npmPackage
	for _, en := range entries {
		m := npmTarball.FindStringSubmatch(en.Name())
		if m == nil || !en.Type().IsRegular() {
			continue
		}
		spec := "file:" + filepath.ToSlash(filepath.Join(abs, en.Name()))
		if m[1] == "hookgen" {
			main = spec
		} else {
			platforms = append(platforms, npmPackage{m[1], spec})
		}
	}
	if main == "" {
		return "", nil, fmt.Errorf("%s holds no hookgen-<version>.tgz (make npm writes it into dist/npm)", abs)
	}
	return main, platforms, nil
}

// newFile is one file of a new repository.
type newFile struct {
	data []byte
	mode fs.FileMode
}

// renderNew renders d's language into the repository's files, by
// slash-separated path.
func renderNew(d newData) (map[string]newFile, error) {
	files := map[string]newFile{}
	funcs := template.FuncMap{
		"code": markdownCode,
		"json": func(s string) string { b, _ := json.Marshal(s); return string(b) },
	}
	root := "newplugin/" + d.Lang
	err := fs.WalkDir(newTemplates, root, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		src, err := newTemplates.ReadFile(p)
		if err != nil {
			return err
		}
		rel := strings.ReplaceAll(strings.TrimPrefix(p, root+"/"), "_name_", d.Name)
		mode := fs.FileMode(0o644)
		if strings.HasSuffix(rel, ".sh.tmpl") {
			mode = 0o755
		}
		if name, ok := strings.CutSuffix(rel, ".tmpl"); ok {
			t, err := template.New(p).Delims("[%", "%]").Funcs(funcs).Option("missingkey=error").Parse(string(src))
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := t.Execute(&b, d); err != nil {
				return err
			}
			rel, src = name, b.Bytes()
			if strings.HasSuffix(rel, ".go") {
				if src, err = format.Source(src); err != nil {
					return fmt.Errorf("%s: %w", rel, err)
				}
			}
		}
		files[rel] = newFile{data: src, mode: mode}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("hookgen new: the %s template: %w", d.Lang, err)
	}
	pluginDir := ""
	if d.Lang == "go" {
		pluginDir = "plugin/"
		files[pluginDir+"bin/"+d.Name] = newFile{data: launcher, mode: 0o755}
		mod, err := goMod(d)
		if err != nil {
			return nil, err
		}
		files["go.mod"] = newFile{data: mod, mode: 0o644}
	}
	// The hooks files, as hookgen plugin writes them from the spec.
	spec, err := manifests.ParseSpec(files["hooks.spec.json"].data)
	if err != nil {
		return nil, fmt.Errorf("hookgen new: the %s template's spec: %w", d.Lang, err)
	}
	in, err := manifests.BuildInstall(spec, hooks.Release{})
	if err != nil {
		return nil, err
	}
	for _, f := range in.Files {
		files[pluginDir+f.Path] = newFile{data: f.JSON, mode: 0o644}
	}
	pjPath := pluginDir + ".claude-plugin/plugin.json"
	pj, err := manifests.SetPluginHooks(files[pjPath].data, in.PluginHooks())
	if err != nil {
		return nil, err
	}
	files[pjPath] = newFile{data: pj, mode: 0o644}
	return files, nil
}

// goMod writes a new Go plugin's go.mod: the module, hookwright's go line,
// hookwright at d.Version (or the clone d.Replace), and hookgen as a tool
// (go tool hookgen), so the plugin's hookgen is the release of its hooks
// package.
func goMod(d newData) ([]byte, error) {
	f := new(modfile.File)
	for _, err := range []error{
		f.AddModuleStmt(d.Module),
		f.AddGoStmt(d.GoVersion),
		f.AddRequire(d.Hookwright, "v"+d.Version),
		f.AddTool(d.Hookwright + "/cmd/hookgen"),
	} {
		if err != nil {
			return nil, err
		}
	}
	if d.Replace != "" {
		if err := f.AddReplace(d.Hookwright, "", d.Replace, ""); err != nil {
			return nil, err
		}
	}
	f.Cleanup()
	return modfile.Format(f.Syntax), nil
}

// markdownCode writes s as a Markdown code span, fenced with more
// backticks than any run in it.
func markdownCode(s string) string {
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// writeTree writes files into dir. A folder that does not exist appears
// at once, complete: the files are written into a new folder beside it,
// renamed into place. An empty folder (the current one, say) is filled in
// place. Either way every file is created inside the folder (os.Root),
// new (O_EXCL), so nothing that exists is replaced, and a failure leaves
// nothing of what it wrote.
func writeTree(dir string, files map[string]newFile) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if fi, err := os.Lstat(abs); err == nil && fi.IsDir() {
		return fillDir(abs, files)
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".hookgen-new-")
	if err != nil {
		return err
	}
	if err := fillDir(tmp, files); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	// os.Rename refuses a folder that exists by now, so one that appeared
	// since the check is never replaced.
	if err := os.Rename(tmp, abs); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("cannot put the new repository at %s: %w", dir, err)
	}
	return nil
}

// fillDir writes files into the folder dir, each new; on a failure it
// removes what it wrote.
func fillDir(dir string, files map[string]newFile) (err error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var made []string // the top-level names this call created
	defer func() {
		if err != nil {
			for _, m := range made {
				root.RemoveAll(m)
			}
		}
	}()
	for _, p := range paths {
		f := files[p]
		rel := filepath.FromSlash(p)
		top, _, _ := strings.Cut(p, "/")
		if !slices.Contains(made, top) {
			if _, err := root.Lstat(top); err == nil {
				return fmt.Errorf("%s already holds %s", dir, top)
			}
			made = append(made, top)
		}
		if err := root.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
			return err
		}
		w, err := root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, f.mode)
		if err != nil {
			return err
		}
		_, werr := w.Write(f.data)
		if cerr := w.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
		if err := root.Chmod(rel, f.mode); err != nil { // past the umask
			return err
		}
	}
	return nil
}

// reportNew says what was written and what to run next.
func reportNew(e env, o *newOptions, d newData, files map[string]newFile) error {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	fmt.Fprintf(e.Out, "wrote the %s plugin %s into %s (%d files):\n", map[string]string{"go": "Go", "js": "JavaScript"}[d.Lang], d.Name, o.dir, len(files))
	for _, p := range paths {
		fmt.Fprintf(e.Out, "   %s\n", p)
	}
	cd := "cd " + shellWord(o.dir)
	fmt.Fprintln(e.Out, "next:")
	switch d.Lang {
	case "go":
		fmt.Fprintf(e.Out, "   %s && make test && make plugin\n", cd)
		fmt.Fprintln(e.Out, "   claude --plugin-dir plugin      # try it; make release builds what users install")
		if d.Replace == "" && !d.Published {
			fmt.Fprintf(e.Err, "hookgen: %s: go.mod requires %s v%s, which does not resolve until it is; point it at a clone of hookwright: go mod edit -replace %s=/path/to/hookwright (or rerun with --replace)\n", d.Unpublished, d.Hookwright, d.Version, d.Hookwright)
		}
	case "js":
		fmt.Fprintf(e.Out, "   %s && npm install && npm test\n", cd)
		fmt.Fprintln(e.Out, "   claude --plugin-dir .           # try it")
		if !d.NpmLocal && !d.Published {
			fmt.Fprintf(e.Err, "hookgen: %s: the npm package hookgen %s is not on the registry yet; build it from a clone of hookwright (make npm) and rerun with --hookgen-npm dist/npm\n", d.Unpublished, d.Version)
		}
	}
	return nil
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
