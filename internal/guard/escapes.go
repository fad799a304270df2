package guard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// Some programs take a shell command in their own syntax: a database
// shell's \! and .shell, an editor's :!, tar's --to-command and
// --checkpoint-action, zip's -TT, ssh's ProxyCommand, rsync's -e, gdb's
// shell, man's pager. The guard reads the command out of the program's
// words and judges it as the command it is.

// escapeVia names where an escaped command came from, for explain.
func escapeVia(name, how string) string { return name + " " + how }

// dbEscapes returns the shell commands in a database shell's input text:
// psql's \! and \o |, mysql's system and \!, sqlite3's and duckdb's
// .shell, .system and .once/.output |, COPY … TO PROGRAM.
func dbEscapes(name, text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for _, stmt := range strings.Split(line, ";") {
			l := strings.TrimSpace(stmt)
			low := strings.ToLower(l)
			switch {
			case strings.HasPrefix(l, `\!`):
				out = append(out, strings.TrimSpace(l[2:]))
			case strings.HasPrefix(low, "system ") && (name == "mysql" || name == "mariadb" || name == "mycli"):
				out = append(out, strings.TrimSpace(l[len("system "):]))
			case strings.HasPrefix(low, ".shell ") || strings.HasPrefix(low, ".system "):
				_, cmd, _ := strings.Cut(l, " ")
				out = append(out, strings.TrimSpace(cmd))
			case (strings.HasPrefix(low, `\o `) || strings.HasPrefix(low, ".output ") || strings.HasPrefix(low, ".once ") || strings.HasPrefix(low, `\g `)) && strings.Contains(l, "|"):
				_, cmd, _ := strings.Cut(l, "|")
				out = append(out, strings.TrimSpace(cmd))
			case strings.Contains(low, " program "):
				// COPY t TO PROGRAM 'cmd', \copy … to program 'cmd'
				i := strings.Index(low, " program ")
				rest := strings.TrimSpace(l[i+len(" program "):])
				if len(rest) > 1 && (rest[0] == '\'' || rest[0] == '"') {
					if j := strings.IndexByte(rest[1:], rest[0]); j >= 0 {
						out = append(out, rest[1:1+j])
					}
				}
			}
			if len(out) >= 64 {
				return out
			}
		}
	}
	return out
}

// inputTexts returns what the command reads on standard input, where the
// parser knows it: a heredoc or here-string, the output of the command
// piping into it, a file the line wrote and redirects in with <.
func (cc *cmdCtx) inputTexts() []string {
	var texts []string
	if cc.c.HasStdin {
		texts = append(texts, cc.c.Stdin)
	}
	if t, ok := cc.pipedText(); ok {
		texts = append(texts, t)
	}
	for _, r := range cc.c.Redirects {
		if r.Op == "<" {
			if t, ok := cc.writtenText(r.Target.Text); ok {
				texts = append(texts, t)
			}
		}
	}
	return texts
}

// dbShell reports whether a program is a database shell with a shell
// escape.
func dbShell(name string) bool {
	switch name {
	case "psql", "pgcli", "mysql", "mariadb", "mycli", "sqlite3", "sqlite", "duckdb", "litecli":
		return true
	}
	return false
}

// editorEscape returns the shell command an editor's ex command runs
// (:!cmd, r !cmd, w !cmd, call system("cmd")), or "".
func editorEscape(cmd string) string {
	c := strings.TrimLeft(strings.TrimSpace(cmd), ":")
	c = strings.TrimSpace(c)
	switch {
	case strings.HasPrefix(c, "!"):
		return strings.TrimSpace(c[1:])
	case strings.HasPrefix(c, "r !") || strings.HasPrefix(c, "w !") || strings.HasPrefix(c, "read !") || strings.HasPrefix(c, "write !"):
		_, rest, _ := strings.Cut(c, "!")
		return strings.TrimSpace(rest)
	}
	for _, f := range []string{"system(", "systemlist(", "jobstart(", "termopen("} {
		if i := strings.Index(c, f); i >= 0 {
			rest := c[i+len(f):]
			if len(rest) > 1 && (rest[0] == '"' || rest[0] == '\'') {
				if j := strings.IndexByte(rest[1:], rest[0]); j >= 0 {
					return rest[1 : 1+j]
				}
			}
			return "$UNKNOWN"
		}
	}
	return ""
}

