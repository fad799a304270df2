package guard

import (
	"fmt"
	"path"
	"strings"

	"github.com/hookwright/hookwright/internal/packs"
	"github.com/hookwright/hookwright/internal/shell"
)

// readOnlyVerb reports whether a subcommand word only reads: the search
// for a destructive verb stops there (kubectl get pod delete-me).
func readOnlyVerb(w string) bool {
	switch w {
	case "get", "list", "ls", "describe", "show", "status", "plan", "diff", "view", "logs", "log", "inspect", "version",
		"help", "info", "top", "ps", "search", "whoami", "explain", "history", "watch", "validate", "output", "graph",
		"preview", "exec", "cat", "print", "login", "auth", "port-forward", "events", "wait", "completion", "config-view":
		return true
	}
	return strings.HasPrefix(w, "get-") || strings.HasPrefix(w, "list-") || strings.HasPrefix(w, "describe-") ||
		strings.HasPrefix(w, "show-") || strings.HasSuffix(w, ":list") || strings.HasSuffix(w, ":info")
}

// dryRun reports whether a word makes any management command harmless.
func dryRun(w string) bool {
	switch strings.ToLower(w) {
	case "--dry-run", "--dryrun", "--dry-run=client", "--dry-run=server", "--dry-run=true", "--dry-run=all",
		"--what-if", "--whatif", "-whatif", "--help", "-dry-run", "--simulate", "--noop":
		return true
	}
	return false
}

// positionals returns the words that are not options, lower case, with
// the values of the value options dropped.
func positionals(args []shell.Word, valueFlags ...[]string) []string {
	var out []string
	for k := 0; k < len(args) && len(out) < 32; k++ {
		t := args[k].Text
		if len(t) > 1 && t[0] == '-' {
			if t == "--" {
				break // operands, or a command run elsewhere
			}
			if !strings.Contains(t, "=") {
				for _, vf := range valueFlags {
					if contains(vf, t) {
						k++
						break
					}
				}
			}
			continue
		}
		out = append(out, strings.ToLower(t))
	}
	return out
}

// hasFlag reports whether args hold one of flags: "-f" also in a cluster
// ("-rf"), "--force" also as "--force=…".
func hasFlag(args []shell.Word, flags []string) (string, bool) {
	for _, a := range args {
		t := a.Text
		if len(t) < 2 || t[0] != '-' {
			continue
		}
		for _, f := range flags {
			if t == f || strings.HasPrefix(t, f+"=") {
				return f, true
			}
			if len(f) == 2 && f[1] != '-' && len(t) > 2 && t[1] != '-' && !strings.Contains(t, "=") && strings.IndexByte(t[1:], f[1]) >= 0 {
				return f, true
			}
		}
	}
	return "", false
}

// runnerPrefix peels what runs the next words as a program of its own:
// bundle exec rails …, poetry run …, python manage.py …, php artisan ….
func runnerPrefix(name string, args []shell.Word) (string, []shell.Word) {
	for hops := 0; hops < 3 && len(args) > 0; hops++ {
		first := strings.ToLower(args[0].Text)
		switch {
		case (name == "bundle" && first == "exec") || (name == "poetry" || name == "uv" || name == "pipenv" || name == "pdm" || name == "hatch" || name == "rye") && first == "run":
			args = args[1:]
			if len(args) == 0 {
				return name, nil
			}
			name = shell.ProgramName(args[0].Text)
			args = args[1:]
		case (name == "uvx" || name == "pipx" && first == "run" || (name == "pnpm" || name == "yarn") && first == "dlx") && len(args) > 0:
			// uvx tool …, pipx run tool …, pnpm dlx tool …: the tool runs
			if name != "uvx" {
				args = args[1:]
			}
			for len(args) > 0 && strings.HasPrefix(args[0].Text, "-") {
				args = args[1:] // uvx --from x tool: the options before the tool
			}
			if len(args) == 0 {
				return name, nil
			}
			name = shell.ProgramName(args[0].Text)
			args = args[1:]
		case name == "java" && first == "-jar" && len(args) > 1:
			// java -jar jenkins-cli.jar …: the jar is the program
			name = strings.TrimSuffix(shell.ProgramName(args[1].Text), ".jar")
			args = args[2:]
		case (name == "pnpm" || name == "yarn" || name == "bun" || name == "bunx") && packs.All().Names(first):
			name = first
			args = args[1:]
		case interpreter(name) != "" && first == "-m" && len(args) > 1:
			// python -m twine upload
			name = strings.ToLower(args[1].Text)
			args = args[2:]
		case interpreter(name) != "" || name == "bundle":
			base := path.Base(first)
			if base == "manage.py" || base == "artisan" || base == "rails" || base == "rake" || base == "console" {
				return base, args[1:]
			}
			return name, args
		default:
			return name, args
		}
	}
	return name, args
}

