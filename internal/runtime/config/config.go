// Package config loads hookwright's configuration: the built-in defaults,
// the user config ($XDG_CONFIG_HOME/hookwright/config.json, applied in
// full) and the project's .hookwright/config.json, which may only tighten
// the guard and the journal unless the user config trusts the project
// (layers.go).
//
// A missing file means the defaults. An invalid file (bad JSON, an unknown
// key, a key in the wrong case, data after the object, null, a bad value)
// is reported and the defaults are used, so a typo never blocks work by
// accident; only a gate whose own section says "fail": "closed" blocks when
// it cannot decide. The file is read as package safepath reads every file:
// inside the project, without blocking, regular files only, at most
// [MaxSize] bytes; a FIFO, a device or a symlink out of the project is an
// invalid file like any other.
//
// Example .hookwright/config.json (every key optional):
//
//	{
//	  "guard":     {"enabled": true, "level": "standard", "fail": "open",
//	                "deny": ["terraform destroy"], "protect": ["migrations/*.sql"],
//	                "secrets": ["~/.config/acme/token"], "rules": {"git-stash-drop": "block"},
//	                "commands": [{"match": "kubectl delete", "severity": "ask"}],
//	                "tools": {"WebFetch(domain:*.example.com)": "deny", "WebSearch": "ask",
//	                          "mcp__github__*": "ask", "Task": "allow"}},
//	  "artifacts": {"enabled": true, "root": ".agent/teams", "fail": "open",
//	                "files": [{"name": "L1-index.yaml", "min_bytes": 50},
//	                          {"name": "L2-summary.md", "min_bytes": 100}]},
//	  "scratchpad": {"enabled": true, "dir": ".claude/scratchpad", "fail": "open", "max_blocks": 5,
//	                 "coordinator": "coordinator", "ego": "ego",
//	                 "headings": ["What I did", "Cross-agent observations", "Unresolved"]},
//	  "pdca":      {"enabled": true, "state": ".hookwright/pdca.json", "automation": "semi"},
//	  "work":      {"mode": "strict", "auto_create": true},
//	  "journal":   {"enabled": true},
//	  "native":    {"switch": true},        (ignored: kept so older configs stay valid)
//	  "loop":      {"enabled": false, "check": "make test", "promise": "DONE",
//	                "max_rounds": 5, "stall_rounds": 3, "timeout": 60, "subagents": false},
//	  "compact":   {"enabled": true, "keep": 20},
//	  "team":      {"enabled": true},
//	  "quality":   {"lint": false, "format": false}
//	}
//
// The team workflows (scratchpad, artifacts, pdca, work, loop) are off
// unless a config file turns them on or the project already uses the
// workflow's own folder; package workflow decides, from the merged config
// and the keys each layer set ([Layers.Keys]).
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/hookwright/hookwright/internal/jsonerr"
	"github.com/hookwright/hookwright/internal/packs"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/toolrule"
)

// Dir is the project-relative folder that holds config and state.
const Dir = safepath.StateDir

// File is the project-relative path of the config file.
const File = Dir + "/config.json"

// MaxSize caps the config file: 1 MiB.
const MaxSize = 1 << 20

// Fail says what a gate does when it cannot decide.
type Fail string

// The fail policies.
const (
	FailOpen   Fail = "open"   // let the work go on (the default)
	FailClosed Fail = "closed" // block, saying why
)

// Config is the whole project configuration.
type Config struct {
	Guard      Guard      `json:"guard"`
	Artifacts  Artifacts  `json:"artifacts"`
	Scratchpad Scratchpad `json:"scratchpad"`
	PDCA       PDCA       `json:"pdca"`
	Work       Work       `json:"work"`
	Journal    Journal    `json:"journal"`
	Native     Native     `json:"native"`
	Loop       Loop       `json:"loop"`
	Compact    Compact    `json:"compact"`
	Team       Team       `json:"team"`
	Quality    Quality    `json:"quality"`
}

