package guard

import (
	"slices"

	"github.com/hookwright/hookwright/internal/packs"
	"github.com/hookwright/hookwright/internal/runtime/config"
)

// Severity is what a rule does to a call.
type Severity int

// The severities, weakest first.
const (
	Allow Severity = iota // let the call run
	Ask                   // ask the user (permissionDecision "ask")
	Block                 // deny the call, telling the model why
)

// String returns "allow", "ask" or "block".
func (s Severity) String() string {
	switch s {
	case Ask:
		return "ask"
	case Block:
		return "block"
	}
	return "allow"
}

func parseSeverity(s string) (Severity, bool) {
	switch s {
	case "allow":
		return Allow, true
	case "ask":
		return Ask, true
	case "block":
		return Block, true
	}
	return Allow, false
}

// Rule is one built-in rule: its name (what a blocked model and
// hwctl explain show), its severity at each level, and whether a project
// config may lower it.
type Rule struct {
	Name string
	// Standard, Strict and Paranoid are the severities at each level.
	Standard, Strict, Paranoid Severity
	// Adjustable: guard.rules may set any severity. Otherwise it may only
	// raise the rule.
	Adjustable bool
	// Doc says what the rule covers.
	Doc string
}

// Rules is the catalogue of built-in rules.
var Rules = []Rule{
	{"deny-list", Block, Block, Block, false, "a substring of the command is on the project's guard.deny list"},
	{"project-command", Block, Block, Block, false, "a command the project's guard.commands names"},
	{"fork-bomb", Block, Block, Block, false, "a fork bomb"},
	{"disk-overwrite", Block, Block, Block, false, "mkfs, dd onto a device, a redirect onto a disk device"},
	{"download-exec", Block, Block, Block, false, "a download piped or substituted into a shell or interpreter"},
	{"obfuscated-exec", Block, Block, Block, false, "decoded data (base64 -d, xxd -r) piped or substituted into a shell or interpreter"},
	{"git-force-push", Block, Block, Block, false, "git push --force, -f, --force=…, a +refspec, --mirror"},
	{"git-push-delete-default", Block, Block, Block, false, "git push --delete (or :ref) of main, master, trunk or develop"},
	{"git-push-delete", Ask, Ask, Block, true, "git push --delete, :ref or --prune of another branch"},
	{"git-reset-hard", Block, Block, Block, false, "git reset --hard or --merge: drops uncommitted work"},
	{"git-checkout-discard", Block, Block, Block, false, "git checkout -- <path>, <rev> -- <path>, ., -f: drops uncommitted work"},
	{"git-restore-discard", Block, Block, Block, false, "git restore on the working tree (without --staged alone)"},
	{"git-clean-force", Block, Block, Block, false, "git clean -f without -n: deletes untracked files"},
	{"git-force-discard", Block, Block, Block, false, "git worktree remove --force, git submodule deinit or update --force, git checkout-index -f, git read-tree --reset -u: drop uncommitted work"},
	{"git-rm-force", Ask, Ask, Block, true, "git rm -f: removes files even when they hold uncommitted changes"},
	{"git-stash-clear", Block, Block, Block, false, "git stash clear: drops every stash"},
	{"git-stash-drop", Ask, Ask, Block, true, "git stash drop: drops one stash"},
	{"git-branch-force-delete", Ask, Ask, Block, true, "git branch -D: deletes a branch with unmerged work"},
	{"git-config-exec", Block, Block, Block, true, "git config of a key that runs a program (core.hooksPath, core.fsmonitor, core.sshCommand, …)"},
	{"git-hooks-template", Block, Block, Block, true, "a clone or init that takes its hooks from a folder the user did not choose: --template, GIT_TEMPLATE_DIR, init.templateDir, clone -c core.hooksPath"},
	{"git-lease-default", Ask, Ask, Block, true, "git push --force-with-lease onto the default branch (main, master, …): rewrites the history everyone builds on"},
	{"raw-socket", Block, Block, Block, false, "a raw network socket opened by the shell or a listener that runs a shell: /dev/tcp and /dev/udp, nc -e, ncat -e, socat exec: (a reverse shell, or data sent past every client the guard reads)"},
	{"mcp-destructive", Ask, Ask, Block, true, "an MCP tool whose name says it destroys (delete, drop, purge, cancel, …) and whose input the guard cannot judge as a file, SQL or shell call"},
	{"rm-root", Block, Block, Block, false, "a recursive delete of /, the home folder or a folder above it"},
	{"rm-outside-project", Block, Block, Block, false, "a recursive delete of an absolute or home path outside the project and the temp folders"},
	{"rm-project-root", Block, Block, Block, false, "a recursive delete of the project root, a folder above it, or everything in it"},
	{"rm-in-project", Allow, Block, Block, true, "a recursive delete inside the project (rm -rf build)"},
	{"find-delete-outside", Ask, Block, Block, true, "find ... -delete (or -exec rm) with a filter, on /, the home folder or a path outside the project and the temp folders"},
	{"rm-unknown-target", Ask, Block, Block, true, "a recursive delete whose target the guard cannot know ($VAR, xargs)"},
	{"chmod-outside-project", Block, Block, Block, false, "chmod or chown -R of /, the home folder or a path outside the project"},
	{"inline-code-delete", Block, Block, Block, false, "an interpreter's inline code deleting a tree it cannot place inside the project"},
	{"inline-code-unknown", Ask, Block, Block, true, "an interpreter's inline code running a command or deleting a file the guard cannot read"},
	{"interpreter-one-liner", Allow, Allow, Block, true, "any python/node/ruby/perl -c/-e code or script on stdin"},
	{"unparsed", Allow, Block, Block, true, "a command the parser cannot read that names a guarded program (it is still judged on its words)"},
	{"secret-read", Block, Block, Block, false, "reading, copying, archiving or uploading a secret (keys, credentials, .env)"},
	{"secret-write", Block, Block, Block, false, "writing over a secret file"},
	{"secret-metadata", Allow, Block, Block, true, "listing or testing a secret path (ls, stat, test -f, Glob)"},
	{"persistence-write", Block, Block, Block, false, "a write to a file that runs code or grants access later: shell start-up files, ~/.ssh/authorized_keys and config, cron, autostart"},
	{"git-hooks-write", Block, Block, Block, true, "a write to .git/hooks/ or .git/config (code that runs at the next git command)"},
	{"git-internals-write", Block, Block, Block, true, "a write to another file inside .git"},
	{"home-write", Ask, Ask, Block, true, "a file-tool write outside the project and the temp folders"},
	{"guard-ground", Block, Block, Block, false, "a write, delete, move, truncation or permission change, through any tool, of the guard's own ground: hookwright's config, journal and state (.hookwright/, the user config), the installed plugin, Claude Code's settings and hooks"},
	{"unseen-into-ground", Ask, Ask, Block, false, "an archive unpacked, a patch applied or a list fed to a destructive xargs in a folder that holds the guard's ground, when the guard cannot read what it writes or deletes"},
	{"system-file-write", Block, Block, Block, false, "a write, delete, truncation or permission change of one system file (/etc, /usr, /bin, /boot, /var, /System, /Library, …)"},
	{"file-outside-project", Ask, Ask, Block, true, "a delete, truncation or overwrite of one file outside the project and the temp folders (rm, unlink, truncate, > file, cp onto it, mv it away, dd of=, os.remove)"},
	{"protected-path", Block, Block, Block, false, "a write to a path the project's guard.protect lists"},
	{"guard-fault", Block, Block, Block, false, "the guard could not check the call and guard.fail is closed"},
}