// packs applies the rule packs to the command.
func (cc *cmdCtx) packs() {
	set := packs.All()
	name, args := runnerPrefix(cc.c.Name(), cc.args())
	cc.sourcedSecret(name, args)
	if name == "git" {
		cc.gitRuns(args)
	}
	rules := set.For(name)
	star := set.For("*")
	if len(rules)+len(star) == 0 {
		return
	}
	for _, a := range args {
		if dryRun(a.Text) {
			return
		}
	}
	pc := &packCtx{cc: cc, name: name, args: args, own: len(rules) > 0}
	done := make(map[*packs.Rule]bool, 4)
	for _, list := range [][]*packs.Rule{rules, star} {
		for _, r := range list {
			if done[r] {
				continue
			}
			done[r] = true
			if cc.ck.packSeverity(r) == packs.Off {
				continue
			}
			what, ok := pc.match(r, set)
			if !ok {
				continue
			}
			cc.packFinding(r, what)
		}
	}
}

// packSeverity is pack rule r's severity for this check: off, ask or
// block (the config's, and paranoid blocks what the other levels ask).
func (ck *check) packSeverity(r *packs.Rule) string {
	sev := packs.Severity(r, ck.g.Config.Packs)
	if sev == packs.Ask && ck.lvl >= paranoid {
		sev = packs.Block
	}
	return sev
}

// packFinding records that pack rule r matched (what says how): its
// reason names the pack, or the part of the model of harm, and says what
// would let the command through.
func (cc *cmdCtx) packFinding(r *packs.Rule, what string) {
	sev := cc.ck.packSeverity(r)
	if sev == packs.Off {
		return
	}
	s, _ := parseSeverity(sev)
	where, part := "pack "+r.Pack, ""
	if r.Pack == modelPack {
		part = modelPart(r.Name)
		where = "model of harm: " + part
	}
	tail := "the user must confirm it. "
	if s == Block {
		tail = "hookwright does not let the model do this. "
	}
	pass := r.Pass
	switch {
	case s == Block:
		pass = fmt.Sprintf("It passes only when the user runs it, or sets guard.packs %q to \"ask\" in their own config.", r.ID())
	case pass == "":
		pass = fmt.Sprintf("It passes as a dry run (--dry-run) or a read, or once the user's config sets guard.packs %q to \"off\".", r.ID())
	}
	reason := fmt.Sprintf("%s (%s); %s%s", what, where, tail, pass)
	cc.ck.rep.Findings = append(cc.ck.rep.Findings, Finding{Rule: r.ID(), Pack: r.Pack, Model: part, Severity: s.String(), Reason: reason, Command: cc.idx})
}

// packCtx is one command being matched against pack rules.
type packCtx struct {
	cc   *cmdCtx
	name string
	args []shell.Word
	// own: the program has rules of its own (not only the rules on every
	// command).
	own bool
	// kinds caches what the code matches found ("sql" → drop, …);
	// scratch is the model's parts' map (see kindsOf).
	kinds   map[string]map[string]string
	scratch map[string]string
}