// sshOptionCommand returns the command an ssh -o option runs
// (ProxyCommand, LocalCommand, KnownHostsCommand), or "".
func sshOptionCommand(opt string) string {
	k, v, ok := strings.Cut(opt, "=")
	if !ok {
		k, v, ok = strings.Cut(strings.TrimSpace(opt), " ")
	}
	if !ok {
		return ""
	}
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
		v = strings.TrimSpace(v)
		if strings.EqualFold(v, "none") {
			return ""
		}
		// %h, %p, %r, %n stand for the host, port, user and name
		return strings.NewReplacer("%h", "host", "%p", "22", "%r", "user", "%n", "host", "%%", "%").Replace(v)
	}
	return ""
}

// shellEscapes judges the shell commands a program runs in its own
// syntax.
func (cc *cmdCtx) shellEscapes(name string) {
	args := cc.args()
	run := func(cmd, how string) {
		if strings.TrimSpace(cmd) != "" {
			cc.nested(cmd, escapeVia(name, how))
		}
	}
	switch {
	case dbShell(name):
		var texts []string
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			switch {
			case t == "-c" || t == "--command" || t == "-e" || t == "--execute" || t == "-cmd":
				texts = append(texts, wordAt(args, k+1))
				k++
			case strings.HasPrefix(t, "--command=") || strings.HasPrefix(t, "--execute="):
				_, v, _ := strings.Cut(t, "=")
				texts = append(texts, v)
			case len(t) > 2 && (strings.HasPrefix(t, "-e") || strings.HasPrefix(t, "-c")) && !strings.HasPrefix(t, "--"):
				texts = append(texts, t[2:])
			case t == "-f" || t == "--file":
				if text, ok := cc.writtenText(wordAt(args, k+1)); ok {
					texts = append(texts, text)
				}
				k++
			case !strings.HasPrefix(t, "-") && (name == "sqlite3" || name == "sqlite" || name == "duckdb" || name == "litecli"):
				texts = append(texts, t) // sqlite3 db.sqlite '.shell …'
			}
		}
		texts = append(texts, cc.inputTexts()...)
		for _, text := range texts {
			for _, cmd := range dbEscapes(name, text) {
				run(cmd, "shell escape")
			}
		}
	case name == "ed" || name == "ex" || (name == "vim" || name == "vi" || name == "nvim") && slices.ContainsFunc(args, func(a shell.Word) bool {
		return a.Text == "-e" || a.Text == "-es" || a.Text == "-E" || a.Text == "-Es" || a.Text == "-s"
	}):
		// ed and ex (vim -e) read their commands from standard input:
		// !cmd, r !cmd and w !cmd run a shell
		texts := cc.inputTexts()
		for _, text := range texts {
			for i, line := range strings.Split(text, "\n") {
				if i >= 512 {
					break
				}
				if e := editorEscape(line); e != "" {
					run(e, ":!")
				}
			}
		}
		if name == "ed" {
			break
		}
		fallthrough
	case name == "vim" || name == "vi" || name == "nvim" || name == "ex" || name == "view" || name == "gvim" || name == "vimdiff" || name == "evim":
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			cmd := ""
			switch {
			case t == "-c" || t == "--cmd" || t == "-S" && false:
				cmd = wordAt(args, k+1)
				k++
			case strings.HasPrefix(t, "+") && len(t) > 1:
				cmd = t[1:]
			}
			if cmd == "" {
				continue
			}
			if e := editorEscape(cmd); e != "" {
				run(e, ":!")
			}
		}
	case name == "emacs" || name == "emacsclient":
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			if t == "--eval" || t == "-eval" || t == "--execute" {
				cc.lispShell(wordAt(args, k+1))
				k++
			} else if strings.HasPrefix(t, "--eval=") {
				cc.lispShell(strings.TrimPrefix(t, "--eval="))
			}
		}
	case name == "tar" || name == "gtar" || name == "bsdtar":
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			switch {
			case t == "--to-command" || t == "--use-compress-program" || t == "-I" || t == "--rsh-command" || t == "--info-script" || t == "--new-volume-script" || t == "-F":
				run(wordAt(args, k+1), t)
				k++
			case strings.HasPrefix(t, "--to-command=") || strings.HasPrefix(t, "--use-compress-program=") || strings.HasPrefix(t, "--rsh-command=") ||
				strings.HasPrefix(t, "--info-script=") || strings.HasPrefix(t, "--new-volume-script="):
				k2, v, _ := strings.Cut(t, "=")
				run(v, k2)
			case strings.HasPrefix(t, "--checkpoint-action="):
				v := strings.TrimPrefix(t, "--checkpoint-action=")
				if cmd, ok := strings.CutPrefix(v, "exec="); ok {
					run(cmd, "--checkpoint-action=exec")
				}
			}
		}
	case name == "zip":
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			if t == "-TT" || t == "--unzip-command" {
				run(wordAt(args, k+1), t)
				k++
			} else if strings.HasPrefix(t, "--unzip-command=") {
				run(strings.TrimPrefix(t, "--unzip-command="), "--unzip-command")
			}
		}
	case name == "ssh" || name == "scp" || name == "sftp" || name == "autossh":
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			opt := ""
			switch {
			case t == "-o":
				opt = wordAt(args, k+1)
				k++
			case strings.HasPrefix(t, "-o") && len(t) > 2:
				opt = t[2:]
			case t == "-S" && name == "scp":
				run(wordAt(args, k+1), "-S")
				k++
			}
			if cmd := sshOptionCommand(opt); cmd != "" {
				run(cmd, strings.SplitN(strings.SplitN(opt, "=", 2)[0], " ", 2)[0])
			}
		}
		if name == "sftp" {
			cc.sftpBatch(args)
		}
	case name == "rsync":
		if v, ok := optValue(args, "-e", "--rsh"); ok {
			run(v, "-e")
		}
		if v, ok := optValue(args, "--rsync-path"); ok {
			run(v, "--rsync-path")
		}
	case name == "gdb" || name == "cgdb" || name == "lldb":
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			cmd := ""
			switch {
			case t == "-ex" || t == "-iex" || t == "--eval-command" || t == "-o" && name == "lldb" || t == "--one-line":
				cmd = wordAt(args, k+1)
				k++
			case strings.HasPrefix(t, "--eval-command="):
				cmd = strings.TrimPrefix(t, "--eval-command=")
			}
			cmd = strings.TrimSpace(cmd)
			switch {
			case strings.HasPrefix(cmd, "!"):
				run(cmd[1:], "-ex !")
			case strings.HasPrefix(cmd, "shell "):
				run(cmd[len("shell "):], "-ex shell")
			case strings.HasPrefix(cmd, "platform shell "):
				run(cmd[len("platform shell "):], "platform shell")
			}
		}
	case name == "man":
		if v, ok := optValue(args, "-P", "--pager"); ok {
			run(v, "-P")
		}
	case name == "mongosh" || name == "mongo":
		if v, ok := optValue(args, "--eval"); ok {
			// the shell commands its JavaScript runs; its own deletes are
			// the database pack's (deleteMany({}) asks, with a filter not)
			cc.noSDK = true
			cc.scanCode("node", v)
			cc.noSDK = false
		}
	case name == "less" || name == "more":
		for _, a := range args {
			if strings.HasPrefix(a.Text, "+!") {
				run(a.Text[2:], "+!")
			}
		}
	}
	for _, a := range cc.c.Assigns {
		n, v, _ := strings.Cut(a, "=")
		switch n {
		case "MANPAGER", "PAGER", "SSH_ASKPASS", "SUDO_ASKPASS", "BROWSER", "MANROFFOPT":
			// a program the command runs from its environment
			if name != "git" { // git's own environment: gitEnv
				run(v, n)
			}
		case "LESSOPEN", "LESSCLOSE":
			// less runs the input preprocessor: |cmd %s, ||cmd %s
			run(strings.TrimLeft(v, "|"), n)
		}
	}
	if name == "mapfile" || name == "readarray" {
		// -C CALLBACK: bash evaluates it every -c lines
		if v, ok := optValue(args, "-C"); ok {
			run(v, "-C")
		}
	}
}

