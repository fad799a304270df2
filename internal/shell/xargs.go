package shell

import "strings"

// maxXargsItems bounds the input items xargs is read with.
const maxXargsItems = 64

// xargsInput reads xargs fed by a pipe the parser can read
// (echo 'rm -rf ~' | xargs -I{} sh -c {}) as the commands it runs with that
// input, as xargs makes them: with -I R each input line replaces R, one
// command per line; with -0 or -d the input splits there; else at blanks,
// quotes and backslashes kept as xargs keeps them. It reports whether it
// did; a command word it cannot know, or input from a file (-a), leaves
// xargs to the reading of its runner (MoreArgs).
func (s *state) xargsInput(i int) bool {
	text, ok := s.piped(i)
	if !ok {
		return false
	}
	args := s.cmds[i].Args[1:]
	replace, delim := "", ""
	null := false
	k := 0
options:
	for ; k < len(args); k++ {
		a := args[k].Text
		next := func() string {
			if k+1 < len(args) {
				k++
				return args[k].Text
			}
			return ""
		}
		switch {
		case a == "--":
			k++
			break options
		case !strings.HasPrefix(a, "-") || a == "-":
			break options
		case a == "-0" || a == "--null":
			null = true
		case a == "-I":
			replace = next()
		case a == "-i" || a == "--replace":
			replace = "{}"
		case strings.HasPrefix(a, "--replace="):
			replace = strings.TrimPrefix(a, "--replace=")
		case strings.HasPrefix(a, "-I") || strings.HasPrefix(a, "-i"):
			replace = a[2:]
		case a == "-d" || a == "--delimiter":
			delim = next()
		case strings.HasPrefix(a, "--delimiter="):
			delim = strings.TrimPrefix(a, "--delimiter=")
		case strings.HasPrefix(a, "-d"):
			delim = a[2:]
		case a == "-a" || a == "--arg-file" || strings.HasPrefix(a, "--arg-file=") || strings.HasPrefix(a, "-a"):
			return false // the input is a file's, not the pipe's
		case a == "-E" || a == "-L" || a == "-n" || a == "-P" || a == "-s" || a == "--eof" || a == "--max-lines" ||
			a == "--max-args" || a == "--max-procs" || a == "--max-chars" || a == "--process-slot-var":
			next()
		case !strings.HasPrefix(a, "--") && strings.ContainsRune(a, '0'):
			null = true // -r0, -0t
		}
	}
	cmd := args[k:]
	if len(cmd) == 0 {
		cmd = []Word{{Text: "echo"}}
	}
	for _, w := range cmd {
		if w.Dynamic {
			return false
		}
	}
	var items []string
	switch {
	case replace != "":
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimLeft(l, " \t"); l != "" {
				items = append(items, l)
			}
		}
	case null || delim != "":
		sep := "\x00"
		if !null {
			sep = DecodeEscapes(delim)
			if sep == "" {
				sep = "\n"
			}
			sep = sep[:1]
		}
		for _, it := range strings.Split(text, sep) {
			if it != "" {
				items = append(items, it)
			}
		}
	default:
		for _, w := range splitWords(text) {
			items = append(items, w.Text)
		}
	}
	if len(items) > maxXargsItems {
		return false
	}
	var b strings.Builder
	if replace != "" {
		for _, it := range items {
			for j, w := range cmd {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(Quote(strings.ReplaceAll(w.Text, replace, it)))
			}
			b.WriteByte('\n')
		}
	} else {
		for j, w := range cmd {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(Quote(w.Text))
		}
		for _, it := range items {
			b.WriteString(" " + Quote(it))
		}
	}
	s.replaceBy(i, b.String(), "xargs")
	return true
}

// Quote quotes s as one shell word, in single quotes; each single quote in
// s ends them, is escaped with a backslash, and opens them again.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