// Quality configures the checks after an edit (package quality): the
// project's formatter and its linter on the file Write, Edit or MultiEdit
// just changed, the findings fed back to the model.
type Quality struct {
	// Lint runs the linter or diagnostics command for the file's type;
	// Format runs its formatter, in place. Each is off by default.
	Lint   bool `json:"lint"`
	Format bool `json:"format"`
	// Commands add formatters and linters. A project's config may add
	// them only where the user's own config trusts the project; without
	// that trust they are reported and ignored, because a cloned
	// repository must not run commands on the next edit.
	Commands []QualityCommand `json:"commands,omitempty"`
	// Timeout is the time budget in seconds for all the tools of one edit
	// in the synchronous call, which holds the model: 0 means 4, at most
	// MaxQualityTimeout (the plugin's PostToolUse hook has 10 s).
	Timeout int `json:"timeout,omitempty"`
	// AsyncTimeout is the budget in seconds of the asynchronous call, which
	// runs the linters in the background on releases with async hooks
	// (2.1.15+): 0 means 60, at most MaxQualityAsyncTimeout.
	AsyncTimeout int `json:"async_timeout,omitempty"`
}

// MaxQualityTimeout caps quality.timeout, in seconds.
const MaxQualityTimeout = 8

// MaxQualityAsyncTimeout caps quality.async_timeout, in seconds; the
// asynchronous registration's own timeout in hooks.json is 300 s.
const MaxQualityAsyncTimeout = 280

// QualityCommand is one added formatter or linter: argv, never a shell.
type QualityCommand struct {
	// Match is a glob on the file's base name, e.g. "*.go".
	Match string `json:"match"`
	// Format and Lint are argv lists; "{file}" stands for the edited
	// file's absolute path.
	Format []string `json:"format,omitempty"`
	Lint   []string `json:"lint,omitempty"`
}

// Guard configures the security guard (package guard).
type Guard struct {
	Enabled bool `json:"enabled"`
	// Level is "standard" (the default), "strict" or "paranoid". The
	// environment variable HOOKWRIGHT_GUARD_LEVEL may raise it for a
	// session, never lower it.
	Level GuardLevel `json:"level"`
	// Fail is what the guard does when it cannot check a call (a command
	// over its length cap, an unreadable tool input).
	Fail Fail `json:"fail"`
	// Deny adds substrings that block a Bash command.
	Deny []string `json:"deny,omitempty"`
	// Protect adds path globs (matched against the project-relative path
	// and the base name) that Write and Edit may not touch.
	Protect []string `json:"protect,omitempty"`
	// Secrets adds path globs the guard treats as secrets, next to its
	// built-in set: "~/" anchors at the home folder, "/" at the root, a
	// trailing "/" names a folder and all below it; any other glob matches
	// the path's last elements.
	Secrets []string `json:"secrets,omitempty"`
	// Rules sets the severity ("block", "ask" or "allow") of built-in rules
	// by name. A rule that guards secrets, the home folder or shared
	// history can be raised, never lowered; see hwctl explain.
	Rules map[string]string `json:"rules,omitempty"`
	// Commands adds rules: a simple command whose words start with Match
	// (wherever the guard finds it: behind wrappers, in sh -c strings) gets
	// Severity with Reason.
	Commands []GuardCommand `json:"commands,omitempty"`
	// Tools allows, asks for or denies tools by name or pattern, in Claude
	// Code's permission-rule spelling ("WebFetch(domain:*.example.com)",
	// "mcp__github__*", "Bash(npm run test:*)"): each key maps to "allow",
	// "ask" or "deny"; deny > ask > allow whatever the order. The guard
	// package documents the subset it reads (guard.ParseToolRule).
	Tools map[string]string `json:"tools,omitempty"`
	// Packs sets the severity ("off", "ask" or "block") of the guard's rule
	// packs, by pack ("database") or by rule ("database.drop"); a rule's
	// own entry wins over its pack's. hwctl guard packs lists them.
	Packs map[string]string `json:"packs,omitempty"`
	// MCP says what an MCP server's tools do, so that the guard judges
	// their input by the rules of the built-in tool each acts like: keys
	// name tools in Claude Code's rule spelling ("mcp__db__query",
	// "mcp__fs__*", "mcp__shell"); values name the tool and the input
	// fields ("Bash(command)", "Write(path)", "SQL(sql)", "Move(from, to)",
	// "HTTP(url, method)", "Delete(path)", "Read(path)", or "Local"). A
	// project's config may set it only when the user's config trusts the
	// project.
	MCP map[string]string `json:"mcp,omitempty"`
}