// lispShell judges the shell commands an Emacs Lisp expression runs.
func (cc *cmdCtx) lispShell(expr string) {
	for _, f := range []string{"shell-command", "call-process-shell-command", "shell-command-to-string", "async-shell-command", "start-process-shell-command"} {
		for off := 0; off < len(expr); {
			i := strings.Index(expr[off:], f)
			if i < 0 {
				break
			}
			rest := expr[off+i+len(f):]
			off += i + len(f)
			q := strings.IndexByte(rest, '"')
			if q < 0 || q > 64 {
				cc.find("inline-code-unknown", "", "the Emacs Lisp code runs a shell command the guard cannot read.")
				continue
			}
			if j := strings.IndexByte(rest[q+1:], '"'); j >= 0 {
				cc.nested(rest[q+1:q+1+j], "emacs "+f)
			}
		}
	}
}

// sftpBatch judges an sftp batch (-b FILE, -b - on standard input): its
// ! commands run locally, and a put onto a system folder of the host
// replaces what the system runs.
func (cc *cmdCtx) sftpBatch(args []shell.Word) {
	v, ok := optValue(args, "-b")
	if !ok {
		return
	}
	text := ""
	switch {
	case v == "-" && cc.c.HasStdin:
		text = cc.c.Stdin
	case v == "-":
		if t, ok := cc.pipedText(); ok {
			text = t
		}
	default:
		if t, ok := cc.writtenText(v); ok {
			text = t
		}
	}
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-@"))
		f := strings.Fields(l)
		switch {
		case strings.HasPrefix(l, "!"):
			cc.nested(l[1:], "sftp !")
		case len(f) >= 3 && (f[0] == "put" || f[0] == "reput" || f[0] == "rename" || f[0] == "ln" || f[0] == "symlink") && remoteSystemPath(f[len(f)-1]):
			cc.modelFind("remote", fmt.Sprintf("sftp %s writes into %s, a system folder of the host", f[0], f[len(f)-1]))
		case len(f) >= 2 && (f[0] == "rm" || f[0] == "rmdir"):
			cc.modelFind("remote", fmt.Sprintf("sftp %s deletes %s on the host", f[0], f[1]))
		}
	}
}

