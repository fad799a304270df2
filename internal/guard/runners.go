package guard

import "strings"

// scriptLang returns the language of a program whose inline code may run
// commands but that the one-liner rule does not cover: awk, lua, R.
func scriptLang(name string) string {
	switch name {
	case "awk", "gawk", "mawk", "nawk", "busybox-awk":
		return "awk"
	case "lua", "luajit", "lua5.1", "lua5.2", "lua5.3", "lua5.4":
		return "lua"
	case "rscript", "r":
		return "r"
	}
	return ""
}

// script scans the inline code of awk (its program), lua -e and
// Rscript -e for the commands it runs (system(), os.execute(),
// io.popen(), system2()) and the files it deletes.
func (cc *cmdCtx) script(lang string) {
	args := cc.args()
	var code []string
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case lang == "awk" && (t == "-f" || t == "--file"):
			return // a program file: not on the command line
		case lang == "awk" && (t == "-F" || t == "-v" || t == "--assign" || t == "--field-separator"):
			k++
		case lang == "awk" && strings.HasPrefix(t, "-"):
		case lang == "awk":
			code = append(code, t)
			k = len(args)
		case t == "-e" || t == "--expr":
			if k+1 < len(args) {
				code = append(code, args[k+1].Text)
				k++
			}
		}
	}
	for _, src := range code {
		cc.scanCode(lang, src)
		if lang == "awk" {
			cc.awkPipes(src)
		}
	}
}

// awkPipes runs the commands an awk program reads from or writes to
// through a pipe: "cmd" | getline, print … | "cmd".
func (cc *cmdCtx) awkPipes(code string) {
	lits := literals("awk", code)
	for _, l := range lits {
		after := strings.TrimLeft(code[min(l.end, len(code)):], " \t")
		before := strings.TrimRight(code[:max(0, min(l.start, len(code)))], " \t")
		if strings.HasPrefix(after, "|") && strings.HasPrefix(strings.TrimLeft(after[1:], " \t"), "getline") ||
			strings.HasSuffix(before, "|") && !strings.HasSuffix(before, "||") {
			cc.runShell(l.text, "awk pipe", l.interp)
		}
	}
}
