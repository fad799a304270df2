// Package guard is hookwright's security guard: it reads a tool call and
// decides whether to stop it, because it is one of the calls a user fears
// most, and says why in words that name the rule, so a user can look it up
// with `hwctl explain`. It is the decision engine only: package
// internal/handlers/guardhook serves it as the PreToolUse handler, and hwctl
// explain runs it to say what it would decide.
//
// It reads a Bash command as a shell does, with package shell: quoting,
// lists and pipelines, subshells, substitutions, heredocs, the strings
// given to sh -c and eval, wrappers such as sudo, env, nohup, timeout and
// xargs, and the inline code given to python, node, ruby and perl. Every
// simple command found that way is checked; a command the parser cannot
// read is judged on its words, never allowed because it did not parse.
//
// What it guards (the rule names are in [Rules]):
//
//   - shared history: force pushes in every spelling, deleting the
//     default branch on the remote;
//   - uncommitted work: git reset --hard and --merge, git checkout --,
//     git restore, git clean -f, git stash clear; git branch -D and git
//     stash drop ask;
//   - the file system: recursive deletes of /, the home folder, any path
//     outside the project and the temp folders, and the project root
//     itself; mkfs and dd onto devices; downloads piped into a shell;
//   - secrets: SSH private keys, cloud and registry credentials, .netrc,
//     .git-credentials, Docker and kube config, GPG keys, Claude Code's
//     credentials and .env files, for Read, Grep, Glob, the edit tools and
//     every Bash command, after ~, $HOME, .. and symlinks are resolved;
//   - persistence: writes to shell start-up files, editor and tool rc
//     files, ~/.local/bin, authorized_keys, ~/.ssh/config, git hooks,
//     .envrc, .mcp.json and cron; file-tool writes elsewhere outside the
//     project ask;
//   - its own ground (ground.go): hookwright's config, journal and state,
//     the user config, the installed plugin and Claude Code's settings, for
//     every write, delete, move, truncation and permission change through
//     any tool; reads stay allowed;
//   - single files outside the project: a system file deleted, emptied or
//     overwritten blocks, any other file asks.
//   - shared state, through rule packs (package packs, one JSON table
//     per pack): databases (SQL wherever a client reads it), clusters and
//     infrastructure as code, clouds, containers, hosted platforms,
//     payments, HTTP DELETE, publishing, git history, the machine,
//     exfiltration, and an unknown program with a destructive verb and a
//     production target. What a user may mean asks; what no one means
//     from an agent blocks. guard.packs sets a pack or one rule to off,
//     ask or block.
//   - the model of harm (model.go, pack "model"): any command judged by
//     what it does, whoever made the program: a destructive verb in the
//     subcommand path of a CLI that manages shared state, a destructive
//     HTTP call, a copy that deletes, another host's system folders,
//     exposure, capacity taken away, a change that makes a later command
//     destructive, code no one has read, an API client's destructive call.
//     The packs are names and spellings on top of it.
//   - MCP tools (mcp.go), judged as the built-in tool each acts like (a
//     command, SQL, a file, an HTTP request), by its name and input or by
//     the user's guard.mcp; an unknown tool whose name says it destroys
//     asks.
//
// guard.level raises what it blocks: "strict" also blocks in-project
// recursive deletes, metadata reads of secrets and unreadable commands that
// name a guarded program; "paranoid" also blocks every interpreter
// one-liner. The environment variable HOOKWRIGHT_GUARD_LEVEL may raise the
// level for a session, never lower it. A config adds deny substrings,
// protected paths, secret paths and command rules, and sets the severity
// of adjustable rules; it cannot lower a rule that guards secrets, the
// home folder, shared history or the guard's ground. (Package config
// keeps a project config from loosening what the user config and the
// defaults set, unless the user trusts the project.)
//
// Its cost is bounded: a keyword prefilter passes a command that names no
// guarded program without parsing it, the deny list is compiled once into
// one automaton, and a command longer than [MaxCommand] is a fault, which
// blocks when guard.fail is "closed".
package guard

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/toolinput"
)

