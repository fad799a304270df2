package guard

import (
	"fmt"
	"strings"

	"github.com/hookwright/hookwright/internal/packs"
	"github.com/hookwright/hookwright/internal/shell"
)

// The model of harm judges a command by what it does, whoever makes it:
// lists of CLIs always trail the world, but what a command does to shared
// state shows in its words. Its parts are the rules of pack "model"
// (internal/packs/model.json), so that a config sets each to off, ask or
// block like any pack rule, and hwctl explain names the part that
// decided:
//
//   - verb: a destructive or irreversible verb in the subcommand path of
//     a CLI that manages remote or shared state (any program but the local
//     ones, localProgram), unless it is a read, a dry run or a program's
//     local settings;
//   - http: an HTTP call with a destructive method or path, to any host;
//   - sync-delete: a copy that deletes (rsync --delete to another host,
//     rclone sync, mirror --remove, …);
//   - remote: a copy onto another host's system folders, a recursive
//     delete run on another host;
//   - exposure: public ACLs, visibility, 0.0.0.0/0, admin grants,
//     protection changes;
//   - capacity: scaling to zero, stopping instances, forced replacement, a
//     DNS change batch;
//   - later: a change that makes a later command destructive (forced push
//     refspecs, mirror remotes, push URLs, moved shared tags, hook files);
//   - unseen: code run that no one has read (downloaded and run, computed
//     and piped into a shell, a command word built from an expansion the
//     guard cannot resolve);
//   - sdk: an API client's destructive call in inline code.
//
// The packs stay on top of it as data: names and spellings the model
// cannot guess (kubectl drain, restic forget, cargo yank).

// modelPack is the pack that holds the model's rules.
const modelPack = "model"

// modelPart is the short name of a part of the model, as a reason and
// hwctl explain say it.
func modelPart(rule string) string {
	switch rule {
	case "verb":
		return "a destructive verb in the subcommand path"
	case "http":
		return "a destructive HTTP call"
	case "sync-delete":
		return "a copy that deletes"
	case "remote":
		return "another host's files"
	case "exposure":
		return "data exposed or access widened"
	case "capacity":
		return "a service taken away or rebuilt"
	case "later":
		return "a later command made destructive"
	case "unseen":
		return "code no one has read"
	case "sdk":
		return "an API client's destructive call"
	}
	return rule
}

// modelFind records a finding of the model's rule name for the current
// command, once, outside the pack loop (the scripts, the inline code, the
// deletes on another host find it where they are read).
func (cc *cmdCtx) modelFind(rule, what string) {
	id := modelPack + "." + rule
	for _, f := range cc.ck.rep.Findings {
		if f.Rule == id && f.Command == cc.idx {
			return
		}
	}
	r := packs.All().Rule(id)
	if r == nil {
		return
	}
	cc.packFinding(r, what)
}

// genericValueFlags are options of many CLIs that take the next word as
// their value; for a program no pack knows, these values are not
// subcommand words.
func genericValueFlag(f string) bool {
	switch f {
	case "--project", "--project-id", "--project-ref", "--org", "--organization", "--env", "--environment", "--region",
		"--profile", "--namespace", "-n", "--app", "-a", "--site", "--site-id", "--team", "--config", "--context",
		"--account", "--zone", "--cluster", "--output", "-o", "--format", "--token", "--api-key", "--workspace", "--space-id",
		"--service-id", "--id", "--name", "--env-id", "--stack", "-s", "--scope", "--subscription", "--resource-group", "-g",
		"--tag", "--version", "--key", "--host", "-H", "--url", "--server", "--endpoint", "--user", "-u", "--auth", "--db",
		"--database", "--bucket", "--index", "--from", "--to", "--message", "-m", "--description", "--title", "--label":
		return true
	}
	return false
}

