package guard

import (
	"fmt"
	"path"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// destroyArgs judges the operands of unlink, shred, truncate and rmdir:
// each is deleted, overwritten or emptied. truncate's -s and -r take a
// value.
func (cc *cmdCtx) destroyArgs(name string, args []shell.Word) {
	how := name + " destroys"
	switch name {
	case "truncate":
		how = "truncate empties"
	case "rmdir":
		how = "rmdir deletes"
	}
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		switch {
		case name == "truncate" && (t == "-s" || t == "-r" || t == "--size" || t == "--reference"):
			k++
		case name == "shred" && (t == "-n" || t == "-s" || t == "--iterations" || t == "--size" || t == "--random-source"):
			k++
		case strings.HasPrefix(t, "-"):
		case name == "shred" && strings.HasPrefix(t, "/dev/"):
			// disk-overwrite judges devices
		case name == "rmdir":
			// an empty folder: only the ground matters
			cc.destroyGround(t, args[k].Glob, how)
		default:
			cc.destroy(t, args[k].Glob, how)
		}
	}
}

// destroy judges one file the command deletes, empties or moves away (rm
// without -r, unlink, truncate, shred, mv's sources, interpreter code's
// os.remove): the guard's own ground is blocked, a file outside the
// project is judged by outsideFile. The folders above the file are
// resolved, not the file itself: rm of a symlink deletes the link.
func (cc *cmdCtx) destroy(arg string, glob bool, how string) {
	if cc.destroyGround(arg, glob, how) {
		return
	}
	e := &cc.ck.env
	p, ok := e.expand(arg, cc.cwd)
	if !ok || p == "/" {
		return
	}
	real := path.Join(e.real(path.Dir(p)), path.Base(p))
	cc.outsideFile(real, how)
}

// destroyGround judges a delete or move of arg against the guard's own
// ground (the folders that hold it included); it reports whether it
// found it.
func (cc *cmdCtx) destroyGround(arg string, glob bool, how string) bool {
	if arg == "" {
		return false
	}
	e := &cc.ck.env
	p, ok := e.expand(arg, cc.cwd)
	if !ok {
		if cc.unknownGround(arg) {
			cc.note(arg, "", "delete", "unknown")
			cc.find("guard-ground", "", fmt.Sprintf("%s %s, which the guard cannot resolve and which names hookwright's or Claude Code's own files; the model may not change them.", how, arg))
			return true
		}
		return false
	}
	real := path.Join(e.real(path.Dir(p)), path.Base(p))
	if e.isGround(p, true) || e.isGround(real, true) {
		cc.note(arg, real, "delete", classGround)
		cc.ck.groundFinding(cc.idx, how, real)
		return true
	}
	return false
}

// chmodOne judges one target of chmod, chown, chgrp, chattr or setfacl:
// the guard's own ground (and, recursive, a folder holding it) may not
// change its permissions, nor may a system file.
func (cc *cmdCtx) chmodOne(arg string, recursive bool) {
	e := &cc.ck.env
	p, ok := e.expand(arg, cc.cwd)
	if !ok {
		if cc.unknownGround(arg) {
			cc.find("guard-ground", "", fmt.Sprintf("%s %s names hookwright's or Claude Code's own files through a value the guard cannot resolve; the model may not change them.", cc.c.Name(), arg))
		}
		return
	}
	real := e.real(p)
	if e.isGround(p, recursive) || e.isGround(real, recursive) || recursive && (e.holdsGround(p) || e.holdsGround(real)) {
		cc.note(arg, real, "write", classGround)
		cc.ck.groundFinding(cc.idx, cc.c.Name()+" changes the permissions of", real)
		return
	}
	if systemPath(real) {
		cc.note(arg, real, "write", "system file")
		cc.find("system-file-write", real, fmt.Sprintf("%s %s changes a system file's permissions or owner; the user must make that change.", cc.c.Name(), real))
	}
}

// outsideFile judges a delete, truncation or overwrite of one file at p
// (absolute, clean, resolved): inside the project or a temp folder it is
// the model's work; a system file is blocked (system-file-write); any
// other file outside the project asks (file-outside-project). Devices and
// /proc are left to the disk rules.
func (cc *cmdCtx) outsideFile(p, how string) {
	e := &cc.ck.env
	if p == "" || !strings.HasPrefix(p, "/") || e.project == "" && e.cwd == "" {
		return
	}
	if strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") || p == "/dev" {
		return
	}
	if e.project != "" && under(p, e.project) {
		return
	}
	for _, t := range e.temps {
		if under(p, t) {
			return
		}
	}
	if e.cacheFolder(p) {
		return // a cache: rebuilt when missing
	}
	if systemPath(p) {
		cc.note(p, p, "write", "system file")
		cc.find("system-file-write", p, fmt.Sprintf("%s %s, a system file; the user must make that change.", how, p))
		return
	}
	if e.project == "" {
		return
	}
	cc.note(p, p, "write", "outside project")
	cc.find("file-outside-project", p, fmt.Sprintf("%s %s, a file outside the project and the temp folders; the user is asked first.", how, p))
}

