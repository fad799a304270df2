// Package doctor inspects a hookwright installation and says what is
// wrong, with a fix for each problem: the Claude Code release, the band of
// the installed manifest (a plugin's hooks/hooks.json or hooks in a
// settings file), the plugin's binaries against the SHA-256 sums the
// release shipped with them (bin/SHA256SUMS), the binary the launcher
// would run on this machine, the
// project config, and where state lives.
//
// A plugin built the way hookwright is (hookgen new go writes one) is
// inspected the same way, by the name in its plugin.json: its launcher
// bin/<name>, its binaries bin/<name>-<os>-<arch> or a release's
// bin/<name>-<version>-<os>-<arch>.gz, and "<name> version" printing
// "<name> <version>". hookwright's project config and state are looked at
// only for hookwright's own plugin.
package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/marketplace"
	"github.com/hookwright/hookwright/internal/oracle"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/installcheck"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// Options says what to inspect.
type Options struct {
	// Version is the detected Claude Code release, nil when unknown;
	// VersionHow says how it was found, or why not.
	Version    hooks.Release
	VersionHow string
	// PluginRoot is the installed plugin folder, "" when none; PluginHow
	// says how it was found (see [PluginRoot]).
	PluginRoot, PluginHow string
	// Settings lists settings files to look for hookwright hooks in.
	Settings []string
	// Project is the project folder (config and journal).
	Project string
	// Releases are further Claude Code releases found on this machine
	// (see [MachineReleases]); each gets a line saying which of the
	// plugin's hooks it runs and through which path.
	Releases []hooks.Release
}

// Finding is one line of the report.
type Finding struct {
	// Topic is what was checked, e.g. "manifest".
	Topic string
	// OK is false for a problem.
	OK bool
	// Detail says what was found.
	Detail string
	// Fix says what to do about a problem.
	Fix string
}

// Report is every finding, in the order they were made.
type Report []Finding

// OK reports whether no finding is a problem.
func (r Report) OK() bool {
	for _, f := range r {
		if !f.OK {
			return false
		}
	}
	return true
}

// Write prints one line per finding, and the fix under each problem.
func (r Report) Write(w io.Writer) {
	for _, f := range r {
		mark := "ok "
		if !f.OK {
			mark = "BAD"
		}
		fmt.Fprintf(w, "%s %-10s %s\n", mark, f.Topic, f.Detail)
		if !f.OK && f.Fix != "" {
			fmt.Fprintf(w, "    fix: %s\n", f.Fix)
		}
	}
}

// Run inspects everything Options names.
func Run(o Options) Report {
	var r Report
	add := func(topic string, ok bool, fix, format string, args ...any) {
		r = append(r, Finding{Topic: topic, OK: ok, Detail: fmt.Sprintf(format, args...), Fix: fix})
	}
	if o.Version.IsZero() {
		add("claude", false, "install Claude Code (npm install -g @anthropic-ai/claude-code) or pass --cc-version", "Claude Code release not found (%s)", o.VersionHow)
	} else if band, err := compat.BandOf(o.Version); err != nil {
		add("claude", false, "upgrade Claude Code to "+compat.PluginFloor+" or later", "Claude Code %s: %v", o.Version, err)
	} else {
		add("claude", true, "", "Claude Code %s (band %s; found by %s)", o.Version, band, o.VersionHow)
	}
	own := true // hookwright's own plugin, or none
	if o.PluginRoot != "" {
		r = append(r, plugin(o)...)
		own = programOf(o.PluginRoot) == ownProgram
	}
	for _, s := range o.Settings {
		r = append(r, settingsFile(o, s)...)
	}
	if o.PluginRoot == "" && !hasTopic(r, "settings") {
		add("install", false, "install the plugin (claude plugin install hookwright@hookwright) or run hookgen install --settings user", "no hookwright plugin or settings hooks found")
	}
	if !own {
		return append(r, contract(o)...)
	}
	cfgPath := filepath.Join(o.Project, config.File)
	if _, err := config.Load(o.Project); err != nil {
		add("config", false, "fix or delete "+cfgPath+"; the defaults are used until then", "%v", err)
	} else if _, serr := os.Stat(cfgPath); serr == nil {
		add("config", true, "", "%s is valid", cfgPath)
	} else {
		add("config", true, "", "no %s: the defaults apply", cfgPath)
	}
	r = append(r, contract(o)...)
	add("state", true, "", "journal %s; config and state under %s",
		filepath.Join(o.Project, journal.Dir), filepath.Join(o.Project, config.Dir))
	return r
}