// GuardLevel is how much the guard blocks.
type GuardLevel string

// The guard levels, weakest first.
const (
	GuardStandard GuardLevel = "standard"
	GuardStrict   GuardLevel = "strict"
	GuardParanoid GuardLevel = "paranoid"
)

// GuardCommand is a project rule for a command.
type GuardCommand struct {
	// Match is the command's first words, e.g. "terraform destroy".
	Match string `json:"match"`
	// Severity is "block" or "ask".
	Severity string `json:"severity"`
	// Reason is what the model reads.
	Reason string `json:"reason,omitempty"`
}

// ArtifactFile is one deliverable a teammate must leave.
type ArtifactFile struct {
	Name     string `json:"name"`
	MinBytes int64  `json:"min_bytes"`
}

// Artifacts configures the L1/L2 artifact gate (package artifacts) and
// the GC-version injection (package teamctx). It is a workflow: off unless
// "enabled" is true, the section is configured, or the project has the
// artifacts root (package workflow).
type Artifacts struct {
	Enabled bool `json:"enabled"`
	// Root is the project-relative folder of the team folders; the GC
	// injection (package teamctx) reads {root}/{team}/global-context.md.
	Root string `json:"root"`
	// Files are the deliverables each teammate leaves in a {teammate} folder.
	Files []ArtifactFile `json:"files"`
	// Fail is what the gate does when it cannot check (an unsafe name, an
	// unreadable folder).
	Fail Fail `json:"fail"`
}

// Scratchpad configures the scratchpad chain (package scratchpad). It is a
// workflow: off unless "enabled" is true, the section is configured, or the
// project keeps ego notes in the scratchpad folder (package workflow).
type Scratchpad struct {
	Enabled bool `json:"enabled"`
	// Dir is the project-relative folder of the per-agent scratchpads.
	Dir string `json:"dir"`
	// Coordinator and Ego name the folders of the main session's notes and
	// of the ego assessment.
	Coordinator string `json:"coordinator"`
	Ego         string `json:"ego"`
	// Headings must all appear, as Markdown headings, in a subagent's
	// scratchpad before it may stop.
	Headings []string `json:"headings"`
	// Fail is what the stop gates do when they cannot check, and, when
	// "closed", whether they keep blocking an agent that stops again
	// without its scratchpad (stop_hook_active): at most MaxBlocks times.
	Fail Fail `json:"fail"`
	// MaxBlocks bounds, with Fail "closed", the stops of one agent the
	// gates block in a row; the next stop goes through and says so, so an
	// agent that cannot write is not held forever.
	MaxBlocks int `json:"max_blocks"`
}

// MaxScratchpadBlocks caps scratchpad.max_blocks.
const MaxScratchpadBlocks = 100

// PDCA configures task auto-advance. It is a workflow: off unless
// "enabled" is true, the section is configured, or the project keeps the
// PDCA documents' folder (package workflow).
type PDCA struct {
	Enabled bool   `json:"enabled"`
	State   string `json:"state"`
	// Automation is manual, semi (the default) or full.
	Automation Automation `json:"automation"`
}

// WorkMode is how strictly edits must belong to a work unit.
type WorkMode string

// The work-tracking modes.
const (
	WorkStrict WorkMode = "strict" // block edits outside a work unit
	WorkWarn   WorkMode = "warn"   // tell the model, do not block
	WorkOff    WorkMode = "off"
)