// match reports whether rule r matches, and says what matched.
func (pc *packCtx) match(r *packs.Rule, set *packs.Set) (string, bool) {
	if _, ok := hasFlag(pc.args, r.Unless); ok && len(r.Unless) > 0 {
		return "", false
	}
	if r.Match != "" {
		kinds := pc.kindsOf(r.Match, set)
		if len(r.Words) == 0 {
			for _, what := range kinds {
				return what, true
			}
			return "", false
		}
		for _, w := range r.Words {
			if what, ok := kinds[w]; ok {
				return what, true
			}
		}
		return "", false
	}
	var vf []string
	if p := set.Pack(r.Pack); p != nil {
		vf = p.ValueFlags
	}
	pos := positionals(pc.args, vf)
	if len(r.Path) > len(pos) {
		return "", false
	}
	for i, p := range r.Path {
		if p != "*" && !packs.MatchWord(p, pos[i]) {
			return "", false
		}
	}
	words := append([]string{pc.name}, pos[:len(r.Path)]...)
	if len(r.Verbs) > 0 {
		found := ""
		rest := pos[len(r.Path):]
	scan:
		for i := 0; i < len(rest) && i < r.Depth; i++ {
			w := rest[i]
			if readOnlyVerb(w) && !verbWithin(r, rest[i+1:min(len(rest), i+3)]) {
				// kubectl get pod x: read-only; but aws logs delete-log-stream
				// and gcloud logging logs delete name a service "logs"
				break
			}
			for _, e := range r.Except {
				if packs.MatchWord(e, w) {
					continue scan
				}
			}
			for _, v := range r.Verbs {
				if packs.MatchWord(v, w) {
					if !pc.cc.c.MoreArgs && spared(r, w, wordAt2(rest, i+1), pc.args) {
						return "", false
					}
					found = w
					words = append(words, rest[:i+1]...)
					break scan
				}
			}
		}
		if found == "" {
			return "", false
		}
	}
	if len(r.Flags) > 0 {
		f, ok := hasFlag(pc.args, r.Flags)
		if !ok {
			return "", false
		}
		words = append(words, f)
	}
	return "`" + strings.Join(words, " ") + "` destroys shared state that may not come back", true
}

// verbWithin reports whether one of ws is a verb of r.
func verbWithin(r *packs.Rule, ws []string) bool {
	for _, w := range ws {
		for _, v := range r.Verbs {
			if packs.MatchWord(v, w) {
				return true
			}
		}
	}
	return false
}

// spared reports whether the rule lets verb and the word after it
// through (kubectl delete pod NAME; not when xargs hands it names).
func spared(r *packs.Rule, verb, next string, args []shell.Word) bool {
	if len(r.Spare) == 0 || next == "" {
		return false
	}
	for _, sp := range r.Spare {
		v, w, _ := strings.Cut(sp, " ")
		if v == verb && packs.MatchWord(w, next) {
			_, loud := hasFlag(args, r.SpareUnless)
			return !loud
		}
	}
	return false
}

// wordAt2 returns ws[k], or "" past the end.
func wordAt2(ws []string, k int) string {
	if k < len(ws) {
		return ws[k]
	}
	return ""
}

// kindsOf runs the code match m once per command and returns what it
// found: kind → description.
func (pc *packCtx) kindsOf(m string, set *packs.Set) map[string]string {
	if strings.HasPrefix(m, "harm-") {
		// the model's parts: one rule each, so nothing to cache; one
		// scratch map serves them all (most commands match none)
		if pc.scratch == nil {
			pc.scratch = make(map[string]string, 1)
		} else {
			clear(pc.scratch)
		}
		pc.harm(m, set, pc.scratch)
		return pc.scratch
	}
	if k, ok := pc.kinds[m]; ok {
		return k
	}
	if pc.kinds == nil {
		pc.kinds = map[string]map[string]string{}
	}
	out := map[string]string{}
	switch m {
	case "sql":
		pc.sql(set, out)
	case "http-delete":
		pc.httpDelete(out)
	case "git-history":
		pc.gitHistory(out)
	case "kill-all":
		pc.killAll(out)
	case "power":
		pc.power(out)
	case "history-wipe":
		pc.historyWipe(out)
	case "env-exfil":
		pc.envExfil(out)
	case "unknown-prod":
		pc.unknownProd(set, out)
	}
	pc.kinds[m] = out
	return out
}