// harmVerbMatch is the model's verb part: a destructive or irreversible
// verb in the subcommand path of a program that is not local.
func (pc *packCtx) harmVerbMatch(set *packs.Set, out map[string]string) {
	name := pc.name
	if name == "" || localProgram(name) || dataProgram(name) || shellBuiltin(name) || shell.IsShell(name) || interpreter(name) != "" ||
		scriptLang(name) != "" || isDownload(name) || rawNetProgram(name) || remoteCopyProgram(name) || isMetaCommand(name) {
		return
	}
	if dbShell(name) || sqlShell(name) {
		return // a database shell's words are statements: the SQL rules read them
	}
	own := set.For(name)
	var vf [][]string
	for _, r := range own {
		if p := set.Pack(r.Pack); p != nil {
			vf = append(vf, p.ValueFlags)
		}
	}
	args := pc.args
	for _, a := range args {
		if helpWord(a.Text) || dryRunWord(a.Text) {
			return
		}
	}
	if v := programVerb(name); v != "" && len(own) == 0 && !strings.Contains(pc.cc.c.Args[0].Text, "/") {
		// ldapdelete, aws-nuke, cloud-nuke: the program's name says it
		out["verb"] = fmt.Sprintf("`%s`: the program's name says it destroys (%s), and it is not a program that acts only on local state", name, v)
		return
	}
	// the subcommand path: the words that are not options or their values
	var path []string
	for k := 0; k < len(args) && len(path) < 6; k++ {
		t := args[k].Text
		if len(t) > 1 && t[0] == '-' {
			if t == "--" {
				break
			}
			if !strings.Contains(t, "=") {
				skip := genericValueFlag(t)
				for _, f := range vf {
					skip = skip || contains(f, t)
				}
				if skip {
					k++
				}
			}
			continue
		}
		path = append(path, t)
	}
	for i, w := range path {
		if i >= 5 || w == "" || strings.ContainsAny(w, "/=@ \t\n.$~*?") && !strings.Contains(w, ":") || strings.Contains(w, "://") {
			break // an operand: a path, a URL, an address, a value
		}
		if localNoun(w) || programLocalNoun(name, strings.ToLower(w)) {
			return
		}
		if seg, _, ok := strings.Cut(w, ":"); ok && localNoun(seg) {
			return // cache:clear, config:unset-local: the program's own settings
		}
		verb := harmWord(w)
		if verb == "" {
			lw := strings.ToLower(w)
			if nounVerb(lw) && i+1 < len(path) && harmVerb(strings.ToLower(path[i+1])) {
				continue // gh run cancel, wrangler deployments rollback: a resource, then its verb
			}
			if readOnlyVerb(lw) || benignVerb(w) {
				// kubectl get pod delete-me stops at get; but a service
				// called logs or events may have verbs of its own
				if i+1 < len(path) && harmWord(path[i+1]) != "" && (lw == "logs" || lw == "log" || lw == "events" || lw == "history") {
					continue
				}
				return
			}
			continue
		}
		for _, r := range own {
			for _, v := range r.Verbs {
				if packs.MatchWord(v, strings.ToLower(w)) {
					return // the program's pack judges this verb, with its exceptions
				}
			}
		}
		out["verb"] = fmt.Sprintf("`%s %s` has the destructive verb %q in its subcommand path, and %s is not a program that acts only on local state", name, strings.Join(path[:i+1], " "), verb, name)
		return
	}
	if len(own) > 0 {
		return
	}
	// a program no pack knows, with a destructive option: kafka-like
	// --delete, nomad's -purge, --remove-older-than
	for _, a := range args {
		t := a.Text
		if len(t) < 3 || t[0] != '-' {
			continue
		}
		f := strings.TrimLeft(t, "-")
		f, v, _ := strings.Cut(f, "=")
		if v == "false" || v == "0" || v == "no" {
			continue
		}
		var buf [16]string
		toks := wordTokens(f, buf[:0])
		if len(toks) == 0 {
			continue
		}
		switch toks[0] {
		case "delete", "purge", "drop", "wipe", "destroy", "truncate", "erase", "nuke", "obliterate", "terminate", "remove", "forget":
			switch f {
			case "remove-orphans", "delete-branch", "delete-after", "remove-intermediate", "remove-source-branch":
				continue
			}
			out["verb"] = fmt.Sprintf("`%s %s`: the option says it destroys, and %s is not a program that acts only on local state", name, t, name)
			return
		}
	}
}

