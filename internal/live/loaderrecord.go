package live

import (
	"encoding/json"
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/oracle"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// LoaderRecord is what real releases did with the oracle's fixtures: per
// release, the hooks that ran and what the debug log said about each
// plugin. internal/oracle/testdata/loader.json holds it; TestLoaderShapes
// -update-loader writes it from real releases, and the oracle's tests hold
// hookgen's verdicts to it without running anything.
type LoaderRecord struct {
	Releases map[string]*ReleaseRecord `json:"releases"`
}

// ReleaseRecord is one release's sessions: the fixtures loaded with
// --plugin-dir in one session, and the marketplaces added and installed
// in another.
type ReleaseRecord struct {
	// Registered is "Registered N hooks" of the --plugin-dir session and
	// of the marketplace session.
	Registered            int `json:"registered"`
	MarketplaceRegistered int `json:"marketplaceRegistered"`
	// Fired are the events a control plugin saw fire in the sessions.
	Fired []string `json:"fired"`
	// Plugins are the fixtures by name.
	Plugins map[string]PluginRecord `json:"plugins"`
}

// PluginRecord is what one plugin's hooks and the loader's debug log
// showed in a session.
type PluginRecord struct {
	// Marks are the marks its hooks wrote ("<plugin>.<tag>", one line per
	// run), sorted.
	Marks []string `json:"marks,omitempty"`
	// Log are the loader's lines about the plugin, classified and sorted:
	// "marketplace refused", "plugin refused", "file refused <path>",
	// "file missing", "duplicate file", "entries ignored <n>", "mcp off".
	Log []string `json:"log,omitempty"`
}

// The classes of [PluginRecord.Log].
const (
	LogMarketplaceRefused = "marketplace refused"
	LogPluginRefused      = "plugin refused"
	LogFileRefused        = "file refused "
	LogFileMissing        = "file missing"
	LogDuplicate          = "duplicate file"
	LogIgnored            = "entries ignored "
	LogMCPOff             = "mcp off"
)

// controlPlugin marks every event a session may fire, so a record says
// which events a fixture's hooks had the chance to run on.
const controlPlugin = "zz-fires"

// ControlEvents are the events the control plugin hooks (all known to
// 2.0.30); "Registered N hooks" counts one hook of each.
var ControlEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop", "SessionEnd", "Notification", "PreCompact"}

// markRE finds the mark a fixture's hook command writes.
var markRE = regexp.MustCompile(`echo ([A-Za-z0-9._-]+) >> "\$HW_MARKS"`)

// firingMatcher is the one tool call of the sessions: a PreToolUse or
// PostToolUse group fires when its matcher matches it.
const firingTool = "Bash"

// Predict is what the oracle says a session will show for plugin p on
// release v, given the events that fired: the marks of the hooks it
// registers, and the classified log lines of its verdict.
func Predict(v hooks.Release, name string, p oracle.Plugin, fired []string) (PluginRecord, oracle.Verdict, error) {
	vd, err := oracle.Judge(v, p)
	if err != nil {
		return PluginRecord{}, vd, err
	}
	return predictFrom(vd, name, p, fired), vd, nil
}

// PredictMarketplace is [Predict] for the plugins of one marketplace.
func PredictMarketplace(v hooks.Release, names []string, ps []oracle.Plugin, fired []string) ([]PluginRecord, error) {
	vds, err := oracle.JudgeMarketplace(v, ps)
	if err != nil {
		return nil, err
	}
	out := make([]PluginRecord, len(ps))
	for i := range ps {
		out[i] = predictFrom(vds[i], names[i], ps[i], fired)
	}
	return out, nil
}

// predictFrom turns a verdict into the record a session would show.
func predictFrom(vd oracle.Verdict, name string, p oracle.Plugin, fired []string) PluginRecord {
	var r PluginRecord
	switch vd.Refused() {
	case compat.RefusesMarketplace:
		r.Log = []string{LogMarketplaceRefused}
		return r
	case compat.RefusesPlugin:
		r.Log = []string{LogPluginRefused}
		return r
	}
	for _, h := range vd.Hooks {
		if !slices.Contains(fired, h.Event) {
			continue
		}
		doc := docOf(p, h.File)
		if doc == nil {
			continue
		}
		if h.Event == "PreToolUse" || h.Event == "PostToolUse" {
			if !matches(groupMatcher(doc, h.Pointer), firingTool) {
				continue
			}
		}
		if m := markRE.FindStringSubmatch(commandAt(doc, h.Pointer)); m != nil {
			r.Marks = append(r.Marks, m[1])
		}
	}
	sort.Strings(r.Marks)
	ignored := 0
	files := map[string]bool{}
	for _, f := range vd.Findings {
		switch {
		case f.Consequence == compat.Rejected && f.Refuses == compat.RefusesFile, f.Rule == compat.RuleLaterFile:
			files[fileOf(f.File)] = true
		case f.Rule == compat.RuleHooksFileMissing:
			r.Log = appendOnce(r.Log, LogFileMissing)
		case f.Rule == compat.RuleNamedTwice && vd.LoadError(f):
			r.Log = appendOnce(r.Log, LogDuplicate)
		case f.Rule == compat.RuleStandardHooks && vd.LoadError(f):
			r.Log = appendOnce(r.Log, LogDuplicate)
		case f.Consequence == compat.Dropped && (f.Rule == compat.RuleUnknownEvent || f.Rule == compat.RuleEntryInvalid) &&
			!vd.Release.Less(hooks.MustRelease(compat.EntriesTolerated)):
			ignored++
		}
	}
	for f := range files {
		r.Log = append(r.Log, LogFileRefused+f)
	}
	if ignored > 0 {
		r.Log = append(r.Log, fmt.Sprintf("%s%d", LogIgnored, ignored))
	}
	for _, f := range vd.Findings {
		if vd.LoadError(f) {
			r.Log = append(r.Log, LogMCPOff)
			break
		}
	}
	sort.Strings(r.Log)
	return r
}

// appendOnce appends s unless list holds it.
func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// fileOf is a finding's file as a path in the plugin folder.
func fileOf(f oracle.File) string {
	if f == oracle.HooksJSON {
		return oracle.StandardHooks
	}
	return oracle.CleanPath(string(f))
}

// docOf returns the decoded file a hook was read from.
func docOf(p oracle.Plugin, f oracle.File) any {
	var b []byte
	switch f {
	case oracle.HooksJSON:
		b = p.Hooks
	case oracle.PluginJSON:
		b = p.Manifest
	case oracle.MarketplaceJSON:
		b = p.Entry
	default:
		b = p.Files[oracle.CleanPath(string(f))]
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	return v
}

// at follows a JSON pointer.
func at(doc any, pointer string) any {
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch t := doc.(type) {
		case map[string]any:
			doc = t[tok]
		case []any:
			var i int
			if _, err := fmt.Sscan(tok, &i); err != nil || i < 0 || i >= len(t) {
				return nil
			}
			doc = t[i]
		default:
			return nil
		}
	}
	return doc
}

// commandAt is the command of the handler at pointer.
func commandAt(doc any, pointer string) string {
	h, _ := at(doc, pointer).(map[string]any)
	s, _ := h["command"].(string)
	return s
}

// groupMatcher is the matcher of the group holding the handler at
// pointer (".../<group>/hooks/<i>").
func groupMatcher(doc any, pointer string) string {
	i := strings.LastIndex(pointer, "/hooks/")
	if i < 0 {
		return ""
	}
	g, _ := at(doc, pointer[:i]).(map[string]any)
	s, _ := g["matcher"].(string)
	return s
}

// matches reports whether a matcher matches tool as the releases match:
// empty or "*" matches everything, else the pattern must match the whole
// name.
func matches(matcher, tool string) bool {
	if matcher == "" || matcher == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	return err == nil && re.MatchString(tool)
}

// Classify reads a session's debug log and returns, per plugin name, the
// classified lines about it (see [PluginRecord.Log]).
func Classify(debugLog string, names []string) map[string][]string {
	out := map[string][]string{}
	lines := logEntries(debugLog)
	dups := map[string]bool{} // the releases' duplicate error names only the file
	for _, m := range duplicateRE.FindAllStringSubmatch(debugLog, -1) {
		for _, seg := range strings.Split(m[1], "/") {
			dups[seg] = true
		}
	}
	for _, name := range names {
		re := regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])` + regexp.QuoteMeta(name) + `(?:[^A-Za-z0-9_-]|$)`)
		var got []string
		ignored := map[string]bool{}
		files := map[string]bool{}
		for _, l := range lines {
			if !re.MatchString(l) {
				continue
			}
			switch {
			case strings.Contains(l, "Plugin loading errors") || strings.Contains(l, "Checking plugin"):
				// summaries repeat the lines below
			case strings.Contains(l, "has an invalid manifest file") || strings.Contains(l, "Failed to load session plugin") ||
				strings.Contains(l, "This is a conflict"):
				got = appendOnce(got, LogPluginRefused)
			case strings.Contains(l, "Failed to load hooks for "):
				files[oracle.StandardHooks] = true
			case failedFromRE.MatchString(l):
				files[oracle.CleanPath(failedFromRE.FindStringSubmatch(l)[1])] = true
			case strings.Contains(l, "Hooks file ") && strings.Contains(l, "specified in manifest but not found"):
				got = appendOnce(got, LogFileMissing)
			case strings.Contains(l, "Duplicate hooks file detected"):
				got = appendOnce(got, LogDuplicate)
			case strings.Contains(l, "entry ignored") && strings.Contains(l, "Plugin "+name+":"):
				ignored[l[strings.Index(l, "Plugin "+name+":"):]] = true // a line repeated by a second load counts once
			case strings.Contains(l, "Plugin not available for MCP: "+name+"@"):
				got = appendOnce(got, LogMCPOff)
			}
		}
		if dups[name] {
			got = appendOnce(got, LogDuplicate)
		}
		if slices.Contains(got, LogPluginRefused) {
			got = []string{LogPluginRefused}
		} else {
			for f := range files {
				got = append(got, LogFileRefused+f)
			}
			if len(ignored) > 0 {
				got = append(got, fmt.Sprintf("%s%d", LogIgnored, len(ignored)))
			}
		}
		sort.Strings(got)
		out[name] = got
	}
	return out
}

// entryStart matches what starts each debug log entry: a time stamp
// (2.1.x) and the level ("[DEBUG]"; 2.0.30 writes the level alone).
var entryStart = regexp.MustCompile(`^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\S* )?\[(?:DEBUG|INFO|WARN|ERROR)\]`)

// logEntries splits a debug log into entries: a line with a timestamp and
// the lines that continue it.
func logEntries(debugLog string) []string {
	var out []string
	for _, l := range strings.Split(debugLog, "\n") {
		if entryStart.MatchString(l) || len(out) == 0 {
			out = append(out, l)
			continue
		}
		out[len(out)-1] += "\n" + l
	}
	return out
}

// duplicateRE is the loader's error for a hooks file loaded twice.
var duplicateRE = regexp.MustCompile(`Duplicate hooks file detected: \S+ resolves to already-loaded file ([^\s;]+)`)

// failedFromRE is the loader's line for a named hooks file it refuses.
var failedFromRE = regexp.MustCompile(`Failed to load hooks from (\S+) for `)