// httpDelete: curl -X DELETE, wget --method=DELETE, http DELETE url.
func (pc *packCtx) httpDelete(out map[string]string) {
	args := pc.args
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		method := ""
		switch {
		case t == "-X" || t == "--request" || t == "--method" || t == "-m" && pc.name == "hurl":
			method = wordAt(args, k+1)
			k++
		case strings.HasPrefix(t, "--request=") || strings.HasPrefix(t, "--method="):
			_, method, _ = strings.Cut(t, "=")
		case len(t) > 2 && t[0] == '-' && t[1] != '-' && strings.IndexByte(t, 'X') > 0 && !strings.Contains(t, "="):
			// -XDELETE, -sfX DELETE
			if x := strings.IndexByte(t, 'X'); x == len(t)-1 {
				method = wordAt(args, k+1)
				k++
			} else {
				method = t[x+1:]
			}
		}
		if strings.EqualFold(strings.TrimSpace(method), "DELETE") {
			out["delete"] = "an HTTP DELETE (" + pc.name + " " + t + " " + method + ")"
			return
		}
	}
	for _, a := range args {
		if strings.Contains(a.Text, "/_delete_by_query") {
			out["delete"] = "an Elasticsearch/OpenSearch _delete_by_query"
			return
		}
	}
	switch pc.name {
	case "http", "https", "xh", "xhs", "httpie", "curlie", "restish":
		pos := positionals(args, []string{"-a", "--auth", "--session", "-o", "--output", "--verify", "--cert", "--cert-key", "-A", "--auth-type", "--timeout"})
		for i := 0; i < len(pos) && i < 2; i++ {
			if pos[i] == "delete" {
				out["delete"] = "an HTTP DELETE (" + pc.name + " DELETE)"
				return
			}
		}
	}
}

// netProgram reports whether a program sends data to the network.
func netProgram(n string) bool {
	switch n {
	case "curl", "wget", "nc", "ncat", "netcat", "socat", "http", "https", "xh", "xhs", "telnet", "openssl", "ssh", "curlie", "aws", "gsutil", "rclone", "mail", "sendmail", "mutt", "ftp", "sftp", "tftp":
		return true
	}
	return false
}

// uploadedFiles returns the files a network client sends: -d @f,
// --data-binary @f, -F name=@f, -T f, --upload-file f, --post-file=f.
func uploadedFiles(args []shell.Word) []string {
	var out []string
	for k := 0; k < len(args); k++ {
		t, next := args[k].Text, wordAt(args, k+1)
		switch {
		case t == "-d" || strings.HasPrefix(t, "--data") || t == "--json" || t == "-F" || t == "--form":
			if _, v, ok := strings.Cut(next, "@"); ok {
				out = append(out, strings.SplitN(v, ";", 2)[0])
			}
			k++
		case t == "-T" || t == "--upload-file":
			out = append(out, next)
			k++
		case strings.HasPrefix(t, "--post-file=") || strings.HasPrefix(t, "--body-file="):
			_, v, _ := strings.Cut(t, "=")
			out = append(out, v)
		case strings.HasPrefix(t, "@"):
			out = append(out, t[1:])
		}
	}
	return out
}

// envDumper reports whether c prints the whole environment.
func envDumper(name string, args []shell.Word) bool {
	switch name {
	case "env", "printenv":
		for _, a := range args {
			if !strings.HasPrefix(a.Text, "-") {
				return name == "env" // printenv VAR prints one variable
			}
		}
		return true
	case "set", "compgen":
		return len(args) == 0 || name == "compgen" && wordAt(args, 0) == "-v" || name == "set" && wordAt(args, 0) == "-o" && len(args) == 1
	case "export", "declare", "typeset":
		return len(args) == 0 || len(args) == 1 && (args[0].Text == "-p" || args[0].Text == "-x" || args[0].Text == "-px")
	}
	return false
}

