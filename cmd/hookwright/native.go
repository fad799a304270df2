package main

import (
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/native"
)

// switchNative runs the once-per-session check that moves an installed
// plugin to the band of the running release, calling its platform binary
// directly (package native). It runs on SessionStart (where the release is
// already known), Stop and SessionEnd as fired by Claude Code (not on a
// fallback), and returns the one line to announce, or "".
func switchNative(inv invocation, in hooks.Input, cfg config.Config, getenv func(string) string, log debugLog) string {
	switch {
	case inv.via != "":
		return ""
	case inv.event != hooks.EventSessionStart && inv.event != hooks.EventStop && inv.event != hooks.EventSessionEnd:
		return ""
	}
	b := in.Base()
	out, err := native.Check(native.Options{
		PluginRoot: getenv("CLAUDE_PLUGIN_ROOT"), SessionID: b.SessionID, TranscriptPath: b.TranscriptPath,
		AIAgent: getenv("AI_AGENT"), Enabled: cfg.Native.Switch,
	})
	if err != nil {
		return "hookwright: " + err.Error()
	}
	log.Debug("native switch", "switched", out.Switched, "reason", out.Reason, "running", out.Running)
	return out.Message
}