// MaxCommand is the longest Bash command the guard reads: the runtime's
// input cap. A longer one is a fault.
const MaxCommand = hooks.DefaultMaxInput

// LevelEnv names the environment variable that may raise guard.level for
// a session.
const LevelEnv = "HOOKWRIGHT_GUARD_LEVEL"

// Tools is the PreToolUse matcher the guard's handler is registered
// with: every tool, so that guard.tools reaches WebFetch, WebSearch, Task and MCP
// tools. Its command and path rules judge the tools in CommandTools and
// ReadTools; any other tool costs a lookup in guard.tools.
const Tools = ""

// The tools the guard's command and path rules read.
const (
	CommandTools = "Bash|Write|Edit|MultiEdit"
	ReadTools    = "Read|Grep|Glob|NotebookEdit"
)

// Guard decides tool calls ([Guard.Check]). Make one with [New]; its zero
// value is a disabled guard.
type Guard struct {
	Config config.Guard
	// Getenv reads the environment (HOME, TMPDIR, the level variable);
	// nil means os.Getenv.
	Getenv func(string) string
	// ProjectDir is the project folder; "" means the event's
	// CLAUDE_PROJECT_DIR or cwd.
	ProjectDir string

	once sync.Once
	deny *matcher
}

// New returns a guard for cfg.
func New(cfg config.Guard) *Guard { return &Guard{Config: cfg} }

// Finding is one rule that matched.
type Finding struct {
	Rule string `json:"rule"`
	// Pack is the rule pack the rule belongs to, or "" for a built-in
	// rule.
	Pack string `json:"pack,omitempty"`
	// Model is the part of the model of harm that found it (a rule of
	// pack "model"), or "".
	Model    string `json:"model,omitempty"`
	Severity string `json:"severity"`
	Reason   string `json:"reason"`
	// Command is the index in Report.Commands of the command that matched,
	// or -1.
	Command int `json:"command"`
	// Path is the resolved path the rule judged, if any.
	Path string `json:"path,omitempty"`
}

// Step is one simple command as the guard read it.
type Step struct {
	Words    []string `json:"words"`
	Via      string   `json:"via,omitempty"`
	Depth    int      `json:"depth"`
	Wrappers []string `json:"wrappers,omitempty"`
	Stdin    bool     `json:"stdin,omitempty"`
	Paths    []Path   `json:"paths,omitempty"`
}

// Path is one path the guard resolved.
type Path struct {
	Arg      string `json:"arg"`
	Resolved string `json:"resolved"`
	// Use is how the call uses it: read, write, delete, metadata.
	Use string `json:"use"`
	// Class is what the guard found the path to be: secret, secret
	// folder, persistence, git hooks, outside project, …, or "".
	Class string `json:"class,omitempty"`
}

