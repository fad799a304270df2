package fallback

import (
	"encoding/json"
	"fmt"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/tasklist"
	"github.com/hookwright/hookwright/internal/runtime/toolinput"
)

// What a TaskUpdate call carries, observed on Claude Code 2.1.32 and 2.1.33
// (PostToolUse, matcher TaskUpdate):
//
//	"tool_input":    {"taskId":"1","status":"completed"}
//	"tool_response": {"success":true,"taskId":"1","updatedFields":["status"],
//	                  "statusChange":{"from":"in_progress","to":"completed"}}
//
// No subject and no description: those are in the task file
// <config>/tasks/<list>/<id>.json (see internal/runtime/tasklist), which the tool has
// already rewritten when PostToolUse fires. statusChange is present only
// when the status really changed, and success is false when a native
// TaskCompleted hook blocked the update or the task does not exist; native
// TaskCompleted fires in exactly the other cases, so the fallback does too.
//
// One difference remains: when the same TaskUpdate also renames the task,
// native TaskCompleted reports the old subject and the fallback the new one.

// taskUpdateInput is the part of TaskUpdate's tool input the fallback reads.
type taskUpdateInput struct {
	TaskID      string `json:"taskId"`
	Status      string `json:"status"`
	Subject     string `json:"subject"`
	Description string `json:"description"`
}

// taskUpdateResponse is the part of TaskUpdate's tool response it reads.
type taskUpdateResponse struct {
	Success      *bool `json:"success"`
	StatusChange *struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"statusChange"`
}

func taskFromUpdate(base hooks.Common, post *hooks.PostToolUse, getenv func(string) string) (hooks.Input, bool, error) {
	if post.ToolName != "TaskUpdate" {
		return nil, false, nil
	}
	var u taskUpdateInput
	if err := toolinput.Decode(post.ToolInput, &u); err != nil {
		return nil, false, fmt.Errorf("TaskUpdate input: %w", err)
	}
	if u.Status != tasklist.Completed || u.TaskID == "" {
		return nil, false, nil
	}
	if len(post.ToolResponse) > 0 {
		var r taskUpdateResponse
		if json.Unmarshal(post.ToolResponse, &r) == nil && r.Success != nil {
			if !*r.Success || r.StatusChange == nil || r.StatusChange.To != tasklist.Completed {
				return nil, false, nil // blocked, missing, or already completed
			}
		}
	}
	tc := &hooks.TaskCompleted{Common: base}
	tc.Team = teamFromExtra(base.Extra(), getenv)
	tc.TaskID, tc.TaskSubject, tc.TaskDescription = u.TaskID, u.Subject, u.Description
	if cfg := tasklist.ConfigDir(getenv); cfg != "" {
		for _, list := range tasklist.ListIDs(getenv, tc.TeamName, base.SessionID) {
			t, ok, err := tasklist.Get(tasklist.Dir(cfg, list), u.TaskID)
			if err != nil {
				return nil, false, fmt.Errorf("TaskUpdate fallback: %w", err)
			}
			if ok {
				tc.TaskSubject, tc.TaskDescription = t.Subject, t.Description
				break
			}
		}
	}
	return tc, true, nil
}