// envExfil: the environment piped or substituted into a network client;
// a sourced secret file and a variable sent out; git show REV:.env.
func (pc *packCtx) envExfil(out map[string]string) {
	cc := pc.cc
	if envDumper(pc.name, pc.args) {
		for j, hops := cc.i, 0; hops < 8; hops++ {
			next := cc.pipeNext(j)
			if next < 0 {
				break
			}
			if n := cc.all[next].Name(); netProgram(n) {
				out["env-pipe"] = "`" + pc.name + " | … " + n + "` sends the environment, with its tokens and keys, to the network"
				return
			}
			j = next
		}
		c := cc.all[cc.i]
		if (c.Via == "$(…)" || c.Via == "`…`" || c.Via == "<(…)") && c.Parent >= 0 && c.Parent < len(cc.all) {
			if n := cc.all[c.Parent].Name(); netProgram(n) {
				out["env-pipe"] = "`" + n + " … $(" + pc.name + ")` sends the environment to the network"
				return
			}
		}
	}
	if netProgram(pc.name) && len(cc.ck.written) > 0 {
		for _, f := range uploadedFiles(pc.args) {
			if t, ok := cc.writtenText(f); ok && strings.Contains(t, envMarker) {
				out["env-pipe"] = "`" + pc.name + "` uploads " + f + ", which holds the environment"
				return
			}
		}
	}
	if netProgram(pc.name) && cc.ck.sourced {
		for _, a := range pc.args {
			if a.Dynamic && strings.Contains(a.Text, "$") {
				out["sourced"] = "a secret file was sourced and `" + pc.name + "` sends " + a.Text + " to the network"
				return
			}
		}
	}
	if pc.name == "git" {
		sub, rest := gitSub(pc.args)
		if sub != "show" && sub != "cat-file" && sub != "archive" {
			return
		}
		for _, a := range rest {
			_, p, ok := strings.Cut(a.Text, ":")
			if !ok || p == "" || strings.HasPrefix(a.Text, "-") || strings.Contains(a.Text, "://") {
				continue
			}
			root := cc.ck.env.project
			if root == "" {
				root = "/"
			}
			if c := cc.ck.env.classify(path.Join(root, p)); c == classSecret || c == classSecretDir {
				out["git-show"] = "`git " + sub + " " + a.Text + "` prints a committed secret"
				return
			}
		}
	}
}

// sourcedSecret remembers that the command line loads a secret file into
// the shell (source .env, . ./.env.production).
func (cc *cmdCtx) sourcedSecret(name string, args []shell.Word) {
	if name != "source" && name != "." || len(args) == 0 {
		return
	}
	t := args[0].Text
	if strings.HasPrefix(path.Base(t), ".env") {
		cc.ck.sourced = true
		return
	}
	if p, ok := cc.ck.env.expand(t, cc.cwd); ok {
		if c := cc.ck.env.classify(p); c == classSecret || c == classSecretDir {
			cc.ck.sourced = true
		}
	}
}

// killAll: kill -9 -1, pkill -u, killall -u, killall5, pkill '.*'.
func (pc *packCtx) killAll(out map[string]string) {
	args := pc.args
	switch pc.name {
	case "killall5":
		out["kill"] = "killall5 signals every process"
		return
	case "kill":
		signal := false
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			switch {
			case t == "--":
				for _, p := range args[k+1:] {
					if p.Text == "-1" {
						out["kill"] = "`kill -1` signals every process the user may signal"
						return
					}
				}
				return
			case (t == "-s" || t == "-n") && !signal:
				signal = true
				k++
			case !signal && len(t) > 1 && t[0] == '-' && t != "-1":
				signal = true
			case t == "-1" && signal:
				out["kill"] = "`kill -1` signals every process the user may signal"
				return
			default:
				signal = true
			}
		}
		return
	}
	pos := positionals(args, []string{"-s", "--signal", "-g", "-G", "-P", "-t", "-n", "-o", "-y", "-u", "-U", "--uid", "--euid", "--user", "-F", "--pidfile"})
	if f, ok := hasFlag(args, []string{"-u", "-U", "--uid", "--euid", "--user"}); ok && len(pos) == 0 {
		// pkill -u bob kills all of bob's processes; pkill -u bob node only
		// his node processes
		out["kill"] = "`" + pc.name + " " + f + "` kills every process of a user"
		return
	}
	for _, p := range pos {
		switch p {
		case ".", ".*", "^", "", "'.*'", "[a-z]*", "*":
			out["kill"] = "`" + pc.name + " " + p + "` matches every process"
			return
		}
	}
}

