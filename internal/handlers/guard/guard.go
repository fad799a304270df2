// Package guard is the Bash/Write security guard: a PreToolUse handler that
// blocks a short list of commands and writes that destroy data or leak
// secrets, and says what to do instead.
//
// It is a seatbelt, not a sandbox: it reads the command the model wrote,
// split into simple commands on ; & | && || and new lines, and matches
// words, not shell semantics. It blocks
//
//   - rm with both -r and -f aimed at /, /*, ~, $HOME or ..;
//   - git push with --force or -f (--force-with-lease is allowed);
//   - git reset --hard and git clean -f (they drop uncommitted work);
//   - a download piped into a shell (curl ... | sh);
//   - mkfs, dd of=/dev/..., and a fork bomb;
//   - every command containing one of the config's deny substrings;
//
// and Write, Edit and MultiEdit on .git internals, .env files, private keys,
// and the config's protect globs.
package guard

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
)

// Guard is the handler. Register it for PreToolUse with the matcher
// "Bash|Write|Edit|MultiEdit".
type Guard struct {
	Config config.Guard
}

// Name names the handler in reports.
func (Guard) Name() string { return "guard" }

// Handle blocks a dangerous Bash command or write.
func (g Guard) Handle(_ context.Context, in hooks.Input) (hooks.Result, error) {
	ev, ok := in.(*hooks.PreToolUse)
	if !ok || !g.Config.Enabled {
		return hooks.Result{}, nil
	}
	var why string
	switch ev.ToolName {
	case "Bash":
		var args struct {
			Command string `json:"command"`
		}
		if err := json.Unmarshal(ev.ToolInput, &args); err != nil {
			return hooks.Result{}, fmt.Errorf("tool input of Bash: %w", err)
		}
		why = g.CheckCommand(args.Command)
	case "Write", "Edit", "MultiEdit":
		var args struct {
			FilePath string `json:"file_path"`
		}
		if err := json.Unmarshal(ev.ToolInput, &args); err != nil {
			return hooks.Result{}, fmt.Errorf("tool input of %s: %w", ev.ToolName, err)
		}
		why = g.CheckPath(ev.Cwd, args.FilePath)
	}
	if why == "" {
		return hooks.Result{}, nil
	}
	return hooks.Blocked("hookwright guard: " + why), nil
}

// CheckCommand returns why cmd is blocked, or "".
func (g Guard) CheckCommand(cmd string) string {
	for _, d := range g.Config.Deny {
		if d != "" && strings.Contains(cmd, d) {
			return fmt.Sprintf("the command contains %q, which this project's config denies.", d)
		}
	}
	if strings.Contains(strings.ReplaceAll(cmd, " ", ""), ":(){:|:&};:") {
		return "this is a fork bomb."
	}
	segments := splitCommands(cmd)
	for i, words := range segments {
		if why := checkWords(words); why != "" {
			return why
		}
		if i > 0 && isShell(words) && isDownload(segments[i-1]) {
			return "piping a download into a shell runs unreviewed code. Download the script to a file, read it, then run it."
		}
	}
	return ""
}

// splitCommands splits a command line into simple commands' words.
func splitCommands(cmd string) [][]string {
	f := func(r rune) bool { return r == ';' || r == '&' || r == '|' || r == '\n' || r == '(' || r == ')' }
	var out [][]string
	for _, part := range strings.FieldsFunc(cmd, f) {
		words := strings.Fields(part)
		for len(words) > 0 && (words[0] == "sudo" || words[0] == "exec" || strings.Contains(words[0], "=")) {
			words = words[1:]
		}
		if len(words) > 0 {
			out = append(out, words)
		}
	}
	return out
}

func checkWords(w []string) string {
	name := filepath.Base(w[0])
	switch {
	case name == "rm":
		return checkRm(w[1:])
	case name == "git" && len(w) > 1:
		return checkGit(w[1:])
	case strings.HasPrefix(name, "mkfs"):
		return "mkfs formats a file system."
	case name == "dd":
		for _, a := range w[1:] {
			if strings.HasPrefix(a, "of=/dev/") && a != "of=/dev/null" {
				return "dd onto a device overwrites it."
			}
		}
	}
	return ""
}

func checkRm(args []string) string {
	var recursive, force bool
	var targets []string
	for _, a := range args {
		switch {
		case a == "--recursive":
			recursive = true
		case a == "--force":
			force = true
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
			recursive = recursive || strings.ContainsAny(a, "rR")
			force = force || strings.Contains(a, "f")
		default:
			targets = append(targets, strings.Trim(a, `"'`))
		}
	}
	if !recursive || !force {
		return ""
	}
	for _, t := range targets {
		switch strings.TrimSuffix(t, "/") {
		case "", "/*", "~", "$HOME", "${HOME}", "..", "*", "~/*", "$HOME/*":
			return fmt.Sprintf("rm -rf %s deletes far more than the project. Name the exact folder inside the project.", t)
		}
	}
	return ""
}

func checkGit(args []string) string {
	sub := args[0]
	rest := args[1:]
	has := func(flags ...string) bool {
		for _, a := range rest {
			for _, f := range flags {
				if a == f {
					return true
				}
			}
		}
		return false
	}
	switch sub {
	case "push":
		if has("--force", "-f") {
			return "git push --force rewrites shared history. Use --force-with-lease, or push a new branch."
		}
	case "reset":
		if has("--hard") {
			return "git reset --hard drops uncommitted work. Commit or stash first (git stash), then reset."
		}
	case "clean":
		for _, a := range rest {
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "f") || a == "--force" {
				return "git clean -f deletes untracked files for good. List them with git clean -n first, and remove what you mean by name."
			}
		}
	}
	return ""
}

func isDownload(w []string) bool {
	n := filepath.Base(w[0])
	return n == "curl" || n == "wget"
}

func isShell(w []string) bool {
	switch filepath.Base(w[0]) {
	case "sh", "bash", "zsh", "dash", "python", "python3", "node", "perl":
		return true
	}
	return false
}

// CheckPath returns why writing path (relative to cwd) is blocked, or "".
func (g Guard) CheckPath(cwd, path string) string {
	if path == "" {
		return ""
	}
	if !filepath.IsAbs(path) && cwd != "" {
		path = filepath.Join(cwd, path)
	}
	path = filepath.Clean(path)
	base := filepath.Base(path)
	slashed := filepath.ToSlash(path)
	switch {
	case strings.Contains(slashed, "/.git/") && !strings.Contains(slashed, "/.git/hooks/"):
		return fmt.Sprintf("%s is inside .git; change the repository with git commands, not by writing its files.", path)
	case base == ".env" || strings.HasPrefix(base, ".env.") && base != ".env.example":
		return fmt.Sprintf("%s holds secrets; write .env.example instead and let the user fill in .env.", path)
	case strings.HasPrefix(base, "id_rsa") || strings.HasPrefix(base, "id_ed25519") || strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key"):
		return fmt.Sprintf("%s looks like a private key; hookwright does not let the model write keys.", path)
	}
	rel := path
	if cwd != "" {
		if r, err := filepath.Rel(cwd, path); err == nil {
			rel = r
		}
	}
	for _, glob := range g.Config.Protect {
		for _, cand := range []string{filepath.ToSlash(rel), base} {
			if ok, _ := filepath.Match(glob, cand); ok {
				return fmt.Sprintf("%s is protected by this project's config (%q).", rel, glob)
			}
		}
	}
	return ""
}