// sqlShell reports whether a program is a client that reads statements
// as its words (the SQL rules judge them).
func sqlShell(name string) bool {
	switch name {
	case "clickhouse-client", "clickhouse", "cqlsh", "cockroach", "sqlcmd", "usql", "snowsql", "mongosh", "mongo", "redis-cli",
		"valkey-cli", "keydb-cli", "trino", "presto", "bq":
		return true
	}
	return false
}

// nounVerb reports whether a word that reads as a verb is as often the
// name of a resource (gh run cancel, bq job cancel, deployments rollback).
func nounVerb(w string) bool {
	switch w {
	case "run", "runs", "build", "builds", "deploy", "deployment", "deployments", "backup", "backups", "snapshot", "snapshots",
		"release", "releases", "tag", "tags", "log", "logs", "events", "history", "check", "checks", "test", "tests", "link",
		"links", "export", "exports", "import", "imports", "sync", "merge", "push", "job", "jobs", "query", "queries", "search",
		"index", "indexes", "indices", "schedule", "schedules", "trigger", "triggers", "watch", "watches":
		return true
	}
	return false
}

// rawNetProgram reports whether a program moves bytes over the network
// without subcommands of its own (its words are hosts and data).
func rawNetProgram(n string) bool {
	switch n {
	case "nc", "ncat", "netcat", "socat", "telnet", "openssl", "ftp", "sftp", "tftp", "mail", "sendmail", "mutt", "https", "curlie", "xhs", "httpie":
		return true
	}
	return false
}

// shellBuiltin reports whether a name is a shell builtin or keyword whose
// words are names, not a subcommand path (command -v rm, type rm).
func shellBuiltin(n string) bool {
	switch n {
	case "command", "builtin", "type", "hash", "help", "declare", "typeset", "local", "readonly", "unalias", "alias",
		"complete", "compgen", "compopt", "trap", "read", "mapfile", "readarray", "shopt", "set", "unset", "export",
		"exec", "eval", "source", ".", "time", "times", "ulimit", "umask", "wait", "jobs", "fg", "bg", "disown",
		"getopts", "shift", "return", "exit", "break", "continue", "let", "printf", "echo", "test", "[", "[[", "true",
		"false", ":", "whence", "where", "which", "apropos", "whatis", "info", "tldr":
		return true
	}
	return false
}

// programVerb returns the destructive verb a program's name holds
// (ldapdelete, aws-nuke, kafka-delete-records), or "".
func programVerb(name string) string {
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".sh"), ".py")
	var buf [16]string
	for _, t := range wordTokens(name, buf[:0]) {
		if localNoun(t) {
			return "" // delete-cache, clear-tmp: local scratch
		}
	}
	if v := harmWord(name); v != "" && v != "clean" && v != "force" && v != "empty" && v != "clear" {
		return v
	}
	for _, v := range [...]string{"delete", "destroy", "remove", "purge", "wipe", "nuke", "drop"} {
		if len(name) > len(v)+1 && (strings.HasSuffix(name, v) || strings.HasPrefix(name, v)) {
			return v
		}
	}
	return ""
}

// programLocalNoun reports whether a subcommand word names one program's
// own local settings (helm repo remove, pulumi plugin rm).
func programLocalNoun(name, w string) bool {
	switch name {
	case "helm":
		return w == "repo" || w == "dependency" || w == "dep" || w == "registry" || w == "env"
	case "gcloud":
		return w == "auth" || w == "emulators"
	case "az":
		return w == "account" || w == "cloud" || w == "bicep"
	case "gh":
		return w == "auth"
	case "pulumi":
		return w == "login" || w == "logout" || w == "install"
	case "terraform", "tofu":
		return w == "providers"
	case "firebase":
		return w == "emulators" || w == "emulators:start"
	case "supabase":
		return w == "start" || w == "stop"
	}
	return false
}
