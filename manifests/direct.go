package manifests

import (
	"strings"
)

// The direct form of a command.
//
// A Go plugin ships one launcher script, bin/<name>, and a binary per
// platform beside it: bin/<name>-<os>-<arch>[.exe] in a build, or, in a
// release, bin/<name>-<version>-<os>-<arch>[.exe].gz, which the launcher
// unpacks on first use next to the .gz. Claude Code runs a shell-form hook
// through /bin/sh -c (seen on 2.0.30, 2.1.33, 2.1.139, 2.1.252 and
// 2.1.330), so calling the launcher costs a second shell on every call.
//
// The direct form names this machine's binary in the hook's own shell: the
// platform comes from $HOSTTYPE and $OSTYPE where the shell is bash
// (macOS's /bin/sh, Git Bash on Windows), else from /proc/sys/kernel/arch
// (Linux 6.1 and later, where /bin/sh is often dash), with no fork. Where
// neither says (Linux before 6.1 under dash) it asks uname once, one fork,
// and keeps the answer beside the launcher as bin/<name>-platform-<host>
// (the host from /proc/sys/kernel/hostname, so that machines sharing a
// plugin folder never read each other's); later calls read it back, with
// no fork, and take only a platform they know. The first of the build's binary and a release's unpacked binary
// that is executable runs in the shell's place (exec); when neither is,
// the launcher runs, which unpacks, verifies and says what is missing. A release's binary is found
// only through its .gz, so a binary left by an older release never runs:
// an update that brings a new .gz brings a new name.
//
// It is one POSIX shell line, so every release from the plugin floor runs
// it, and it keeps the launcher's path quoted, so a plugin root with spaces
// or backslashes (Windows) is safe.

// directPick is the shell that sets $p to this machine's platform suffix,
// or leaves it empty.
const directPick = `p=; a=${HOSTTYPE:-}; [ -n "$a" ] || { read -r a </proc/sys/kernel/arch; } 2>/dev/null; ` +
	`case ${OSTYPE:-linux}-$a in ` +
	`linux*-x86_64) p=linux-amd64;; linux*-aarch64) p=linux-arm64;; ` +
	`darwin*-x86_64) p=darwin-amd64;; darwin*-arm64|darwin*-aarch64) p=darwin-arm64;; ` +
	`msys-x86_64|cygwin-x86_64) p=windows-amd64.exe;; msys-aarch64|cygwin-aarch64) p=windows-arm64.exe;; ` +
	`esac; ` +
	`if [ -z "$p" ]; then h=; { read -r h </proc/sys/kernel/hostname && read -r p <"$b-platform-$h"; } 2>/dev/null; ` +
	`case $p in linux-amd64|linux-arm64) ;; *) p=; case $(uname -sm 2>/dev/null) in "Linux x86_64") p=linux-amd64;; "Linux aarch64") p=linux-arm64;; esac; ` +
	`[ -n "$p" ] && [ -n "$h" ] && { echo "$p" >"$b-platform-$h"; } 2>/dev/null;; esac; fi; `

// DirectForm rewrites command, when it calls a launcher in the plugin's
// bin/ (its first word "${CLAUDE_PLUGIN_ROOT}/bin/<name>", quoted, the
// rest plain words), into the direct form described above. ok is false for
// any other command, which stays as it is.
func DirectForm(command string) (string, bool) {
	argv, ok := SplitExec(command)
	if !ok || !strings.HasPrefix(command, `"`) {
		return "", false
	}
	const root = "${CLAUDE_PLUGIN_ROOT}/bin/"
	name, isLauncher := strings.CutPrefix(argv[0], root)
	if !isLauncher || name == "" || strings.ContainsAny(name, `/\$"' `) {
		return "", false
	}
	args := JoinExec(argv[1:])
	if args != "" {
		args = " " + args
	}
	var b strings.Builder
	b.WriteString(`b="` + argv[0] + `"; `)
	b.WriteString(directPick)
	b.WriteString(`if [ -n "$p" ]; then [ -x "$b-$p" ] && exec "$b-$p"` + args + `; for x in "$b"-*-"$p".gz; do x=${x%.gz}; [ -x "$x" ] && exec "$x"` + args + `; done; fi; `)
	b.WriteString(`exec "$b"` + args)
	return b.String(), true
}

// LauncherCall is the inverse of [DirectForm]: for a command in the direct
// form it returns the launcher call it was written from
// ("${CLAUDE_PLUGIN_ROOT}/bin/hookwright" Stop); any other command comes
// back as it is, with ok false.
func LauncherCall(command string) (call string, ok bool) {
	rest, found := strings.CutPrefix(command, `b="`)
	if !found {
		return command, false
	}
	program, _, found := strings.Cut(rest, `"; `)
	if !found {
		return command, false
	}
	_, args, found := strings.Cut(command, `exec "$b"`)
	if !found || strings.Contains(args, `exec "$b"`) {
		return command, false
	}
	call = `"` + program + `"` + args
	if d, ok := DirectForm(call); !ok || d != command {
		return command, false
	}
	return call, true
}
