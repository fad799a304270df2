package guard

import "strings"

// The model of harm's vocabulary: the words a command, a URL path, a
// method name or an MCP tool name is split into, and what each word means.
// One table of destructive verbs serves every part of the model.

// wordTokens splits w into lower-case tokens: at every character that is
// not a letter or a digit, and where a lower-case letter is followed by an
// upper-case one (deleteIndex → delete, index). It appends to buf.
func wordTokens(w string, buf []string) []string {
	start := -1
	for i := 0; i <= len(w); i++ {
		var c byte
		if i < len(w) {
			c = w[i]
		}
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		split := !alnum || i > 0 && c >= 'A' && c <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z'
		if split && start >= 0 {
			buf = append(buf, strings.ToLower(w[start:i]))
			start = -1
		}
		if alnum && start < 0 {
			start = i
		}
		if len(buf) >= 16 {
			break
		}
	}
	return buf
}

// harmVerb reports whether a token is a destructive or irreversible verb
// (or its noun: deletion, invalidation, refund).
func harmVerb(t string) bool {
	switch t {
	case "delete", "deletes", "deletion", "del", "destroy", "remove", "rm", "rb", "purge", "drop", "dropall", "truncate",
		"wipe", "erase", "nuke", "obliterate", "terminate", "teardown", "uninstall", "unpublish", "yank", "deprecate",
		"revoke", "disable", "deactivate", "archive", "reset", "rollback", "revert", "undo", "downgrade", "undeploy",
		"unregister", "deregister", "decommission", "deprovision", "deallocate", "detach", "disassociate", "kill",
		"cancel", "void", "refund", "refunds", "forget", "prune", "clean", "cleanup", "clear", "flush", "flushall",
		"flushdb", "evict", "expire", "invalidate", "invalidation", "unset", "roll", "rotate", "shutdown", "suspend",
		"force", "dedupe", "empty", "taint", "permanentdelete", "deleteall", "removeall", "destroyall", "abort", "unsubscribe":
		return true
	}
	return false
}

// harmWord returns the destructive verb of a subcommand word, or "": its
// first or last token, or those of a part between colons (apps:destroy,
// db:migrate:undo:all, api:core:numbers:remove).
func harmWord(w string) string {
	var buf [16]string
	for seg := range strings.SplitSeq(w, ":") {
		toks := wordTokens(seg, buf[:0])
		if len(toks) == 0 {
			continue
		}
		if harmVerb(toks[0]) {
			return toks[0]
		}
		if last := toks[len(toks)-1]; len(toks) > 1 && harmVerb(last) {
			return last
		}
	}
	return ""
}

// benignVerb reports whether a subcommand word only reads, creates or
// runs something: the subcommand path ends there, and what follows are
// operands (helm install reset-service ./chart).
func benignVerb(w string) bool {
	var buf [16]string
	toks := wordTokens(w, buf[:0])
	if len(toks) == 0 {
		return false
	}
	switch toks[0] {
	case "get", "list", "ls", "describe", "show", "view", "status", "info", "inspect", "search", "query", "logs", "log",
		"tail", "watch", "whoami", "version", "help", "login", "logout", "auth", "create", "new", "add", "set", "update",
		"upsert", "edit", "apply", "deploy", "install", "run", "exec", "invoke", "call", "start", "restart", "reload",
		"enable", "build", "push", "pull", "fetch", "clone", "copy", "cp", "upload", "download", "import", "export",
		"backup", "snapshot", "restore", "init", "generate", "open", "connect", "attach", "test", "check", "validate",
		"verify", "lint", "format", "fmt", "diff", "plan", "preview", "print", "render", "serve", "dev", "trigger",
		"rerun", "listen", "dump", "merge", "link", "sync", "scale", "encrypt", "decrypt", "sign", "ping", "health",
		"healthcheck", "cat", "read", "compare", "explain", "top", "ps", "events", "wait", "completion", "tree", "find",
		"grep", "stats", "usage", "count", "size", "du", "lsd", "lsl", "lsf", "lsjson", "md5sum", "sha1sum", "hashsum",
		"mount", "serve-http", "open-browser", "browse", "shell", "console", "ssh", "tunnel", "proxy", "port-forward",
		"download-url", "docs", "doc", "man", "info-json", "schema", "introspect", "lookup", "resolve", "test-connection":
		return true
	}
	return false
}

