package shell

import "strings"

// elsewhere reads the commands that a program runs somewhere else or
// later: on a remote host (ssh host 'cmd'), in a container (docker exec,
// docker run, kubectl exec -- cmd), or through a runner (parallel, screen,
// tmux, at, batch, trap, entr -s). It adds them as commands of their own,
// one level deeper, and reports whether command i is done with.
//
// A container started with the host's root folder mounted (docker run -v
// /:/host) is read as the host: a path under the mount point is rewritten
// to the host's path (/host/etc is /etc).
func (s *state) elsewhere(i int, name string) bool {
	c := s.cmds[i]
	args := c.Args[1:]
	switch name {
	case "ssh":
		rest := skipOptions(args, "BbcDEeFIiJLlmOopQRSWw", nil)
		if len(rest) == 0 {
			return false
		}
		if len(rest) > 1 {
			first := len(s.cmds)
			s.nested(i, joinWords(rest[1:]), "ssh "+rest[0].Text)
			// cat dump.sql | ssh db psql: the remote command reads the local
			// pipe, heredoc or < redirect
			for k := first; k < len(s.cmds); k++ {
				if r := &s.cmds[k]; r.Parent == i && r.PipeFrom < 0 && !r.HasStdin {
					r.PipeFrom, r.Stdin, r.HasStdin = c.PipeFrom, c.Stdin, c.HasStdin
					r.Redirects = append(r.Redirects, inputRedirects(c.Redirects)...)
					break
				}
			}
		} else if c.HasStdin {
			s.nested(i, c.Stdin, "stdin of ssh "+rest[0].Text)
		}
		return false
	case "docker", "podman", "nerdctl", "docker-compose", "podman-compose":
		return s.container(i, name, args)
	case "kubectl", "oc", "kubecolor":
		for k, a := range args {
			if a.Text == "--" {
				if isKubeRunner(args[:k]) && k+1 < len(args) {
					s.sub(i, args[k+1:], name+" exec", "")
				}
				return false
			}
		}
		return false
	case "parallel":
		s.parallel(i, args)
		return true
	case "ansible":
		module, cmd := "command", ""
		for k := 0; k+1 < len(args); k++ {
			switch t := args[k].Text; t {
			case "-m", "--module-name":
				module = args[k+1].Text
			case "-a", "--args":
				cmd = args[k+1].Text
			}
		}
		switch module {
		case "command", "shell", "raw", "ansible.builtin.shell", "ansible.builtin.command", "ansible.builtin.raw":
			if cmd != "" {
				s.nested(i, cmd, "ansible -m "+module)
			}
		}
		return false
	case "salt", "salt-ssh":
		for k, a := range args {
			if (a.Text == "cmd.run" || a.Text == "cmd.shell" || a.Text == "cmd.run_all") && k+1 < len(args) {
				s.nested(i, args[k+1].Text, name+" "+a.Text)
				break
			}
		}
		return false
	case "pssh", "parallel-ssh", "pdsh", "clush":
		rest := skipOptions(args, "hHlpteoOxXwgRfuS", []string{"--hosts", "--host", "--user", "--par", "--timeout", "--outdir", "--errdir", "--extra-args", "--option"})
		if len(rest) > 0 {
			s.nested(i, joinWords(rest), name)
		}
		return false
	case "screen":
		for k, a := range args {
			if a.Text == "-X" {
				for j := k + 1; j+1 < len(args); j++ {
					if args[j].Text == "stuff" {
						s.nested(i, typed(args[j+1].Text), "screen stuff")
						return true
					}
				}
				return true
			}
		}
		rest := skipOptions(args, "SceEhpstTX", nil)
		if len(rest) > 0 {
			s.sub(i, rest, "screen", "")
		}
		return true
	case "tmux":
		s.tmux(i, args)
		return true
	case "at", "batch":
		if c.HasStdin {
			s.nested(i, c.Stdin, "stdin of "+name)
		} else if text, ok := s.piped(i); ok {
			s.nested(i, text, "pipe to "+name)
		}
		return true
	case "trap":
		rest := args
		if len(rest) > 0 && rest[0].Text == "--" {
			rest = rest[1:]
		}
		if len(rest) > 1 && !strings.HasPrefix(rest[0].Text, "-") {
			s.nested(i, rest[0].Text, "trap")
		}
		return true
	case "entr":
		shellMode := false
		for _, a := range args {
			if strings.HasPrefix(a.Text, "-") && strings.ContainsRune(a.Text, 's') {
				shellMode = true
			}
			if !strings.HasPrefix(a.Text, "-") {
				break
			}
		}
		if rest := skipOptions(args, "", nil); shellMode && len(rest) > 0 {
			s.nested(i, rest[0].Text, "entr -s")
			return true
		}
		return false
	}
	return false
}