// power: shutdown, reboot, halt, poweroff and their systemctl forms.
func (pc *packCtx) power(out map[string]string) {
	pos := positionals(pc.args)
	switch pc.name {
	case "shutdown":
		if _, ok := hasFlag(pc.args, []string{"-c", "--help"}); ok {
			return
		}
		out["power"] = "shutdown stops the machine"
	case "reboot", "halt", "poweroff":
		out["power"] = pc.name + " stops the machine"
	case "systemctl", "loginctl":
		if len(pos) > 0 {
			switch pos[0] {
			case "reboot", "poweroff", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep", "rescue", "emergency", "soft-reboot", "terminate-user", "kill-user", "terminate-session":
				out["power"] = pc.name + " " + pos[0] + " stops the machine or the user's session"
			case "stop", "disable", "mask", "kill":
				for _, u := range pos[1:] {
					if criticalUnit(u) {
						out["services"] = pc.name + " " + pos[0] + " " + u + " cuts off the machine or what runs on it"
					}
				}
			}
		}
	case "service":
		if len(pos) > 1 && criticalUnit(pos[0]) && (pos[1] == "stop" || pos[1] == "disable") {
			out["services"] = "service " + pos[0] + " " + pos[1] + " cuts off the machine or what runs on it"
		}
	case "init", "telinit":
		if len(pos) > 0 && (pos[0] == "0" || pos[0] == "6" || pos[0] == "1" || pos[0] == "s") {
			out["power"] = pc.name + " " + pos[0] + " changes the run level"
		}
	case "osascript":
		for _, a := range pc.args {
			l := strings.ToLower(a.Text)
			if strings.Contains(l, "shut down") || strings.Contains(l, "restart") && strings.Contains(l, "system events") {
				out["power"] = "osascript asks the system to shut down or restart"
			}
		}
	}
}

// criticalUnit reports whether a service unit keeps the machine
// reachable or runs its workloads.
func criticalUnit(u string) bool {
	u = strings.TrimSuffix(u, ".service")
	if at := strings.IndexByte(u, '@'); at > 0 {
		u = u[:at]
	}
	switch u {
	case "ssh", "sshd", "networking", "network", "networkmanager", "systemd-networkd", "systemd-resolved", "docker", "containerd",
		"kubelet", "firewalld", "ufw", "nftables", "cron", "crond", "systemd-journald", "dbus", "wpa_supplicant", "tailscaled", "cloudflared",
		"nginx", "apache2", "httpd", "haproxy", "traefik", "envoy", "caddy", "kong", "postgresql", "postgres", "mysql", "mysqld", "mariadb",
		"redis", "redis-server", "mongod", "elasticsearch", "opensearch", "rabbitmq-server", "kafka", "zookeeper", "etcd", "keepalived":
		return true
	}
	return false
}

// historyFile reports whether a path names a shell or REPL history file.
func historyFile(p string) bool {
	if p == "$HISTFILE" || p == "${HISTFILE}" {
		return true
	}
	switch path.Base(p) {
	case ".bash_history", ".zsh_history", ".sh_history", ".history", ".zhistory", "fish_history", ".python_history",
		".psql_history", ".mysql_history", ".node_repl_history", ".sqlite_history", ".lesshst", ".irb_history",
		".rediscli_history", ".histfile", ".ksh_history":
		return true
	}
	return false
}

