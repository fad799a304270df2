package hooks

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// ErrHookContractFail: what a hook call needs before its handlers can run
// is missing (see [Contract]). A [Runner] fails open on it with a one-line
// message, or blocks where a gate that would run is set to fail closed.
// Test for it with errors.Is.
var ErrHookContractFail = errors.New("hook contract not met")

// Contract is what must hold before handlers run: the execution
// environment a hook call relies on.
//
//   - the project folder resolves ([ProjectDir]: $CLAUDE_PROJECT_DIR, else
//     the input's cwd) and is an existing folder, when RequireProject;
//   - $CLAUDE_PLUGIN_ROOT is set, when RequirePluginRoot (the process runs
//     as a plugin's hook: Claude Code always sets it for those);
//   - the input carries the fields its event requires ([RequiredFields]).
//
// A [Runner] checks it before any handler runs.
type Contract struct {
	RequireProject    bool
	RequirePluginRoot bool
}

// RequiredFields lists the input fields that event's handlers may rely
// on: hook_event_name everywhere; tool_name on the tool events; task_id on
// the task events; session_id where state is kept per session (the session
// and stop events, PreCompact). A tool gate needs no session id, so a
// missing one never turns a PreToolUse guard off.
func RequiredFields(event Event) []string {
	fields := []string{"hook_event_name"}
	switch event {
	case EventPreToolUse, EventPostToolUse, EventPostToolUseFailure, EventPermissionRequest:
		fields = append(fields, "tool_name")
	case EventTaskCompleted, EventTaskCreated:
		fields = append(fields, "task_id")
	case EventSessionStart, EventSessionEnd, EventStop, EventSubagentStop, EventPreCompact:
		fields = append(fields, "session_id")
	}
	return fields
}

// Check reports the first part of the contract in breaks, as an error
// wrapping [ErrHookContractFail]; getenv reads the environment (nil:
// os.Getenv).
func (c Contract) Check(in Input, getenv func(string) string) error {
	if getenv == nil {
		getenv = os.Getenv
	}
	base := in.Base()
	var missing []string
	for _, f := range RequiredFields(base.HookEventName) {
		if fieldValue(in, f) == "" {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: the %s input lacks %s", ErrHookContractFail, base.HookEventName, strings.Join(missing, ", "))
	}
	if c.RequirePluginRoot && getenv("CLAUDE_PLUGIN_ROOT") == "" {
		return fmt.Errorf("%w: CLAUDE_PLUGIN_ROOT is not set, but this hook runs from a plugin", ErrHookContractFail)
	}
	if c.RequireProject {
		dir := ProjectDir(in, getenv)
		if dir == "" {
			return fmt.Errorf("%w: no project folder (CLAUDE_PROJECT_DIR is unset and the input has no cwd)", ErrHookContractFail)
		}
		info, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("%w: project folder %s: %v", ErrHookContractFail, dir, errors.Unwrap(err))
		}
		if !info.IsDir() {
			return fmt.Errorf("%w: project folder %s is not a folder", ErrHookContractFail, dir)
		}
	}
	return nil
}

// fieldValue returns the value of one of the RequiredFields on in.
func fieldValue(in Input, field string) string {
	switch field {
	case "session_id":
		return in.Base().SessionID
	case "hook_event_name":
		return string(in.Base().HookEventName)
	case "tool_name":
		switch e := in.(type) {
		case *PreToolUse:
			return e.ToolName
		case *PostToolUse:
			return e.ToolName
		case *PostToolUseFailure:
			return e.ToolName
		case *PermissionRequest:
			return e.ToolName
		}
	case "task_id":
		switch e := in.(type) {
		case *TaskCompleted:
			return e.TaskID
		case *TaskCreated:
			return e.TaskID
		}
	}
	return ""
}