// rawSocket blocks what opens a raw network connection the guard cannot
// follow: a redirect to /dev/tcp or /dev/udp (bash's sockets: a reverse
// shell, or a file sent past every client the guard reads), nc or ncat
// running a program for the other end (-e, -c, --exec, --sh-exec), socat
// joining a program to a socket (exec:, system:).
func (cc *cmdCtx) rawSocket(name string) {
	for _, r := range cc.c.Redirects {
		t := r.Target.Text
		if strings.HasPrefix(t, "/dev/tcp/") || strings.HasPrefix(t, "/dev/udp/") {
			cc.find("raw-socket", t, fmt.Sprintf("the redirect %s %s opens a raw network connection: a reverse shell, or data sent out past every client the guard reads.", r.Op, t))
			return
		}
	}
	args := cc.args()
	switch name {
	case "nc", "ncat", "netcat", "nc.traditional", "nc.openbsd":
		for _, a := range args {
			t := a.Text
			if t == "-e" || t == "-c" || t == "--exec" || t == "--sh-exec" || t == "--lua-exec" || strings.HasPrefix(t, "--exec=") || strings.HasPrefix(t, "--sh-exec=") {
				cc.find("raw-socket", "", fmt.Sprintf("`%s %s` hands a program to whoever is at the other end of the connection: a reverse or bind shell.", name, t))
				return
			}
		}
	case "socat":
		for _, a := range args {
			l := strings.ToLower(a.Text)
			if strings.HasPrefix(l, "exec:") || strings.HasPrefix(l, "system:") || strings.Contains(l, ",exec:") {
				cc.find("raw-socket", "", fmt.Sprintf("`socat %s` joins a program to a network connection: a reverse or bind shell.", a.Text))
				return
			}
		}
	}
	for _, a := range args {
		if t := a.Text; strings.HasPrefix(t, "/dev/tcp/") || strings.HasPrefix(t, "/dev/udp/") {
			cc.find("raw-socket", t, fmt.Sprintf("%s opens a raw network connection through %s.", name, t))
			return
		}
	}
}

// socketCommand is the model's verb part for a service's control socket:
// text piped or echoed into socat, nc or a socket client whose command is
// destructive (echo 'disable server backend/web1' | socat stdio
// /var/run/haproxy.sock).
func (pc *packCtx) socketCommand(out map[string]string) {
	switch pc.name {
	case "socat", "nc", "ncat", "netcat", "telnet", "varnishadm", "haproxyctl":
	default:
		return
	}
	text, ok := pc.cc.pipedText()
	if !ok && pc.cc.c.HasStdin {
		text, ok = pc.cc.c.Stdin, true
	}
	if !ok {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if v := harmWord(f[0]); v != "" {
			out["verb"] = fmt.Sprintf("the command %q sent to %s through %s is destructive (%s)", strings.TrimSpace(line), strings.Join(pc.args2(), " "), pc.name, v)
			return
		}
	}
}

// args2 returns the words after the program, as text.
func (pc *packCtx) args2() []string {
	out := make([]string, 0, len(pc.args))
	for _, a := range pc.args {
		out = append(out, a.Text)
	}
	return out
}

// edgeProxy reports whether a name is a load balancer's or ingress's
// (a container, a unit, a pod): stopping it takes every site behind it
// down.
func edgeProxy(w string) bool {
	l := strings.ToLower(w)
	for _, p := range []string{"traefik", "haproxy", "nginx-proxy", "ingress-nginx", "ingress", "envoy", "caddy", "kong", "istio-ingressgateway", "load-balancer", "loadbalancer"} {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}