// Work configures work-unit tracking. It is a workflow: "off" by default;
// a config that names a mode, or has a work section, turns it on (package
// workflow).
type Work struct {
	Mode WorkMode `json:"mode"`
	// AutoCreate (PAL Kit's tracking.auto_create): a strict block proposes
	// a ready command that opens a unit under a generated id (true, the
	// default); false says only how to start one.
	AutoCreate bool `json:"auto_create"`
}

// Journal configures the per-call event log.
type Journal struct {
	Enabled bool `json:"enabled"`
}

// Native is read so that a config written for an earlier release stays
// valid, and does nothing: the runtime no longer rewrites the installed
// manifest for the running release (one install serves every release at
// once; see manifests.BuildInstall).
type Native struct {
	// Switch is ignored.
	Switch bool `json:"switch"`
}

// Default returns the configuration used when there is no file: the
// guard, the journal and the records on; the team workflows off (package
// workflow turns them on where the project asks).
func Default() Config {
	return Config{
		Guard: Guard{Enabled: true, Level: GuardStandard, Fail: FailOpen},
		Artifacts: Artifacts{
			Root:  ".agent/teams",
			Files: []ArtifactFile{{"L1-index.yaml", 50}, {"L2-summary.md", 100}},
			Fail:  FailOpen,
		},
		Scratchpad: Scratchpad{
			Dir:         ".claude/scratchpad",
			Coordinator: "coordinator",
			Ego:         "ego",
			Headings:    []string{"What I did", "Cross-agent observations", "Unresolved"},
			Fail:        FailOpen,
			MaxBlocks:   5,
		},
		PDCA:    PDCA{State: Dir + "/pdca.json", Automation: AutomationSemi},
		Work:    Work{Mode: WorkOff, AutoCreate: true},
		Journal: Journal{Enabled: true},
		Native:  Native{Switch: true},
		Loop:    Loop{MaxRounds: 5, StallRounds: 3, Timeout: 60},
		Compact: Compact{Enabled: true, Keep: 20},
		Team:    Team{Enabled: true},
	}
}

// Load returns the config of the project at dir, its layers merged as
// [LoadLayers] merges them with the process's environment.
func Load(dir string) (Config, error) {
	l, err := LoadLayers(dir, nil)
	return l.Config, err
}

// LoadProject reads the config of the project at dir alone, over the
// defaults, with no user layer and no tightening. It always returns a
// usable Config: on error, the defaults, with an error that says what was
// wrong and where.
func LoadProject(dir string) (Config, error) {
	cfg := Default()
	if dir == "" {
		return cfg, nil
	}
	path := filepath.Join(dir, File)
	data, err := safepath.ReadFile(safepath.Path{Root: dir, Rel: filepath.FromSlash(File)}, MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("config %w (using defaults)", err)
	}
	parsed, err := Parse(data)
	if err != nil {
		return cfg, fmt.Errorf("config %s: %w (using defaults)", path, err)
	}
	return parsed, nil
}

// Parse decodes a config file over the defaults and validates it. It is
// strict where encoding/json is lenient: see [Strict].
func Parse(data []byte) (Config, error) {
	cfg := Default()
	if err := Strict(data, &cfg); err != nil {
		return Default(), err
	}
	if err := cfg.Validate(); err != nil {
		return Default(), err
	}
	return cfg, nil
}

