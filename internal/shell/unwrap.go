package shell

import "strings"

// expand reads through command i: it peels wrappers off its words, and
// parses the strings it hands to another shell (sh -c, eval, su -c,
// watch, env -S, a script on stdin, find -exec) as nested commands.
func (s *state) expand(i int) {
	for guard := 0; guard < 64; guard++ {
		c := &s.cmds[i]
		if len(c.Args) == 0 {
			return
		}
		name := c.Name()
		if isShellName(name) {
			s.shell(i)
			return
		}
		switch name {
		case "eval":
			s.nested(i, joinWords(c.Args[1:]), "eval")
			return
		case "find":
			s.findExec(i)
			return
		case "watch":
			rest := skipOptions(c.Args[1:], "n", []string{"--interval"})
			if len(rest) > 0 {
				s.replaceBy(i, joinWords(rest), "watch")
			}
			return
		case "su":
			s.su(i)
			return
		case "ssh", "docker", "podman", "nerdctl", "docker-compose", "podman-compose", "kubectl", "oc", "kubecolor",
			"parallel", "screen", "tmux", "at", "batch", "trap", "entr", "ansible", "salt", "salt-ssh", "pssh", "parallel-ssh", "pdsh", "clush":
			if s.elsewhere(i, name) {
				return
			}
		case "flock", "script", "runuser", "npx", "pnpx":
			// Each takes a command string with -c (script -qc 'cmd',
			// flock FILE -c 'cmd', runuser -l USER -c 'cmd', npx -c 'cmd').
			opts := c.Args[1:]
			if name == "npx" || name == "pnpx" {
				// npx's own options end at the package: npx eslint -c x
				// hands -c to eslint.
				for k := 0; k < len(opts); k++ {
					if t := opts[k].Text; t == "-c" || t == "--call" || t == "-p" || t == "--package" {
						k++ // the option's value
					} else if !strings.HasPrefix(t, "-") {
						opts = opts[:k]
						break
					}
				}
			}
			if str, ok := commandString(opts); ok {
				s.replaceBy(i, str, name+" -c")
				return
			}
		}
		if name == "xargs" && s.xargsInput(i) {
			return
		}
		rest, ok := peel(c, name)
		if !ok {
			return
		}
		c.Wrappers = append(c.Wrappers, name)
		c.Args = rest
	}
}

// shells are the programs whose -c string is a script.
func isShellName(s string) bool {
	switch s {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "rbash", "yash", "posh", "busybox-sh":
		return true
	}
	return false
}

// IsShell reports whether name (a program's base name) is a shell whose
// -c string or standard input is a script.
func IsShell(name string) bool { return isShellName(name) }

// shell reads a shell's options: with -c its first operand is a script;
// with no script file (or with -s) its standard input is.
func (s *state) shell(i int) {
	c := s.cmds[i]
	name := c.Name()
	cmode, stdin := false, false
	var operands []Word
	args := c.Args[1:]
	for j := 0; j < len(args); j++ {
		a := args[j].Text
		if len(operands) > 0 || cmode && len(operands) == 0 && !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
			operands = append(operands, args[j:]...)
			break
		}
		switch {
		case a == "--" || a == "-":
			operands = append(operands, args[j+1:]...)
			j = len(args)
		case a == "-o" || a == "+o" || a == "-O" || a == "+O" || a == "--rcfile" || a == "--init-file" || a == "-C" && name == "fish" || a == "--init-command":
			j++
		case a == "--command" || strings.HasPrefix(a, "--command="):
			cmode = true
			if v, ok := strings.CutPrefix(a, "--command="); ok {
				operands = append(operands, Word{Text: v})
			}
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			if strings.ContainsRune(a[1:], 'c') {
				cmode = true
			}
			if strings.ContainsRune(a[1:], 's') {
				stdin = true
			}
		default:
			operands = append(operands, args[j:]...)
			j = len(args)
		}
	}
	switch {
	case cmode && len(operands) > 0:
		s.nested(i, operands[0].Text, name+" -c")
	case cmode:
		// "bash -c" with no string: nothing runs
	case len(operands) == 0 || stdin:
		if c.HasStdin {
			s.nested(i, c.Stdin, "stdin of "+name)
		} else if text, ok := s.piped(i); ok {
			s.nested(i, text, "pipe to "+name)
		}
	}
}