func hasTopic(r Report, topic string) bool {
	for _, f := range r {
		if f.Topic == topic {
			return true
		}
	}
	return false
}

// plugin checks the plugin root: its manifest's band, its binaries against
// the shipped SHA256SUMS, and the binary for this machine.
func plugin(o Options) Report {
	var r Report
	add := func(topic string, ok bool, fix, format string, args ...any) {
		r = append(r, Finding{Topic: topic, OK: ok, Detail: fmt.Sprintf(format, args...), Fix: fix})
	}
	root := o.PluginRoot
	if o.PluginHow != "" {
		add("plugin", true, "", "%s (%s)", root, o.PluginHow)
	}
	r = append(r, installFindings(o)...)
	if !o.Version.IsZero() {
		r = append(r, judged(o)...)
	}
	plat := runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		plat += ".exe"
	}
	var meta struct{ Version string }
	if b, err := readPluginFile(root, filepath.Join(".claude-plugin", "plugin.json")); err == nil {
		_ = json.Unmarshal(b, &meta)
	}
	prog := programOf(root)
	// A build has bin/<prog>-<os>-<arch>; a release ships
	// bin/<prog>-<version>-<os>-<arch>.gz, which the launcher unpacks
	// beside it on first use.
	name := prog + "-" + plat
	if _, err := os.Lstat(filepath.Join(root, "bin", name)); err != nil && meta.Version != "" {
		name = prog + "-" + meta.Version + "-" + plat
	}
	bin := filepath.Join(root, "bin", name)
	if _, err := os.Stat(filepath.Join(root, "bin", prog)); err != nil {
		add("launcher", false, "reinstall the plugin", "no launcher %s", filepath.Join(root, "bin", prog))
	}
	sr, bad := sums(root)
	r = append(r, sr...)
	if bad[name] || bad[name+".gz"] {
		return r // not the shipped binary: doctor does not run it
	}
	run := []string{bin, "version"}
	fi, err := os.Stat(bin)
	if err != nil {
		if gz, gerr := os.Stat(bin + ".gz"); gerr == nil && gz.Mode().IsRegular() {
			// A release ships it compressed: the launcher unpacks and
			// checks it, as the first hook call would.
			run = []string{"sh", filepath.Join(root, "bin", prog), "version"}
			err = nil
			fi = gz
		}
	}
	if err != nil || fi.IsDir() || (run[0] == bin && runtime.GOOS != "windows" && fi.Mode()&0o111 == 0) {
		add("binary", false, "run make plugin (from source) or reinstall a release of the plugin", "no executable binary for %s/%s at %s: hooks will only print a warning", runtime.GOOS, runtime.GOARCH, bin)
		return r
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, run[0], run[1:]...).Output()
	if err != nil {
		add("binary", false, "reinstall the plugin; the binary may be for another platform or damaged", "%s does not run: %v", bin, err)
		return r
	}
	got := strings.TrimSpace(string(out))
	if meta.Version != "" && got != prog+" "+meta.Version {
		add("binary", false, "rebuild with make plugin so the binaries match plugin.json", "%s reports %q but plugin.json says %s", bin, got, meta.Version)
		return r
	}
	add("binary", true, "", "%s/%s: %s (%s)", runtime.GOOS, runtime.GOARCH, bin, got)
	return r
}

// ownProgram is the program of hookwright's own plugin.
const ownProgram = "hookwright"

// programName is a plugin name that can name its launcher and binaries.
var programName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// programOf is the name of the plugin at root's launcher and binaries:
// the name in its plugin.json, or hookwright when it names none that can
// be a file name.
func programOf(root string) string {
	var meta struct{ Name string }
	if b, err := readPluginFile(root, filepath.Join(".claude-plugin", "plugin.json")); err == nil {
		_ = json.Unmarshal(b, &meta)
	}
	if programName.MatchString(meta.Name) && !strings.Contains(meta.Name, "..") {
		return meta.Name
	}
	return ownProgram
}

// reinstallFix is the fix for a plugin file that is not what the release
// of plugin prog shipped.
func reinstallFix(prog string) string {
	if prog == ownProgram {
		return reinstall
	}
	return "reinstall the plugin: claude plugin uninstall " + prog + "@<marketplace>, then claude plugin install " + prog + "@<marketplace> (for a folder marketplace, restore its files first)"
}