// isKubeRunner reports whether kubectl words before "--" run a command in
// a pod: exec, run, debug.
func isKubeRunner(ws []Word) bool {
	for _, w := range ws {
		switch w.Text {
		case "exec", "run", "debug":
			return true
		}
	}
	return false
}

// sub adds words as a command that command i runs elsewhere, with the
// host root mount point, if any, rewritten to /.
func (s *state) sub(i int, words []Word, via, mount string) {
	c := s.cmds[i]
	if c.Depth+1 > MaxDepth {
		s.fail(ErrDepth)
		return
	}
	out := make([]Word, len(words))
	for k, w := range words {
		if mount != "" {
			w.Text = hostPath(w.Text, mount)
		}
		out[k] = w
	}
	// docker exec -i db psql < dump.sql, echo … | kubectl exec -i pod -- psql:
	// what runs there reads what the local command reads.
	s.add(Command{Args: out, Via: via, Depth: c.Depth + 1, Parent: i, PipeFrom: c.PipeFrom, MoreArgs: c.MoreArgs,
		Stdin: c.Stdin, HasStdin: c.HasStdin, Redirects: inputRedirects(c.Redirects)})
}

// inputRedirects returns the redirects that feed standard input.
func inputRedirects(rs []Redirect) []Redirect {
	var out []Redirect
	for _, r := range rs {
		if r.Op == "<" && (r.Fd == -1 || r.Fd == 0) {
			out = append(out, r)
		}
	}
	return out
}

// hostPath rewrites the mount point of the host's root in text to /.
func hostPath(text, mount string) string {
	if text == mount {
		return "/"
	}
	return strings.ReplaceAll(text, mount+"/", "/")
}

// Options of docker run/create and exec that take a value.
var (
	runValue = []string{"-v", "--volume", "--mount", "-e", "--env", "--env-file", "-p", "--publish", "--name", "-w", "--workdir",
		"-u", "--user", "--network", "--net", "--entrypoint", "-l", "--label", "--label-file", "--platform", "--pull", "--restart",
		"-m", "--memory", "--cpus", "--hostname", "-h", "--add-host", "--device", "--cap-add", "--cap-drop", "--security-opt",
		"--tmpfs", "--ulimit", "--log-driver", "--log-opt", "--dns", "--ipc", "--pid", "--runtime", "--shm-size", "--stop-signal",
		"--gpus", "--cidfile", "--expose", "--group-add", "--link", "--volumes-from", "--detach-keys", "--index", "--uts", "--userns",
		"--memory-swap", "--cpu-shares", "-c", "--cpuset-cpus", "--health-cmd", "--ip", "--mac-address", "--network-alias", "--annotation", "--arch", "--os"}
	dockerGlobal = []string{"-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory"}
)

// container reads docker/podman exec and run (also container exec/run,
// compose exec/run SERVICE).
func (s *state) container(i int, name string, args []Word) bool {
	rest := args
	skipGlobal := func() {
		for len(rest) > 0 && strings.HasPrefix(rest[0].Text, "-") {
			t := rest[0].Text
			rest = rest[1:]
			if !strings.Contains(t, "=") && contains(dockerGlobal, t) && len(rest) > 0 {
				rest = rest[1:]
			}
		}
	}
	skipGlobal()
	if len(rest) > 0 && (rest[0].Text == "container" || rest[0].Text == "compose") {
		rest = rest[1:]
		skipGlobal()
	}
	if len(rest) == 0 {
		return false
	}
	verb := rest[0].Text
	if verb != "exec" && verb != "run" && verb != "create" {
		return false
	}
	rest = rest[1:]
	mount, entry := "", []Word(nil)
	for len(rest) > 0 && strings.HasPrefix(rest[0].Text, "-") && rest[0].Text != "-" {
		t := rest[0].Text
		rest = rest[1:]
		if t == "--" {
			break
		}
		opt, val, eq := strings.Cut(t, "=")
		if !eq {
			if !contains(runValue, t) || len(rest) == 0 {
				// -it, --rm, -d, --privileged; or a short cluster ending
				// in a value letter (-itv /:/host)
				if len(t) > 2 && t[1] != '-' && strings.ContainsRune("vewpuc", rune(t[len(t)-1])) && len(rest) > 0 {
					opt, val = "-"+t[len(t)-1:], rest[0].Text
					rest = rest[1:]
				} else {
					continue
				}
			} else {
				val = rest[0].Text
				rest = rest[1:]
			}
		}
		switch opt {
		case "-v", "--volume":
			if src, dst, ok := strings.Cut(val, ":"); ok && (src == "/" || src == "/." || src == "//") {
				mount = strings.TrimSuffix(strings.SplitN(dst, ":", 2)[0], "/")
			}
		case "--mount":
			var src, dst string
			for _, kv := range strings.Split(val, ",") {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "source", "src":
					src = v
				case "target", "destination", "dst":
					dst = v
				}
			}
			if src == "/" && dst != "" {
				mount = strings.TrimSuffix(dst, "/")
			}
		case "--entrypoint":
			entry = []Word{{Text: val}}
		}
	}
	if len(rest) == 0 {
		return false
	}
	// exec CONTAINER cmd…, run IMAGE cmd…, compose exec SERVICE cmd…
	words := append(entry, rest[1:]...)
	if len(words) == 0 {
		return false
	}
	if mount == "/" {
		mount = ""
	}
	s.sub(i, words, name+" "+verb+" "+rest[0].Text, mount)
	return false
}

