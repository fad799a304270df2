package live

import (
	"os"
	"path/filepath"
	"strings"
)

// passEnv lists the caller's variables a Claude Code session inherits. All
// others are dropped, so ANTHROPIC_*, CLAUDE_*, proxies and the caller's
// config folders never leak into a run.
var passEnv = []string{"PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SHELL", "USER", "LOGNAME"}

// leaks reports whether the KEY=value pair kv configures Claude Code or the
// Anthropic client and so must not reach a child process.
func leaks(kv string) bool {
	key, _, _ := strings.Cut(kv, "=")
	return strings.HasPrefix(key, "ANTHROPIC_") || strings.HasPrefix(key, "CLAUDE_") ||
		key == "IS_SANDBOX" || key == "AI_AGENT"
}

// baseEnv returns the environment of a session with home as HOME: the
// passEnv variables of the caller, HOME and the XDG folders inside home, and
// settings that keep Claude Code quiet and offline.
func baseEnv(home string) []string {
	var env []string
	for _, k := range passEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"NO_PROXY=127.0.0.1,localhost",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
	)
}
