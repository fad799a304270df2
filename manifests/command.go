package manifests

import "strings"

// SplitExec splits a shell command line into the program and its
// arguments, for the exec form ("command" is the program, "args" the
// rest), which Claude Code starts with no shell from 2.1.139. It accepts
// only lines whose meaning needs no shell: words separated by spaces or
// tabs, each either bare (letters, digits and _ . / : = @ % + , -) or
// double-quoted with no " \ or backquote inside; a $ may appear only as a
// ${NAME} placeholder, which Claude Code substitutes in each element. ok is
// false for anything else (pipes, redirections, variables, single quotes,
// escapes), which must stay a shell command.
func SplitExec(line string) (argv []string, ok bool) {
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '"':
			end := strings.IndexByte(line[i+1:], '"')
			if end < 0 {
				return nil, false
			}
			w := line[i+1 : i+1+end]
			if strings.ContainsAny(w, "\\`") || !placeholdersOnly(w) {
				return nil, false
			}
			i += end + 2
			if i < len(line) && line[i] != ' ' && line[i] != '\t' {
				return nil, false // "a"b: one word in two parts
			}
			argv = append(argv, w)
		default:
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' {
				j++
			}
			w := line[i:j]
			if !bareWord(w) {
				return nil, false
			}
			argv = append(argv, w)
			i = j
		}
	}
	return argv, len(argv) > 0
}

// JoinExec writes argv back as the shell command line [SplitExec] reads
// it from: bare words as they are, others double-quoted. For argv that
// SplitExec produced, sh -c runs the line as Claude Code runs the exec
// form.
func JoinExec(argv []string) string {
	var b strings.Builder
	for i, w := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if bareWord(w) && !strings.Contains(w, "$") {
			b.WriteString(w)
			continue
		}
		b.WriteString(`"` + w + `"`)
	}
	return b.String()
}

// bareWord reports whether w needs no quoting.
func bareWord(w string) bool {
	if w == "" {
		return false
	}
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_./:=@%+,-", c)) {
			return false
		}
	}
	return true
}

// placeholdersOnly reports whether every $ in w starts a ${NAME}.
func placeholdersOnly(w string) bool {
	for {
		i := strings.IndexByte(w, '$')
		if i < 0 {
			return true
		}
		rest := w[i+1:]
		end := strings.IndexByte(rest, '}')
		if !strings.HasPrefix(rest, "{") || end < 2 {
			return false
		}
		for _, c := range rest[1:end] {
			if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
				return false
			}
		}
		w = rest[end+1:]
	}
}