// piped returns the text that the command piping into command i writes
// ([Output]).
func (s *state) piped(i int) (string, bool) {
	from := s.cmds[i].PipeFrom
	if from < 0 || from >= len(s.cmds) {
		return "", false
	}
	return Output(s.cmds[from])
}

// su runs its -c string, or a login shell.
func (s *state) su(i int) {
	args := s.cmds[i].Args[1:]
	for j := 0; j < len(args); j++ {
		a := args[j].Text
		switch {
		case a == "-c" || a == "--command":
			if j+1 < len(args) {
				s.nested(i, args[j+1].Text, "su -c")
			}
			return
		case strings.HasPrefix(a, "--command="):
			s.nested(i, strings.TrimPrefix(a, "--command="), "su -c")
			return
		}
	}
}

// findExec turns find's -exec, -execdir, -ok and -okdir actions into
// commands, one per starting point, with {} replaced by it.
func (s *state) findExec(i int) {
	args := s.cmds[i].Args[1:]
	var starts []string
	j := 0
	for j < len(args) && (args[j].Text == "-H" || args[j].Text == "-L" || args[j].Text == "-P" || strings.HasPrefix(args[j].Text, "-O") || args[j].Text == "-D" && j+1 < len(args)) {
		if args[j].Text == "-D" {
			j++
		}
		j++
	}
	for ; j < len(args); j++ {
		a := args[j].Text
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == "," {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	for ; j < len(args); j++ {
		switch args[j].Text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		k := j + 1
		for k < len(args) && args[k].Text != ";" && args[k].Text != "+" {
			k++
		}
		body := args[j+1 : k]
		j = k
		if len(body) == 0 {
			continue
		}
		for _, st := range starts[:min(len(starts), 16)] {
			words := make([]Word, len(body))
			for n, w := range body {
				w.Text = strings.ReplaceAll(w.Text, "{}", st)
				words[n] = w
			}
			c := s.cmds[i]
			sub := Command{Args: words, Via: "find -exec", Depth: c.Depth, Parent: i, PipeFrom: -1}
			s.add(sub)
		}
	}
}

// nested parses text as a script run by command i, one level deeper.
func (s *state) nested(i int, text, via string) {
	depth := s.cmds[i].Depth + 1
	more, first := s.cmds[i].MoreArgs, len(s.cmds)
	s.parse(text, depth, via, i)
	if more {
		// xargs sh -c 'rm -rf {}': the nested commands get xargs's input
		// too.
		for k := first; k < len(s.cmds); k++ {
			s.cmds[k].MoreArgs = true
		}
	}
}

// replaceBy reads text as the commands runner i runs (nested), and lets
// them stand for it: the runner itself is harmless. Where text holds no
// command (” or a lone !), the runner stays the command, as bash sees it.
func (s *state) replaceBy(i int, text, via string) {
	first := len(s.cmds)
	s.nested(i, text, via)
	for k := first; k < len(s.cmds); k++ {
		if len(s.cmds[k].Args) > 0 {
			s.cmds[i].Args = nil
			return
		}
	}
}

// joinWords joins the words' texts with spaces, as eval does.
func joinWords(ws []Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

// skipOptions drops leading options: single letters in withArg take a
// value ("-n 5" or "-n5"), long options in longArg take one ("--x y" or
// "--x=y"), every other word starting with '-' is a flag. It stops at
// "--" (dropped) or the first operand.
func skipOptions(args []Word, withArg string, longArg []string) []Word {
	for len(args) > 0 {
		a := args[0].Text
		switch {
		case a == "--":
			return args[1:]
		case len(a) < 2 || a[0] != '-':
			return args
		case strings.HasPrefix(a, "--"):
			args = args[1:]
			if !strings.Contains(a, "=") && contains(longArg, a) && len(args) > 0 {
				args = args[1:]
			}
		default:
			args = args[1:]
			// -abc: the first letter that takes a value eats the rest, or
			// the next word.
			for k := 1; k < len(a); k++ {
				if strings.IndexByte(withArg, a[k]) >= 0 {
					if k == len(a)-1 && len(args) > 0 {
						args = args[1:]
					}
					break
				}
			}
		}
	}
	return args
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// peel returns the words after the wrapper name and its options, when
// name is a wrapper that runs them as a command.
func peel(c *Command, name string) ([]Word, bool) {
	args := c.Args[1:]
	var rest []Word
	switch name {
	case "nohup", "builtin", "setsid", "chronic", "nocorrect", "noglob", "unbuffer", "torsocks", "proxychains", "proxychains4", "catchsegv", "busybox", "exec", "command", "time", "nice", "timeout", "stdbuf", "ionice", "sudo", "doas", "env", "xargs", "caffeinate", "flock", "chrt", "taskset",
		"firejail", "systemd-run", "runuser", "chroot", "setpriv", "pkexec", "strace", "ltrace", "valgrind", "gdb", "npx", "pnpx", "bunx", "npm", "pnpm", "yarn",
		"unshare", "fakeroot", "entr":
	default:
		return nil, false
	}
	switch name {
	case "exec":
		rest = skipOptions(args, "a", nil)
	case "command":
		for _, a := range args {
			if a.Text == "-v" || a.Text == "-V" {
				return nil, false // a lookup, nothing runs
			}
			if !strings.HasPrefix(a.Text, "-") {
				break
			}
		}
		rest = skipOptions(args, "", nil)
	case "time":
		rest = skipOptions(args, "fo", []string{"--format", "--output"})
	case "nice":
		rest = skipOptions(args, "n", []string{"--adjustment"})
	case "timeout":
		rest = skipOptions(args, "sk", []string{"--signal", "--kill-after"})
		if len(rest) > 0 {
			rest = rest[1:] // the duration
		}
	case "stdbuf":
		rest = skipOptions(args, "ioe", []string{"--input", "--output", "--error"})
	case "ionice":
		rest = skipOptions(args, "cnp", []string{"--class", "--classdata", "--pid"})
	case "chrt":
		rest = skipOptions(args, "T", nil)
		if len(rest) > 0 {
			rest = rest[1:] // the priority
		}
	case "taskset":
		rest = skipOptions(args, "", nil)
		if len(rest) > 0 {
			rest = rest[1:] // the mask
		}
	case "flock":
		rest = skipOptions(args, "wEc", []string{"--timeout", "--conflict-exit-code", "--command"})
		if len(rest) > 0 {
			rest = rest[1:] // the lock file
		}
	case "caffeinate":
		rest = skipOptions(args, "tw", nil)
	case "sudo":
		rest = skipOptions(args, "ugCDhprtTUc", []string{"--user", "--group", "--close-from", "--chdir", "--host", "--prompt", "--role", "--type", "--command-timeout", "--other-user", "--login-class"})
		rest = skipAssigns(c, rest)
	case "doas":
		rest = skipOptions(args, "uC", nil)
	case "env":
		rest = envArgs(c, args)
	case "xargs":
		rest = skipOptions(args, "adEILnPs", []string{"--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"})
		c.MoreArgs = true
		if len(rest) == 0 {
			rest = []Word{{Text: "echo"}}
		}
	case "busybox":
		rest = args
	case "systemd-run":
		rest = skipOptions(args, "pEuMH", []string{"--property", "--setenv", "--unit", "--uid", "--gid", "--description", "--slice",
			"--machine", "--host", "--nice", "--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive",
			"--on-calendar", "--timer-property", "--path-property", "--socket-property", "--service-type", "--working-directory"})
	case "runuser":
		rest = skipOptions(args, "ugGsw", []string{"--user", "--group", "--supp-group", "--shell", "--whitelist-environment"})
	case "chroot":
		rest = skipOptions(args, "", []string{"--userspec", "--groups"})
		if len(rest) > 0 {
			rest = rest[1:] // the new root
		}
	case "setpriv":
		rest = skipOptions(args, "", []string{"--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups", "--inh-caps",
			"--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile"})
	case "pkexec":
		rest = skipOptions(args, "", []string{"--user"})
	case "strace":
		rest = skipOptions(args, "abeEIoOpPsSuUX", nil)
	case "ltrace":
		rest = skipOptions(args, "aeEnopsuxAD", nil)
	case "gdb":
		// gdb runs a program only as gdb [options] --args PROG ARGS.
		for k, a := range args {
			if a.Text == "--args" {
				rest = args[k+1:]
				break
			}
		}
	case "npx", "pnpx", "bunx":
		rest = skipOptions(args, "p", []string{"--package"})
	case "unshare":
		rest = skipOptions(args, "SGRw", []string{"--map-user", "--map-group", "--setgroups", "--propagation", "--setuid", "--setgid", "--wd", "--root", "--map-users", "--map-groups"})
	case "fakeroot":
		rest = skipOptions(args, "lsib", []string{"--lib", "--faked"})
	case "npm", "pnpm", "yarn":
		// npm exec, npm x, pnpm dlx, pnpm exec, yarn dlx run a package's
		// program; any other subcommand is not a wrapper.
		if len(args) > 0 && (args[0].Text == "exec" || args[0].Text == "x" || args[0].Text == "dlx") {
			rest = skipOptions(args[1:], "p", []string{"--package"})
		}
	default: // nohup, builtin, setsid, …: no options that take values
		rest = skipOptions(args, "", nil)
	}
	if len(rest) == 0 {
		return nil, false
	}
	return rest, true
}

// commandString returns the string a -c (or --command, --call) option
// hands to a shell, in a cluster or not (script -qc 'cmd').
func commandString(args []Word) (string, bool) {
	for k, a := range args {
		t := a.Text
		switch {
		case t == "--":
			return "", false
		case t == "-c" || t == "--command" || t == "--call":
			if k+1 < len(args) {
				return args[k+1].Text, true
			}
		case strings.HasPrefix(t, "--command=") || strings.HasPrefix(t, "--call="):
			_, v, _ := strings.Cut(t, "=")
			return v, true
		case len(t) > 2 && t[0] == '-' && t[1] != '-' && t[len(t)-1] == 'c' && k+1 < len(args):
			return args[k+1].Text, true
		}
	}
	return "", false
}

// envArgs reads env's options and NAME=value words; -S splits its string
// into more words.
func envArgs(c *Command, args []Word) []Word {
	for len(args) > 0 {
		a := args[0].Text
		switch {
		case a == "--":
			args = args[1:]
			return skipAssigns(c, args)
		case a == "-S" || a == "--split-string":
			if len(args) < 2 {
				return nil
			}
			return append(splitWords(args[1].Text), args[2:]...)
		case strings.HasPrefix(a, "--split-string="):
			return append(splitWords(strings.TrimPrefix(a, "--split-string=")), args[1:]...)
		case strings.HasPrefix(a, "-S"):
			return append(splitWords(a[2:]), args[1:]...)
		case a == "-u" || a == "-C" || a == "--unset" || a == "--chdir":
			if len(args) < 2 {
				return nil
			}
			args = args[2:]
		case strings.HasPrefix(a, "-") && len(a) > 1:
			args = args[1:]
		default:
			if _, ok := assignment(a); ok {
				c.Assigns = append(c.Assigns, a)
				args = args[1:]
				continue
			}
			return args
		}
	}
	return nil
}

// skipAssigns moves leading NAME=value words into c.Assigns.
func skipAssigns(c *Command, args []Word) []Word {
	for len(args) > 0 {
		if _, ok := assignment(args[0].Text); !ok {
			break
		}
		c.Assigns = append(c.Assigns, args[0].Text)
		args = args[1:]
	}
	return args
}

// splitWords splits a string into words as env -S does: shell-like
// quoting, no expansion.
func splitWords(text string) []Word {
	p := &parser{s: &state{}, src: text}
	var out []Word
	for {
		p.blanks()
		if p.eof() {
			return out
		}
		st := p.pos
		w := p.word()
		if p.pos == st {
			p.pos++
			continue
		}
		out = append(out, w)
	}
}