// systemPath reports whether p (absolute, clean) is in the operating
// system's own folders: /etc, /usr (but /usr/local), /bin, /boot, /var
// (its temp folders and /var/www excepted), macOS's /System and /Library,
// and their kind. Folders that hold a machine's applications and sites
// (/opt, /srv, /usr/local, /var/www) are not: writes there ask, as
// anywhere outside the project.
func systemPath(p string) bool {
	for _, d := range []string{"/usr/local", "/var/tmp", "/var/folders", "/var/www", "/private/var/folders", "/private/var/tmp"} {
		if under(p, d) {
			return false
		}
	}
	for _, d := range []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/var",
		"/root", "/snap", "/System", "/Library", "/Applications", "/private/etc", "/private/var", "/nix/store", "/sys"} {
		if under(p, d) && p != d {
			return true
		}
	}
	return false
}

// destroyNamed judges a delete in interpreter code whose target the guard
// cannot read (os.remove(f) in a loop over glob.glob('/etc/*.conf')): the
// absolute and home paths the code names are what it most likely
// deletes, and are judged as deleted.
func (cc *cmdCtx) destroyNamed(code string, lits []literal, how string) {
	for _, l := range lits {
		t := strings.TrimSpace(l.text)
		if l.shell || l.interp || t == "" || len(t) > 1024 || strings.ContainsAny(t, "\n ") {
			continue
		}
		if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~/") || groundHint(t) {
			cc.destroy(t, hasGlob(t), how)
		}
	}
}

// writeCalls are calls whose first string argument is a file they write;
// appends add to it.
var writeCalls = []struct {
	name   string
	append bool
}{
	{"writeFileSync(", false}, {"writeFile(", false}, {"appendFileSync(", true}, {"appendFile(", true},
	{"File.write(", false}, {"file_put_contents(", false}, {"Deno.writeTextFile(", false}, {"Deno.writeFile(", false},
	{"Bun.write(", false}, {"IO.write(", false}, {"open(", false},
}

// codeWrites judges the files inline code surely writes: the path given to
// writeFileSync, File.write or file_put_contents, and open(path, 'w') or
// 'a' (the mode is read: open(path) only reads). These are judged as a
// shell redirect would be (an overwrite of a file outside the project
// asks, of a system file blocks); the looser scan of named paths stays
// for the ground and persistence.
func (cc *cmdCtx) codeWrites(lang, code string, lits []literal) {
	for _, w := range writeCalls {
		for off, n := 0, 0; off < len(code) && n < maxCalls; n++ {
			i := strings.Index(code[off:], w.name)
			if i < 0 {
				break
			}
			at := off + i
			off = at + len(w.name)
			if w.name == "open(" && at > 0 && (isNameByte(code[at-1]) && !strings.HasSuffix(code[:at], "io.") && !strings.HasSuffix(code[:at], "os.")) {
				continue // fopen(, popen(, reopen( …
			}
			args, _ := callArgs(code, lits, off)
			if len(args) == 0 || args[0].interp || args[0].shell {
				continue
			}
			appends := w.append
			if w.name == "open(" {
				if len(args) < 2 {
					continue // open(path): a read
				}
				mode := args[1].text
				switch {
				case strings.HasPrefix(mode, "a"):
					appends = true
				case strings.HasPrefix(mode, "w"), strings.HasPrefix(mode, "x"), strings.Contains(mode, "+"):
				default:
					continue
				}
			}
			how := lang + " " + strings.TrimSuffix(w.name, "(")
			if appends {
				how += " >>"
			}
			cc.write(args[0].text, how)
		}
	}
}

// homeCaches are the folders under the home folder that tools rebuild
// when missing: package managers' and build tools' caches, Xcode's
// derived data.
var homeCaches = []string{"/.cache", "/Library/Caches", "/.npm/_cacache", "/.npm/_npx", "/.npm/_logs", "/.yarn/cache",
	"/.yarn/berry/cache", "/.pnpm-store", "/Library/pnpm/store", "/.local/share/pnpm/store", "/.bun/install/cache",
	"/.gradle/caches", "/.gradle/daemon", "/.gradle/wrapper/dists", "/.m2/repository", "/.cargo/registry/cache",
	"/.cargo/registry/src", "/.cargo/git/checkouts", "/go/pkg/mod/cache", "/.composer/cache", "/.nuget/packages",
	"/Library/Developer/Xcode/DerivedData", "/Library/Developer/CoreSimulator/Caches", "/.android/cache", "/.pub-cache",
	"/.dartServer", "/.expo/cache", "/.nx/cache", "/.turbo", "/.deno/gen", "/.terraform.d/plugin-cache", "/.sbt/boot", "/.ivy2/cache",
	"/.cocoapods/repos", "/Library/Caches/CocoaPods"}

// cacheFolder reports whether p (absolute, clean) is in a cache folder
// of the home folder (not the cache folder's parent: ~/.npm itself holds
// the user's npm config).
func (e *env) cacheFolder(p string) bool {
	if e.home == "" {
		return false
	}
	for _, c := range homeCaches {
		if under(p, e.home+c) {
			return true
		}
	}
	return false
}
