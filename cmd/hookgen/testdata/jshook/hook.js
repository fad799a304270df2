// A plugin's hook in JavaScript, as an author writes it with the hookgen
// package: the same three handlers as hooks/hookstest/testdata/plugin (Go),
// so that a test can require both to answer alike. Registered as
//   node hook.js PreToolUse | TaskCompleted [--via PostToolUse] | TeammateIdle [--via Stop|SubagentStop] [--proto X]
"use strict";
const fs = require("fs");
const path = require("path");
const hookgen = require("hookgen");

hookgen.run((ev) => {
  switch (ev.hook_event_name) {
    case "PreToolUse": {
      const input = ev.tool_input || {};
      if (ev.tool_name === "Bash" && String(input.command || "").includes("push --force")) {
        return { decision: "block", reason: "no force pushes" };
      }
      return;
    }
    case "TaskCompleted": {
      const m = /deliverable: (\S+)/.exec(ev.task_description || "");
      if (!m) return;
      const project = process.env.CLAUDE_PROJECT_DIR || ev.cwd;
      if (!fs.existsSync(path.join(project, m[1]))) {
        return { decision: "block", reason: `task ${ev.task_id} (${ev.task_subject}) names deliverable ${m[1]}, which is missing` };
      }
      return;
    }
    case "TeammateIdle":
      if (!ev.teammate_name) return;
      return { decision: "block", reason: `${ev.teammate_name} of ${ev.team_name} went idle` };
  }
});