// historyWipe: history -c, unset HISTFILE, HISTSIZE=0, and deleting,
// truncating or redirecting over a history file.
func (pc *packCtx) historyWipe(out map[string]string) {
	c := pc.cc.c
	for _, r := range c.Redirects {
		if (r.Op == ">" || r.Op == ">|" || r.Op == "&>") && historyFile(r.Target.Text) {
			out["history"] = "the redirect empties " + r.Target.Text
			return
		}
	}
	assigns := c.Assigns
	switch pc.name {
	case "history":
		if _, ok := hasFlag(pc.args, []string{"-c"}); ok {
			out["history"] = "history -c clears the shell history"
			return
		}
	case "unset":
		for _, a := range pc.args {
			if a.Text == "HISTFILE" {
				out["history"] = "unset HISTFILE stops the shell history"
				return
			}
		}
	case "set", "setopt":
		if wordAt(pc.args, 0) == "+o" && wordAt(pc.args, 1) == "history" {
			out["history"] = "set +o history stops the shell history"
			return
		}
	case "export", "declare", "typeset", "readonly":
		for _, a := range pc.args {
			assigns = append(assigns, a.Text)
		}
	case "rm", "unlink", "shred", "truncate", "srm", "trash", "cp", "ln", "mv", "tee", "dd", "sed", "install", "rsync":
		for i, a := range pc.args {
			t := strings.TrimPrefix(a.Text, "of=")
			if pc.name == "mv" && i == 0 {
				continue
			}
			if historyFile(t) && !strings.HasPrefix(a.Text, "-") {
				if pc.name == "cp" || pc.name == "mv" || pc.name == "ln" || pc.name == "install" || pc.name == "rsync" {
					if i != len(pc.args)-1 {
						continue // a copy of the history is not a wipe
					}
				}
				out["history"] = pc.name + " " + a.Text + " wipes the shell history"
				return
			}
		}
	}
	for _, a := range assigns {
		n, v, ok := strings.Cut(a, "=")
		if !ok {
			continue
		}
		switch n {
		case "HISTFILE":
			if v == "/dev/null" || v == "" {
				out["history"] = a + " stops the shell history"
				return
			}
		case "HISTSIZE", "HISTFILESIZE", "SAVEHIST":
			if v == "0" {
				out["history"] = a + " stops the shell history"
				return
			}
		}
	}
}

// destructiveVerb reports whether a word part is a destructive verb.
func destructiveVerb(w string) bool {
	switch w {
	case "delete", "destroy", "drop", "purge", "terminate", "wipe", "reset", "revoke", "uninstall", "prune", "truncate",
		"flush", "erase", "nuke", "teardown", "remove", "rm", "del", "obliterate":
		return true
	}
	return false
}

// dataProgram reports whether a program only prints, edits or searches
// its words (grep delete-prod.log is not a delete).
func dataProgram(n string) bool {
	switch n {
	case "echo", "printf", "cat", "less", "more", "head", "tail", "grep", "egrep", "fgrep", "rg", "ag", "ack", "ls", "cd",
		"mkdir", "touch", "vim", "vi", "nano", "emacs", "code", "open", "man", "which", "type", "file", "stat", "wc", "diff",
		"sed", "awk", "jq", "yq", "git", "rm", "rmdir", "find", "fd", "tree", "bat", "cp", "mv", "ln", "test", "[", "[[",
		"export", "local", "declare", "read", "true", "false", ":", "sort", "uniq", "cut", "tr", "xargs", "tee", "chmod",
		"chown", "du", "df", "basename", "dirname", "realpath", "readlink", "mktemp", "sleep", "date", "history", "unset", "set":
		return true
	}
	return false
}

// unknownProd: a program no pack knows, with a destructive verb and a
// production-looking target.
func (pc *packCtx) unknownProd(set *packs.Set, out map[string]string) {
	if pc.own || dataProgram(pc.name) || shell.IsShell(pc.name) {
		return
	}
	r := set.Rule("general.destroy-production")
	if r == nil {
		return
	}
	split := func(w string) []string {
		return strings.FieldsFunc(strings.ToLower(w), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		})
	}
	verb, prod := "", ""
	words := append([]shell.Word{{Text: pc.name}}, pc.args...)
	for _, w := range words {
		for _, p := range split(w.Text) {
			if verb == "" && destructiveVerb(p) {
				verb = w.Text
			}
			if prod == "" && contains(r.Words, p) {
				prod = w.Text
			}
		}
	}
	if verb != "" && prod != "" {
		out["prod"] = fmt.Sprintf("`%s` with %q and %q: a destructive verb and a production target", pc.name, verb, prod)
	}
}

// harm runs the model's part m on the command (see model.go).
func (pc *packCtx) harm(m string, set *packs.Set, out map[string]string) {
	switch m {
	case "harm-verb":
		pc.socketCommand(out)
		if len(out) == 0 {
			pc.harmVerbMatch(set, out)
		}
	case "harm-http":
		pc.harmHTTP(out)
	case "harm-sync-delete":
		pc.harmSync(out)
	case "harm-remote":
		pc.harmRemote(out)
	case "harm-exposure":
		pc.harmExposure(out)
	case "harm-capacity":
		pc.harmCapacity(out)
	case "harm-later":
		pc.harmLater(out)
	}
}
