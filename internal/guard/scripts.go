package guard

import (
	"bytes"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// A script file runs code the command line does not show. Written by the
// same line (echo 'rm -rf .hookwright' > x.sh && sh x.sh), its text is
// known (check.written) and judged in full, as a heredoc handed to the
// shell is. Already on disk (written by an earlier call, the Write tool
// among them), it is read (bounded, a regular file only) and judged for
// the guard's own ground only: a script the user keeps may do much the
// guard would ask about, but none of it may change the guard.

// maxDiskScript bounds a script read from disk.
const maxDiskScript = 256 << 10

// scriptRun returns the script file c runs and its language ("sh" or an
// interpreter's), or "" when it runs none: sh FILE, bash FILE, source
// FILE, . FILE, ./FILE (a path as the program), python FILE, node FILE,
// perl FILE, ruby FILE, php FILE.
func (cc *cmdCtx) scriptRun(name string) (file, lang string) {
	args := cc.c.Args
	if len(args) == 0 {
		return "", ""
	}
	if strings.Contains(args[0].Text, "/") && !args[0].Dynamic {
		lang = "sh"
		if l := interpreter(name); l != "" {
			return "", ""
		}
		if strings.HasSuffix(name, ".py") {
			lang = "python"
		}
		return args[0].Text, lang
	}
	switch {
	case name == "source" || name == ".":
		lang = "sh"
	case isShellProgram(name):
		lang = "sh"
	default:
		lang = interpreter(name)
	}
	if lang == "" {
		return "", ""
	}
	for k := 1; k < len(args); k++ {
		t := args[k].Text
		switch {
		case lang == "sh" && (t == "-c" || t == "-s" || len(t) > 1 && t[0] == '-' && strings.ContainsAny(t[1:], "cs")):
			return "", "" // a string, or stdin: judged elsewhere
		case lang != "sh" && (t == "-c" || t == "-e" || t == "-E" || t == "-r" || t == "-m" || t == "--eval" || t == "-p" || t == "--print" || t == "eval" || len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsAny(t[len(t)-1:], "ce")):
			return "", ""
		case lang == "sh" && t == "-o", lang != "sh" && (t == "-W" || t == "-X" || t == "-I" || t == "-M"):
			k++
		case t == "--" || t == "-":
			if t == "-" {
				return "", ""
			}
		case strings.HasPrefix(t, "-"):
		default:
			return t, lang
		}
	}
	return "", ""
}

// isShellProgram reports whether name is a shell that runs a script file
// given as its first operand.
func isShellProgram(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "rbash", "busybox":
		return true
	}
	return false
}

// runScript judges the script file the command runs.
func (cc *cmdCtx) runScript(name string) {
	file, lang := cc.scriptRun(name)
	if file == "" || cc.c.Depth >= 4 {
		return
	}
	if text, ok := cc.writtenText(file); ok {
		cc.judgeScript(lang, text, "script "+file+" written on the same line")
		return
	}
	p, ok := cc.ck.env.expand(file, cc.cwd)
	if !ok {
		return
	}
	data, err := safepath.ReadFileAt(p, maxDiskScript)
	if err != nil {
		return
	}
	if bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0 {
		return // a binary (/bin/rm, ./app): no shell reads it as a script
	}
	n := len(cc.ck.rep.Findings)
	cc.judgeScript(lang, string(data), "script "+file)
	keep := cc.ck.rep.Findings[:n]
	for _, f := range cc.ck.rep.Findings[n:] {
		if f.Rule == "guard-ground" || f.Rule == "unseen-into-ground" {
			keep = append(keep, f)
		}
	}
	cc.ck.rep.Findings = keep
}

func (cc *cmdCtx) judgeScript(lang, text, via string) {
	if lang == "sh" {
		cc.nested(text, via)
		return
	}
	cc.scanCode(lang, text)
}