// ruleIndex returns the built-in rule called name, or nil.
func ruleIndex(name string) *Rule {
	for i := range Rules {
		if Rules[i].Name == name {
			return &Rules[i]
		}
	}
	return nil
}

// RuleByName returns the built-in rule called name.
func RuleByName(name string) (Rule, bool) {
	r := ruleIndex(name)
	if r == nil {
		return Rule{}, false
	}
	return *r, true
}

// level is the guard level as a number, weakest first.
type level int

const (
	standard level = iota
	strict
	paranoid
)

func parseLevel(s string) (level, bool) {
	switch config.GuardLevel(s) {
	case config.GuardStandard, "":
		return standard, s != ""
	case config.GuardStrict:
		return strict, true
	case config.GuardParanoid:
		return paranoid, true
	}
	return standard, false
}

func (l level) String() string {
	switch l {
	case strict:
		return string(config.GuardStrict)
	case paranoid:
		return string(config.GuardParanoid)
	}
	return string(config.GuardStandard)
}

// severity returns rule name's severity at level l with the config's
// overrides applied; a rule that is not adjustable is never lowered.
func (g *Guard) severity(name string, l level) Severity {
	r := ruleIndex(name)
	if r == nil {
		return Block
	}
	base := r.Standard
	switch l {
	case strict:
		base = r.Strict
	case paranoid:
		base = r.Paranoid
	}
	if s, ok := parseSeverity(g.Config.Rules[name]); ok {
		if r.Adjustable || s > base {
			return s
		}
	}
	return base
}

// init tells package config what a rule's severity is when no config
// layer sets it, so that a project config's guard.rules is compared with
// the severity in force at the merged level (see config.TightenRules).
func init() {
	config.MapDefaults["guard.packs"] = packDefault
	config.MapDefaults["guard.rules"] = func(c config.Config, name string) (string, bool) {
		r := ruleIndex(name)
		if r == nil {
			return "", false
		}
		l, _ := parseLevel(string(c.Guard.Level))
		switch l {
		case strict:
			return r.Strict.String(), true
		case paranoid:
			return r.Paranoid.String(), true
		}
		return r.Standard.String(), true
	}
}

// packDefault is the severity in force for a guard.packs key under c: a
// rule's ("database.drop"), or a pack's strongest over its rules
// ("database"), so that a project config which sets a pack lower than any
// of its rules counts as a loosening.
func packDefault(c config.Config, name string) (string, bool) {
	set := packs.All()
	if r := set.Rule(name); r != nil {
		return packs.Severity(r, c.Guard.Packs), true
	}
	p := set.Pack(name)
	if p == nil {
		return "", false
	}
	strongest := packs.Off
	for i := range p.Rules {
		switch packs.Severity(&p.Rules[i], c.Guard.Packs) {
		case packs.Block:
			strongest = packs.Block
		case packs.Ask:
			if strongest == packs.Off {
				strongest = packs.Ask
			}
		}
	}
	return strongest, true
}

// RuleIDs lists every rule id a guard decision can name, the id its
// reason shows and the journal's rule field holds: the built-in rules,
// the tool policy's and each pack rule ("database.drop").
func RuleIDs() []string {
	ids := make([]string, 0, len(Rules)+1)
	for _, r := range Rules {
		ids = append(ids, r.Name)
	}
	if !slices.Contains(ids, ToolRulePolicy) {
		ids = append(ids, ToolRulePolicy)
	}
	for _, p := range packs.All().Packs {
		for _, r := range p.Rules {
			ids = append(ids, r.ID())
		}
	}
	return ids
}