// Validate reports the first value that makes no sense.
func (c Config) Validate() error {
	for _, f := range []struct {
		name string
		v    Fail
	}{{"guard.fail", c.Guard.Fail}, {"artifacts.fail", c.Artifacts.Fail}, {"scratchpad.fail", c.Scratchpad.Fail}} {
		if f.v != FailOpen && f.v != FailClosed {
			return fmt.Errorf("%s: %q is not \"open\" or \"closed\"", f.name, f.v)
		}
	}
	switch c.Guard.Level {
	case GuardStandard, GuardStrict, GuardParanoid:
	default:
		return fmt.Errorf("guard.level: %q is not \"standard\", \"strict\" or \"paranoid\"", c.Guard.Level)
	}
	for name, sev := range c.Guard.Rules {
		if sev != "block" && sev != "ask" && sev != "allow" {
			return fmt.Errorf("guard.rules.%s: %q is not \"block\", \"ask\" or \"allow\"", name, sev)
		}
	}
	if err := packs.Validate(c.Guard.Packs); err != nil {
		return err
	}
	for i, r := range c.Guard.Commands {
		if len(strings.Fields(r.Match)) == 0 {
			return fmt.Errorf("guard.commands[%d].match: empty", i)
		}
		if r.Severity != "block" && r.Severity != "ask" {
			return fmt.Errorf("guard.commands[%d].severity: %q is not \"block\" or \"ask\"", i, r.Severity)
		}
	}
	if err := c.validateMCP(); err != nil {
		return err
	}
	if err := c.validateTools(); err != nil {
		return err
	}
	if c.Quality.Timeout < 0 || c.Quality.Timeout > MaxQualityTimeout {
		return fmt.Errorf("quality.timeout: %d is not 0 to %d seconds", c.Quality.Timeout, MaxQualityTimeout)
	}
	if c.Quality.AsyncTimeout < 0 || c.Quality.AsyncTimeout > MaxQualityAsyncTimeout {
		return fmt.Errorf("quality.async_timeout: %d is not 0 to %d seconds", c.Quality.AsyncTimeout, MaxQualityAsyncTimeout)
	}
	for i, q := range c.Quality.Commands {
		if _, err := filepath.Match(q.Match, "x"); err != nil || strings.TrimSpace(q.Match) == "" {
			return fmt.Errorf("quality.commands[%d].match: %q is not a file name glob", i, q.Match)
		}
		if len(q.Format) == 0 && len(q.Lint) == 0 {
			return fmt.Errorf("quality.commands[%d]: neither format nor lint", i)
		}
		for _, argv := range [][]string{q.Format, q.Lint} {
			if len(argv) > 0 && strings.TrimSpace(argv[0]) == "" {
				return fmt.Errorf("quality.commands[%d]: an empty program name", i)
			}
		}
	}
	for i, p := range c.Guard.Secrets {
		if strings.TrimSpace(p) == "" {
			return fmt.Errorf("guard.secrets[%d]: empty", i)
		}
	}
	if c.Scratchpad.MaxBlocks < 1 || c.Scratchpad.MaxBlocks > MaxScratchpadBlocks {
		return fmt.Errorf("scratchpad.max_blocks: %d is not between 1 and %d", c.Scratchpad.MaxBlocks, MaxScratchpadBlocks)
	}
	switch c.Work.Mode {
	case WorkStrict, WorkWarn, WorkOff:
	default:
		return fmt.Errorf("work.mode: %q is not \"strict\", \"warn\" or \"off\"", c.Work.Mode)
	}
	for i, a := range c.Artifacts.Files {
		if a.Name == "" || filepath.Base(a.Name) != a.Name {
			return fmt.Errorf("artifacts.files[%d].name: %q must be a plain file name", i, a.Name)
		}
		if a.MinBytes < 0 {
			return fmt.Errorf("artifacts.files[%d].min_bytes: must not be negative", i)
		}
	}
	for name, p := range map[string]string{"artifacts.root": c.Artifacts.Root, "scratchpad.dir": c.Scratchpad.Dir, "pdca.state": c.PDCA.State} {
		if p == "" || filepath.IsAbs(p) || !filepath.IsLocal(p) {
			return fmt.Errorf("%s: %q must be a relative path inside the project", name, p)
		}
	}
	return c.validateLifecycle()
}