// localNoun reports whether a subcommand word names a program's own local
// settings (config, contexts, plugins, caches): what follows edits the
// machine, not shared state (gh extension remove, kubectl config
// delete-context, helm repo remove, npm cache clean).
func localNoun(w string) bool {
	switch strings.ToLower(w) {
	case "config", "configure", "configuration", "configurations", "context", "contexts", "extension", "extensions",
		"plugin", "plugins", "alias", "aliases", "completion", "completions", "cache", "caches", "components",
		"component", "kernelspec", "toolchain", "toolchains", "venv", "virtualenv", "profile", "profiles", "locals",
		"credential-helper", "keychain", "local", "tmp", "temp", "scratch", "history":
		return true
	}
	return false
}

// helpWord reports whether a word asks for help, which runs nothing.
func helpWord(w string) bool {
	return w == "--help" || w == "-h" || w == "help" || w == "-help" || w == "--usage"
}

// dryRunWord reports whether a word makes a command a dry run, a check or
// a plan (any program).
func dryRunWord(w string) bool {
	if dryRun(w) {
		return true
	}
	l := strings.ToLower(w)
	return strings.HasPrefix(l, "--dry-run=") && !strings.HasSuffix(l, "=false") && !strings.HasSuffix(l, "=none") ||
		l == "--dry_run" || l == "--dryrun=true" || l == "--plan" || l == "--preview" || l == "--what-if" || l == "--check-only"
}

// harmToken reports whether one prefilter token (lower case, letters,
// digits and . _ - +) may matter to the model of harm: a part that is a
// destructive verb or starts with one (deleteindex, dropall), or a word
// of its other parts (acl, replicas, template, mirror, …). A command
// none of whose tokens does is not parsed for the model.
func harmToken(t string) bool {
	start := 0
	for i := 0; i <= len(t); i++ {
		if i < len(t) && t[i] != '.' && t[i] != '_' && t[i] != '-' && t[i] != '+' {
			continue
		}
		part := t[start:i]
		start = i + 1
		if part == "" {
			continue
		}
		if harmVerb(part) || modelWord(part) {
			return true
		}
		for _, v := range [...]string{"delete", "destroy", "remove", "purge", "drop", "truncate", "clear", "flush", "cancel", "revoke", "deactivate", "terminate", "archive", "disable", "invalidat", "deregister", "unregister"} {
			if len(part) > len(v) && part[:len(v)] == v {
				return true
			}
		}
	}
	return false
}

// modelWord reports whether a word belongs to a part of the model other
// than the verbs.
func modelWord(w string) bool {
	switch w {
	case "acl", "allusers", "allauthenticatedusers", "public", "visibility", "private", "permission", "admin", "protection",
		"publicly", "0", "replicas", "count", "capacity", "nodes", "scale", "replace", "stop", "template", "templatedir",
		"hookspath", "mirror", "pushurl", "push", "set-url", "sync", "bisync", "move", "moveto", "rsync", "rclone", "crane",
		"skopeo", "regctl", "oras", "imagetools", "tag", "record", "sets", "nsupdate", "transaction", "tcp", "udp", "gist",
		"pkg", "script", "husky", "githooks", "hooks", "lefthook", "ifs", "alias", "mutation", "graphql", "refund", "cp",
		"robocopy", "lftp", "ssh", "pssh", "salt", "ansible", "exec", "policy", "role", "script-shell", "dist-tag",
		"deprecate", "owner", "access", "team", "token", "yank", "gradlew", "gradle", "make", "just", "task", "jq", "socat",
		"ncat", "nc", "netcat", "sqlite3", "psql", "mysql", "vim", "vi", "nvim", "ex", "emacs", "gdb", "man", "tar", "zip",
		"mongosh", "upload-pack", "receive-pack", "clobber", "add", "init", "clone", "config", "ssh-keygen", "ssh-add",
		"haproxy", "traefik", "nginx", "systemctl", "service", "docker", "kubectl", "terraform", "pulumi", "helm", "aws",
		"gcloud", "az", "gh", "glab", "stripe", "http", "https", "curl", "wget", "xh", "patch", "put", "post":
		return true
	}
	return false
}