// parallel reads GNU parallel: CMD ::: args, or ::: 'cmd' 'cmd'.
func (s *state) parallel(i int, args []Word) {
	args = skipOptions(args, "jSaIdCNnLX", []string{"--jobs", "--sshlogin", "--joblog", "--results", "--arg-file", "--delimiter",
		"--colsep", "--tmpdir", "--timeout", "--halt", "--retries", "--env", "--max-args", "--max-replace-args"})
	var tmpl, vals []Word
	sep := false
	for _, a := range args {
		switch {
		case a.Text == ":::" || a.Text == "::::" || a.Text == ":::+" || a.Text == "::::+":
			sep = true
		case sep:
			vals = append(vals, a)
		default:
			tmpl = append(tmpl, a)
		}
	}
	if len(tmpl) == 0 {
		for _, v := range vals[:min(len(vals), 16)] {
			s.nested(i, v.Text, "parallel")
		}
		return
	}
	if len(vals) == 0 {
		// arguments come on stdin: like xargs
		s.cmds[i].MoreArgs = true
		s.sub(i, tmpl, "parallel", "")
		return
	}
	for _, v := range vals[:min(len(vals), 16)] {
		words := make([]Word, 0, len(tmpl)+1)
		placed := false
		for _, w := range tmpl {
			if strings.Contains(w.Text, "{}") {
				w.Text = strings.ReplaceAll(w.Text, "{}", v.Text)
				placed = true
			}
			words = append(words, w)
		}
		if !placed {
			words = append(words, v)
		}
		if len(tmpl) == 1 {
			s.nested(i, joinWords(words), "parallel")
			continue
		}
		s.sub(i, words, "parallel", "")
	}
}

// tmux reads the commands tmux runs: new-session, new-window,
// split-window, respawn-*, run-shell, display-popup take a shell command;
// send-keys types one.
func (s *state) tmux(i int, args []Word) {
	for k := 0; k < len(args); k++ {
		if args[k].Text == "-c" && k+1 < len(args) {
			s.nested(i, args[k+1].Text, "tmux -c")
			return
		}
		if !strings.HasPrefix(args[k].Text, "-") {
			args = args[k:]
			break
		}
		if t := args[k].Text; t == "-L" || t == "-S" || t == "-f" || t == "-T" {
			k++
		}
	}
	if len(args) == 0 {
		return
	}
	switch args[0].Text {
	case "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw",
		"run-shell", "run", "display-popup", "popup":
		rest := skipOptions(args[1:], "sntcexyFlfpwL", nil)
		if len(rest) > 0 {
			s.nested(i, joinWords(rest), "tmux "+args[0].Text)
		}
	case "send-keys", "send":
		rest := skipOptions(args[1:], "tNc", nil)
		var b strings.Builder
		for _, w := range rest {
			switch w.Text {
			case "Enter", "C-m", "KPEnter", "C-j", "C-c", "Escape":
				b.WriteByte('\n')
			case "Space":
				b.WriteByte(' ')
			case "Tab":
				b.WriteByte('\t')
			default:
				b.WriteString(w.Text)
			}
		}
		if b.Len() > 0 {
			s.nested(i, b.String(), "tmux send-keys")
		}
	}
}

// typed turns what screen's stuff types into text: \n and ^M end lines.
func typed(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\r`, "\n", "^M", "\n", "^J", "\n").Replace(s)
}