// Report is how the guard read one call, step by step: what
// `hwctl explain` prints.
type Report struct {
	Tool    string `json:"tool"`
	Input   string `json:"input"`
	Level   string `json:"level"`
	Project string `json:"project,omitempty"`
	Cwd     string `json:"cwd,omitempty"`
	// Prefilter is set when the command named no guarded word and was not
	// parsed.
	Prefilter  string `json:"prefilter,omitempty"`
	ParseError string `json:"parse_error,omitempty"`
	Commands   []Step `json:"commands,omitempty"`
	// MoreCommands counts the commands checked but not listed.
	MoreCommands int       `json:"more_commands,omitempty"`
	Paths        []Path    `json:"paths,omitempty"`
	Findings     []Finding `json:"findings,omitempty"`
	Fault        string    `json:"fault,omitempty"`
	// Warnings are config entries the guard ignores (an unknown rule
	// name, a lowering of a rule that cannot be lowered).
	Warnings []string `json:"warnings,omitempty"`
	// ConfigFiles and ConfigChanges say which config layers were read and
	// what each changed in the guard, what was ignored among it (set by
	// hwctl explain, which loads the layers; the hook leaves them empty).
	ConfigFiles   []string        `json:"config_files,omitempty"`
	ConfigChanges []config.Change `json:"config_changes,omitempty"`
	// Decision is allow, ask or block; Rule and Reason are the deciding
	// finding's, Reason exactly as the model reads it; Model the part of
	// the model of harm that decided, if it did.
	Decision string `json:"decision"`
	Rule     string `json:"rule,omitempty"`
	Model    string `json:"model,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// ToolAllow is the guard.tools allow rule that matched, when no rule
	// blocks or asks: the decision is then allow, and Claude Code runs the
	// tool without its own prompt.
	ToolAllow string `json:"tool_allow,omitempty"`
}

// Call is one tool call to check.
type Call struct {
	Tool  string
	Input json.RawMessage
	Cwd   string
	// Project is the project folder; "" means the Guard's ProjectDir.
	Project string
}

func (g *Guard) getenv() func(string) string {
	if g.Getenv != nil {
		return g.Getenv
	}
	return os.Getenv
}

// Check reads one call and decides; it never fails, a fault is in the
// report (and blocks when guard.fail is closed).
func (g *Guard) Check(c Call) Report {
	ck := g.newCheck(c)
	ck.run(c)
	return ck.finish()
}

// check is the state of one Check.
type check struct {
	g   *Guard
	rep Report
	env env
	lvl level
	// raised: the environment raised the level above the config's.
	raised bool
	cfgLvl level
	// judged remembers the reads already judged (see seen).
	judged map[string]bool
	// aliasDepth counts the aliases being expanded (alias a=b; alias b=a
	// ends there).
	aliasDepth int
	// written holds the text the command line wrote to files (by
	// resolved path), for a later command that reads them (psql -f).
	written map[string]string
	// sourced: the command line sourced a secret file (source .env).
	sourced bool
	// unseen holds the files the line writes with content the guard
	// cannot read (a download, a program's output), by resolved path, and
	// how; remotes the git remotes it adds (name → URL); scripts the
	// package scripts it sets (name → value).
	unseen, remotes, scripts map[string]string
	// rewound: a git reset of the line moved the branch back (HEAD~3).
	rewound bool
}

func (g *Guard) newCheck(c Call) *check {
	getenv := g.getenv()
	cfgLvl, _ := parseLevel(string(g.Config.Level))
	lvl := cfgLvl
	if l, ok := parseLevel(strings.TrimSpace(strings.ToLower(getenv(LevelEnv)))); ok && l > lvl {
		lvl = l
	}
	ck := &check{g: g, lvl: lvl, cfgLvl: cfgLvl, raised: lvl > cfgLvl}
	project := c.Project
	if project == "" {
		project = g.ProjectDir
	}
	ck.env = newEnv(getenv, project, c.Cwd, g.Config.Secrets)
	ck.rep = Report{Tool: c.Tool, Level: lvl.String(), Project: ck.env.project, Cwd: ck.env.cwd}
	for name, sev := range g.Config.Rules {
		r := ruleIndex(name)
		s, _ := parseSeverity(sev)
		switch {
		case r == nil:
			ck.rep.Warnings = append(ck.rep.Warnings, fmt.Sprintf("guard.rules.%s: no such rule (hwctl explain --rules lists them)", name))
		case !r.Adjustable && s < r.Standard:
			ck.rep.Warnings = append(ck.rep.Warnings, fmt.Sprintf("guard.rules.%s: %q is ignored; this rule can be raised, never lowered", name, sev))
		}
	}
	sort.Strings(ck.rep.Warnings)
	return ck
}

func (ck *check) run(c Call) {
	fields, err := toolinput.Fields(c.Input)
	if err != nil {
		ck.fault(fmt.Sprintf("tool input of %s is not a JSON object: %v", c.Tool, err))
		return
	}
	str := func(k string) string { return toolinput.String(fields, k) }
	switch c.Tool {
	case "Bash":
		cmd := str("command")
		ck.rep.Input = cmd
		ck.command(cmd)
	case "Read":
		ck.rep.Input = str("file_path")
		ck.filePath(str("file_path"), "read")
	case "Grep":
		p := str("path")
		ck.rep.Input = p
		if p == "" {
			p = "."
		}
		ck.filePath(p, "search")
		if gl := str("glob"); gl != "" {
			ck.rep.Input += " glob=" + gl
			ck.searchGlob(p, gl, "read")
		}
	case "Glob":
		p, pat := str("path"), str("pattern")
		ck.rep.Input = strings.TrimSpace(p + " " + pat)
		if p == "" {
			p = "."
		}
		ck.filePath(p, "metadata")
		ck.searchGlob(p, pat, "metadata")
	case "Write", "Edit", "MultiEdit":
		ck.rep.Input = str("file_path")
		ck.filePath(str("file_path"), "write")
	case "NotebookEdit":
		ck.rep.Input = str("notebook_path")
		ck.filePath(str("notebook_path"), "write")
	default:
		if strings.HasPrefix(c.Tool, "mcp__") {
			ck.mcp(c.Tool, fields)
		}
	}
	ck.toolPolicy(c, fields)
}

// fault records that the guard could not check the call.
func (ck *check) fault(msg string) {
	ck.rep.Fault = msg
	if ck.g.Config.Fail == config.FailClosed {
		ck.find("guard-fault", -1, "", "hookwright could not check this call ("+msg+") and guard.fail is closed.")
	}
}

// severity is the rule's severity for this check.
func (ck *check) severity(name string) Severity {
	s := ck.g.severity(name, ck.cfgLvl)
	if ck.raised {
		if r := ruleIndex(name); r != nil {
			b := r.Standard
			switch ck.lvl {
			case strict:
				b = r.Strict
			case paranoid:
				b = r.Paranoid
			}
			if b > s {
				s = b
			}
		}
	}
	return s
}

// find records that rule matched; it is kept when its severity is more
// than allow (and always in the report, for explain).
func (ck *check) find(rule string, cmd int, path, reason string) {
	sev := ck.severity(rule)
	ck.rep.Findings = append(ck.rep.Findings, Finding{Rule: rule, Severity: sev.String(), Reason: reason, Command: cmd, Path: path})
}

// findSev records a finding with a severity of its own (project rules).
func (ck *check) findSev(rule string, sev Severity, cmd int, reason string) {
	ck.rep.Findings = append(ck.rep.Findings, Finding{Rule: rule, Severity: sev.String(), Reason: reason, Command: cmd})
}

// finish picks the deciding finding.
func (ck *check) finish() Report {
	best := Allow
	for _, f := range ck.rep.Findings {
		s, _ := parseSeverity(f.Severity)
		if s > best {
			best = s
			ck.rep.Rule, ck.rep.Model = f.Rule, f.Model
			ck.rep.Reason = "hookwright guard: " + f.Reason + " (rule " + f.Rule + "; `hwctl explain` shows how the guard read the call)"
		}
	}
	ck.rep.Decision = best.String()
	if best == Allow {
		ck.rep.Rule, ck.rep.Reason, ck.rep.Model = "", "", ""
		if ck.rep.ToolAllow != "" {
			ck.rep.Rule = ToolRulePolicy
			ck.rep.Reason = "hookwright guard: " + ck.rep.Tool + " is allowed by guard.tools rule " + ck.rep.ToolAllow + " (rule " + ToolRulePolicy + ")"
		}
	} else {
		ck.rep.ToolAllow = ""
	}
	return ck.rep
}
