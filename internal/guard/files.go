package guard

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// filePath checks a path a file tool uses: read (Read), search (Grep),
// metadata (Glob) or write (Write, Edit, MultiEdit, NotebookEdit).
func (ck *check) filePath(arg, use string) {
	if arg == "" {
		return
	}
	e := &ck.env
	p, ok := e.expand(arg, e.cwd)
	if !ok {
		// a file tool does not expand variables: the path is literal
		p = path.Clean(filepath.ToSlash(arg))
		if !strings.HasPrefix(p, "/") && e.cwd != "" {
			p = e.cwd + "/" + p
		}
	}
	real := e.real(p)
	class := worst(e.classify(p), e.classify(real))
	ck.rep.Paths = append(ck.rep.Paths, Path{Arg: arg, Resolved: real, Use: use, Class: class})
	secret := class == classSecret || class == classSecretDir
	switch use {
	case "read", "search":
		if secret {
			ck.find("secret-read", -1, real, fmt.Sprintf("%s is a %s; hookwright does not let the model read it. Ask the user for the one value you need.", real, class))
		}
	case "metadata":
		if secret {
			ck.find("secret-metadata", -1, real, fmt.Sprintf("%s is a %s; at this guard level even listing it is blocked.", real, class))
		}
	case "write":
		ck.writePath(arg, p, real, class)
	}
}

// writePath judges a file-tool write.
func (ck *check) writePath(arg, p, real, class string) {
	e := &ck.env
	switch class {
	case classSecret, classSecretDir:
		ck.find("secret-write", -1, real, fmt.Sprintf("%s holds secrets; write a template (such as .env.example) and let the user fill in the real file.", real))
		return
	case classPersistence:
		ck.find("persistence-write", -1, real, fmt.Sprintf("%s runs code or grants access later (a start-up file, authorized_keys, ssh config, cron, autostart); the user must make that change.", real))
		return
	case classGround:
		ck.groundFinding(-1, "this writes", real)
		return
	case classGitHooks:
		ck.find("git-hooks-write", -1, real, fmt.Sprintf("%s is a git hook or git's config: code that runs at the next git command. Change it with the user, or set guard.rules.git-hooks-write.", real))
		return
	case classGitInternals:
		ck.find("git-internals-write", -1, real, fmt.Sprintf("%s is inside .git; change the repository with git commands, not by writing its files.", real))
		return
	}
	if g := ck.protected(real); g != "" {
		ck.find("protected-path", -1, real, fmt.Sprintf("%s is protected by this project's config (%q).", real, g))
		return
	}
	if e.project == "" {
		return
	}
	if under(real, e.project) || under(p, e.project) {
		return
	}
	for _, t := range e.temps {
		if under(real, t) || under(p, t) {
			return
		}
	}
	if systemPath(real) {
		ck.find("system-file-write", -1, real, fmt.Sprintf("%s is a system file; the user must make that change.", real))
		return
	}
	ck.find("home-write", -1, real, fmt.Sprintf("%s is outside the project and the temp folders.", real))
}

// protected returns the config's protect glob that matches p, or "".
func (ck *check) protected(p string) string {
	rel := p
	if e := ck.env; e.project != "" && under(p, e.project) {
		rel = strings.TrimPrefix(strings.TrimPrefix(p, e.project), "/")
	}
	base := path.Base(p)
	for _, g := range ck.g.Config.Protect {
		for _, cand := range []string{rel, base} {
			if ok(path.Match(g, cand)) {
				return g
			}
		}
	}
	return ""
}

// searchGlob checks a Grep glob or a Glob pattern under dir.
func (ck *check) searchGlob(dir, pattern, use string) {
	if pattern == "" {
		return
	}
	e := &ck.env
	full := pattern
	if !strings.HasPrefix(pattern, "/") && !strings.HasPrefix(pattern, "~") {
		full = strings.TrimSuffix(dir, "/") + "/" + pattern
	}
	p, ok := e.expand(full, e.cwd)
	if !ok {
		return
	}
	secret := false
	switch {
	case hasGlob(p):
		secret = e.globNamesSecret(p) || globTargetsSecret(path.Base(pattern))
	default:
		c := worst(e.classify(p), e.classify(e.real(p)))
		secret = c == classSecret || c == classSecretDir
	}
	if !secret {
		return
	}
	ck.rep.Paths = append(ck.rep.Paths, Path{Arg: pattern, Resolved: p, Use: use, Class: classSecret})
	if use == "metadata" {
		ck.find("secret-metadata", -1, p, fmt.Sprintf("the pattern %s names secrets; at this guard level even listing them is blocked.", pattern))
		return
	}
	ck.find("secret-read", -1, p, fmt.Sprintf("the glob %s searches inside secrets; hookwright does not let the model read them.", pattern))
}
