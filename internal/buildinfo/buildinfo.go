// Package buildinfo is hookwright's own version, the one every tool and
// record shows (hookwright version, session fingerprints, hwctl sessions,
// the dashboard, the OpenTelemetry service.version):
//
//   - a module build (go install github.com/hookwright/hookwright/cmd/...@v0.1.0)
//     reports the module version Go recorded, without its v: 0.1.0;
//   - else a release build reports what the Makefile stamped with
//     -X main.version= (from plugin/.claude-plugin/plugin.json), 0.1.0;
//   - else it is a development build and says so plainly, with the commit
//     it was built from: "devel 2e5c137abcde" ("+dirty" when the work tree
//     had changes), or "devel" when Go recorded no commit.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Devel is what a development build's version starts with.
const Devel = "devel"

// isPseudo reports whether v is a Go pseudo-version
// (v0.0.0-20260301120000-abcdef123456, +dirty or not), which a build
// inside a git checkout records: a commit, not a release. No regexp: the
// runtime pays for every package initialised on each hook call.
func isPseudo(v string) bool {
	v = strings.TrimSuffix(v, "+dirty")
	i := strings.LastIndexByte(v, '-')
	if i < 15 || len(v)-i-1 != 12 || strings.Trim(v[i+1:], "0123456789abcdef") != "" {
		return false
	}
	stamp := v[i-14 : i]
	return strings.Trim(stamp, "0123456789") == "" && (v[i-15] == '-' || v[i-15] == '.')
}

// Version returns the version of the running binary; stamped is its
// -X main.version value ("" or "dev" when the build stamped none).
func Version(stamped string) string {
	bi, _ := debug.ReadBuildInfo()
	return From(bi, stamped)
}

// From is [Version] for the build info bi (nil when there is none).
func From(bi *debug.BuildInfo, stamped string) string {
	if bi != nil {
		if v := bi.Main.Version; v != "" && v != "(devel)" && !isPseudo(v) {
			// The tag v0.1.0 is version 0.1.0, as plugin.json and the
			// Makefile's stamp spell it.
			return strings.TrimPrefix(v, "v")
		}
	}
	if stamped != "" && stamped != "dev" {
		return stamped
	}
	v := Devel
	if bi == nil {
		return v
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " " + rev
		if dirty {
			v += "+dirty"
		}
	}
	return v
}
