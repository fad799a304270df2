package suite

import (
	"strings"
)

// The gate fixtures: project states in which a gate has something to say,
// and the native and fallback payloads that describe the same moment. A
// fallback must reach the same outcome as the native event on the same
// state (HWF-04..07). They follow hookwright's artifact layout (a team
// folder under .agent/teams/<team>/ and each teammate's L1/L2 files); for
// a plugin with other gates both runs usually pass, and they must still
// agree.

const (
	team     = "core"
	teammate = "alice"
	taskID   = "3"
	subject  = "Write the parser"
)

// teamEnv names the teammate the hook runs for, as a teammate process
// started with an explicit team and agent name sees it.
var teamEnv = []string{"CLAUDE_CODE_TEAM_NAME=" + team, "CLAUDE_CODE_AGENT_NAME=" + teammate}

// taskFile is Claude Code's task file for task 3 of the team's list, as
// TaskUpdate leaves it after completing the task.
const taskFile = `{"id":"3","subject":"Write the parser","description":"parse the config","activeForm":"Writing the parser","owner":"alice","status":"completed","blocks":[],"blockedBy":[],"metadata":{}}`

// idleState: a teammate that stops (or completes a task) without having
// written its deliverables. hookwright's artifact gate blocks here.
var idleState = &state{
	Name:      "a teammate without deliverables",
	Files:     map[string]string{".agent/teams/core/README.md": "team folder\n"},
	HomeFiles: map[string]string{".claude/tasks/core/3.json": taskFile},
}

// doneState: the same teammate with its deliverables written. Gates pass.
var doneState = &state{
	Name: "a teammate with its deliverables",
	Files: map[string]string{
		".agent/teams/core/README.md":           "team folder\n",
		".agent/teams/core/alice/L1-index.yaml": "files:\n  - parser.go: the config parser, tested\n" + strings.Repeat("#", 20) + "\n",
		".agent/teams/core/alice/L2-summary.md": "# Parser\n\nWrote the config parser with tests. It reads YAML and JSON and reports the first error with its line.\n",
	},
	HomeFiles: map[string]string{".claude/tasks/core/3.json": taskFile},
}

type payload = func(project, home string) map[string]any

// withTeam adds the team fields native team events carry.
func withTeam(p payload) payload {
	return func(project, home string) map[string]any {
		in := p(project, home)
		in["teammate_name"], in["team_name"] = teammate, team
		return in
	}
}

// nativeTaskCompleted is TaskCompleted for task 3, as 2.1.33 sends it
// inside a team.
var nativeTaskCompleted = withTeam(func(project, _ string) map[string]any {
	in := common("TaskCompleted", project)
	in["task_id"], in["task_subject"], in["task_description"] = taskID, subject, "parse the config"
	return in
})

// taskUpdate is PostToolUse for a TaskUpdate call on task 3 (2.1.32's
// shapes); status is what the call asked for, from→to what happened, ok
// the tool's success.
func taskUpdate(status, from, to string, ok bool) payload {
	return func(project, _ string) map[string]any {
		in := common("PostToolUse", project)
		in["tool_name"], in["tool_use_id"] = "TaskUpdate", "toolu_compat_2"
		in["tool_input"] = map[string]any{"taskId": taskID, "status": status}
		resp := map[string]any{"success": ok, "taskId": taskID, "updatedFields": []any{"status"}}
		if from != to {
			resp["statusChange"] = map[string]any{"from": from, "to": to}
		} else {
			resp["updatedFields"] = []any{}
		}
		in["tool_response"] = resp
		return in
	}
}

// todoWriteCompleted is PostToolUse for a TodoWrite call that marks the
// task's item completed (the only task tool before 2.1.16).
func todoWriteCompleted(project, _ string) map[string]any {
	in := common("PostToolUse", project)
	before := []any{map[string]any{"content": subject, "status": "in_progress", "activeForm": "Writing the parser"}}
	after := []any{map[string]any{"content": subject, "status": "completed", "activeForm": "Writing the parser"}}
	in["tool_name"], in["tool_use_id"] = "TodoWrite", "toolu_compat_3"
	in["tool_input"] = map[string]any{"todos": after}
	in["tool_response"] = map[string]any{"oldTodos": before, "newTodos": after}
	return in
}

// nativeTeammateIdle is TeammateIdle as 2.1.33 sends it.
var nativeTeammateIdle = withTeam(func(project, _ string) map[string]any {
	return common("TeammateIdle", project)
})

// stopPayload is Stop in the teammate's own session.
func stopPayload(active bool) payload {
	return func(project, home string) map[string]any {
		in := canonical("Stop", "")(project, home)
		in["stop_hook_active"] = active
		return in
	}
}

// subagentStop is SubagentStop of a subagent.
func subagentStop(active bool) payload {
	return func(project, home string) map[string]any {
		in := canonical("SubagentStop", "")(project, home)
		in["stop_hook_active"] = active
		return in
	}
}

// documented are the fallbacks allowed to differ from native, with why.
var documented = map[string]string{
	"TaskCompleted via PostToolUse[TodoWrite]": "before 2.1.16 there is no TaskUpdate, and a TodoWrite call rewrites the whole list without naming a task, so no gate reproduces TaskCompleted there",
}
