package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/handlers/builtin"
	"github.com/hookwright/hookwright/internal/runtime/call"
)

// dispatch checks the hook contract, then runs the handlers. A broken
// contract runs no handler: it fails open with a one-line fault, or blocks
// where a gate on this event is configured to fail closed.
func dispatch(ctx context.Context, mux *hooks.Mux, in hooks.Input, c call.Call, getenv func(string) string) (hooks.Result, []hooks.Fault) {
	// Only look for the plugin folder when the variable is missing: the
	// usual call pays for no extra system call.
	contract := hooks.Contract{RequireProject: true, RequirePluginRoot: getenv("CLAUDE_PLUGIN_ROOT") == "" && runsAsPlugin()}
	if err := contract.Check(in, getenv); err != nil {
		if gate := builtin.FailsClosed(c, in.Base().HookEventName); gate != "" {
			return hooks.Result{Decision: hooks.Block, Handler: "contract",
				Reason: "hookwright: " + err.Error() + "; " + gate + " is set to fail closed, so this is blocked until it is fixed."}, nil
		}
		return hooks.Result{}, []hooks.Fault{{Handler: "contract", Err: err}}
	}
	return mux.Dispatch(ctx, in)
}

// runsAsPlugin reports whether this binary lives in a plugin's bin/ folder
// (<root>/bin/<binary> with <root>/.claude-plugin/plugin.json), where
// Claude Code always sets CLAUDE_PLUGIN_ROOT.
func runsAsPlugin() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	root := filepath.Dir(filepath.Dir(exe))
	_, err = os.Stat(filepath.Join(root, ".claude-plugin", "plugin.json"))
	return err == nil
}
