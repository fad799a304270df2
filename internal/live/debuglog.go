package live

import (
	"regexp"
	"strconv"
	"strings"
)

// registeredRE matches the loader's summary line, e.g.
// "[DEBUG] Registered 1 hooks from 4 plugins".
var registeredRE = regexp.MustCompile(`Registered (\d+) hooks? from (\d+) plugins?`)

// RegisteredHooks returns N from the last "Registered N hooks from M
// plugins" line of a debug log; ok is false when there is none. On 2.1.330 M
// counts built-in plugins too, so only N is reliable.
func RegisteredHooks(debugLog string) (n int, ok bool) {
	m := registeredRE.FindAllStringSubmatch(debugLog, -1)
	if len(m) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(m[len(m)-1][1])
	return n, err == nil
}

// LoadFailed reports whether the loader rejected a hooks file: the log has
// "Failed to load hooks" or "Hook load failed" (2.0.30 and 2.1.33 on an
// unknown event). Releases that ignore unknown entries instead log a warning;
// see IgnoredHookEntries.
func LoadFailed(debugLog string) bool {
	return strings.Contains(debugLog, "Failed to load hooks") || strings.Contains(debugLog, "Hook load failed")
}

// StandardFileRefused reports whether the loader refused the plugin's
// hooks/hooks.json: "Failed to load hooks for <plugin>:" (2.0.30, 2.1.33,
// 2.1.100 and later; a file plugin.json names logs "Failed to load hooks
// from <path> for <plugin>" instead, and the plugin keeps its other hooks).
func StandardFileRefused(debugLog string) bool {
	return strings.Contains(debugLog, "Failed to load hooks for ")
}

// ignoredRE matches the warning newer releases (2.1.330) log for a hooks
// entry they skip, e.g. "[WARN] Plugin p: hooks.BogusEvent: unknown hook
// event; entry ignored".
var ignoredRE = regexp.MustCompile(`(?m)\[WARN\] Plugin .*entry ignored.*$`)

// IgnoredHookEntries returns the loader warnings about skipped hooks
// entries, one per line.
func IgnoredHookEntries(debugLog string) []string {
	return ignoredRE.FindAllString(debugLog, -1)
}

// loaderEnumRE matches the validator's list of accepted events in a load
// error: "Expected 'PreToolUse' | 'PostToolUse' | ..." on 2.0.30, and
// `expected one of "PreToolUse"|"PostToolUse"|...` on 2.1.x.
var loaderEnumRE = regexp.MustCompile(`(?:Expected|expected one of) ((?:\\?["']\w+\\?["'](?:\s*\|\s*)?)+)`)

// loaderEnumItem matches one quoted name of such a list.
var loaderEnumItem = regexp.MustCompile(`\w+`)

// LoaderEnum returns the event list that a rejecting loader printed in the
// debug log (up to 2.1.252, when a hooks.json names an unknown event), in
// the release's order; ok is false when the log holds no such list.
func LoaderEnum(debugLog string) (events []string, ok bool) {
	best := ""
	for _, m := range loaderEnumRE.FindAllStringSubmatch(debugLog, -1) {
		if len(m[1]) > len(best) {
			best = m[1]
		}
	}
	if best == "" {
		return nil, false
	}
	return loaderEnumItem.FindAllString(best, -1), true
}