// settingsFile checks the hookwright hooks of one settings file.
func settingsFile(o Options, path string) Report {
	data, err := safepath.ReadFollowing(path, maxSettingsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no file: nothing installed there
	}
	if err != nil {
		return Report{{Topic: "settings", Detail: fmt.Sprintf("cannot read %s: %v", path, err), Fix: "make " + path + " a regular JSON file"}}
	}
	var file struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return Report{{Topic: "settings", Detail: fmt.Sprintf("%s: %v", path, err), Fix: "fix the JSON in " + path}}
	}
	var bins []string
	var events []string
	for ev, groups := range file.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if b, ok := hookwrightBin(h.Command); ok {
					bins = append(bins, b)
					events = append(events, ev)
				}
			}
		}
	}
	if len(bins) == 0 {
		return nil
	}
	var r Report
	if !o.Version.IsZero() {
		for _, ev := range events {
			if f, ok := compat.Lookup(compat.KindEvent, ev); !ok || o.Version.Less(f.Version()) {
				r = append(r, Finding{Topic: "settings", Detail: fmt.Sprintf("%s: event %s is unknown to Claude Code %s", path, ev, o.Version),
					Fix: fmt.Sprintf("hookgen install --settings ... --cc-version %s", o.Version)})
			}
		}
	}
	for _, b := range uniq(bins) {
		if _, err := os.Stat(b); err != nil {
			r = append(r, Finding{Topic: "settings", Detail: fmt.Sprintf("%s runs %s, which does not exist", path, b),
				Fix: "install hookwright there or rerun hookgen install with --bin"})
		}
	}
	if len(r) == 0 {
		r = append(r, Finding{Topic: "settings", OK: true, Detail: fmt.Sprintf("%s: %d hookwright hooks running %s", path, len(bins), strings.Join(uniq(bins), ", "))})
	}
	return r
}

// hookwrightBin returns the quoted binary path of a hookwright command.
func hookwrightBin(cmd string) (string, bool) {
	if !strings.HasPrefix(cmd, `"`) {
		return "", false
	}
	end := strings.Index(cmd[1:], `"`)
	if end < 0 {
		return "", false
	}
	p := cmd[1 : end+1]
	base := filepath.Base(p)
	if (base != "hookwright" && base != "hookwright.exe") || strings.Contains(p, "${CLAUDE_PLUGIN_ROOT}") {
		return "", false
	}
	return p, true
}

func uniq(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// maxPluginFile caps every plugin file doctor reads: a manifest or a
// plugin.json is a few KiB.
const maxPluginFile = 16 << 20

// readPluginFile reads rel inside the plugin folder root: opened without
// blocking, a regular file only, at most maxPluginFile bytes, never outside
// root. A named pipe or a device is an error naming the file, not a hang.
func readPluginFile(root, rel string) ([]byte, error) {
	return safepath.ReadFile(safepath.Path{Root: root, Rel: rel}, maxPluginFile)
}

// judged is the oracle's verdict on the whole plugin for the detected
// release, as hookgen validate gives it (oracle.Judge): what the release
// refuses (the plugin, a hooks file it must load, every hook) is a
// problem; drops and lints are not.
func judged(o Options) Report {
	reinstall := reinstallFix(programOf(o.PluginRoot))
	p, err := marketplace.ReadPlugin(o.PluginRoot)
	if err != nil {
		return Report{{Topic: "manifest", Detail: fmt.Sprintf("cannot read the plugin: %v", err), Fix: reinstall}}
	}
	vd, err := oracle.Judge(o.Version, p)
	if err != nil {
		return Report{{Topic: "manifest", Detail: fmt.Sprintf("cannot judge the plugin for Claude Code %s: %v", o.Version, err), Fix: reinstall}}
	}
	var refusals []string
	for _, f := range vd.Findings {
		if f.Consequence == compat.Rejected {
			refusals = append(refusals, f.String())
		}
	}
	if len(refusals) == 0 {
		return Report{{Topic: "manifest", OK: true, Detail: fmt.Sprintf("Claude Code %s loads the plugin as hookgen validate judges it", o.Version)}}
	}
	fix := reinstall
	if prob, ok := installcheck.Check(o.PluginRoot); !ok {
		fix = prob.Fix
	}
	return Report{{Topic: "manifest", Detail: fmt.Sprintf("Claude Code %s would refuse part of the plugin: %s", o.Version, strings.Join(refusals, "; ")), Fix: fix}}
}