// Strict decodes the one JSON object in data into v, a pointer to a struct,
// and rejects what encoding/json lets through: a key that matches no json
// tag exactly (encoding/json matches keys without regard to case, so
// {"Guard":{"Enabled":false}} would silently apply), a key given twice,
// null where an object is expected (the whole file, or a section), and
// anything after the object. The rules come from v's type alone, so a new
// section needs no change here.
func Strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("the file is empty; write {} for the defaults")
		}
		return jsonerr.Describe(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("data after the config object at byte %d", dec.InputOffset())
	}
	t := reflect.TypeOf(v)
	if t.Kind() != reflect.Pointer {
		return fmt.Errorf("config.Strict: %T is not a pointer", v)
	}
	if err := checkKeys(raw, t.Elem(), ""); err != nil {
		return err
	}
	dec = json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return jsonerr.Describe(dec.Decode(v))
}

// checkKeys walks raw along t and reports the first key that matches no
// json tag exactly, a duplicate key, or a null object.
func checkKeys(raw json.RawMessage, t reflect.Type, at string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	raw = bytes.TrimSpace(raw)
	switch t.Kind() {
	case reflect.Struct:
		if string(raw) == "null" {
			if at == "" {
				return errors.New("the config is null, not an object; write {} for the defaults")
			}
			return fmt.Errorf("%s: null is not an object; leave the key out for the defaults", at)
		}
		keys, err := objectKeys(raw)
		if err != nil {
			return fmt.Errorf("%s%w", prefix(at), err)
		}
		fields := tagFields(t)
		for _, kv := range keys {
			f, ok := fields[kv.key]
			if !ok {
				for name := range fields {
					if strings.EqualFold(name, kv.key) {
						return fmt.Errorf("%sunknown key %q (keys are case-sensitive: did you mean %q?)", prefix(at), kv.key, name)
					}
				}
				return fmt.Errorf("%sunknown key %q", prefix(at), kv.key)
			}
			if err := checkKeys(kv.value, f, join(at, kv.key)); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil // not an array: the decoder says why
		}
		for i, item := range items {
			if err := checkKeys(item, t.Elem(), fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		var items map[string]json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		for k, item := range items {
			if err := checkKeys(item, t.Elem(), join(at, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

type keyValue struct {
	key   string
	value json.RawMessage
}

// objectKeys returns the members of the JSON object raw in order, and an
// error for a key given twice or raw that is not an object.
func objectKeys(raw json.RawMessage) ([]keyValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("%s is not an object", raw)
	}
	var out []keyValue
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, fmt.Errorf("key %q given twice", key)
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, keyValue{key, v})
	}
	return out, nil
}

// tagFields maps the json names of t's exported fields to their types.
func tagFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

// prefix names the place of a problem: "guard: ", or nothing at the top.
func prefix(at string) string {
	if at == "" {
		return ""
	}
	return at + ": "
}

// validateTools checks guard.tools: every key a rule [toolrule.Parse]
// reads, every value allow, ask or deny.
func (c Config) validateTools() error {
	keys := make([]string, 0, len(c.Guard.Tools))
	for k := range c.Guard.Tools {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !toolrule.ValidDecision(c.Guard.Tools[k]) {
			return fmt.Errorf("guard.tools[%q]: %q is not \"allow\", \"ask\" or \"deny\"", k, c.Guard.Tools[k])
		}
		if _, err := toolrule.Parse(k); err != nil {
			return fmt.Errorf("guard.tools: %w", err)
		}
	}
	return nil
}

// validateMCP checks guard.mcp: every key a rule naming MCP tools, every
// value an action [toolrule.ParseAction] reads.
func (c Config) validateMCP() error {
	keys := make([]string, 0, len(c.Guard.MCP))
	for k := range c.Guard.MCP {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r, err := toolrule.Parse(k)
		if err != nil {
			return fmt.Errorf("guard.mcp: %w", err)
		}
		if !r.MCPTool() {
			return fmt.Errorf("guard.mcp[%q]: name MCP tools (mcp__server, mcp__server__tool, mcp__server__*)", k)
		}
		if _, err := toolrule.ParseAction(c.Guard.MCP[k]); err != nil {
			return fmt.Errorf("guard.mcp[%q]: %w", k, err)
		}
	}
	return nil
}
