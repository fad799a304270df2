package live

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/modelapi"
	"github.com/hookwright/hookwright/internal/testkit"
)

// recordPayloads names the releases TestRecordPayloads records, comma
// separated; empty skips it (a maintainer command, like TestProbe).
var recordPayloads = flag.String("record-payloads", "", "releases whose hook inputs TestRecordPayloads records into hooks/hookstest/payloads (e.g. 2.0.30,2.1.25,2.1.33,2.1.330)")

// recorderEvents are the events the recorder plugin registers, where the
// release knows them (an unknown event would make it refuse the file).
var recorderEvents = []hooks.Event{
	hooks.EventSessionStart, hooks.EventUserPromptSubmit, hooks.EventPreToolUse, hooks.EventPostToolUse,
	hooks.EventPostToolUseFailure, hooks.EventStop, hooks.EventSubagentStart, hooks.EventSubagentStop,
	hooks.EventSessionEnd, hooks.EventTaskCompleted, hooks.EventTaskCreated, hooks.EventTeammateIdle,
}

// TestRecordPayloads runs a real release with a plugin whose every hook is
// a recorder, through a scripted session that uses the tools a plugin
// gates (Bash, Write, Read, Edit, a failing Bash, the task tools or
// TodoWrite, a subagent), and writes what each hook received to
// hooks/hookstest/payloads/<release>/, with the folders of the run made
// placeholders ($PROJECT, $HOME, $TRANSCRIPT), the task files the release
// wrote under home/, the transcript line that says its version, and
// AI_AGENT, where the release sets it, in env. These
// are the recorded payloads package hookstest ships.
//
//	go test ./internal/live -run TestRecordPayloads -record-payloads 2.0.30,2.1.25,2.1.33,2.1.330
func TestRecordPayloads(t *testing.T) {
	if *recordPayloads == "" {
		t.Skip("records only with -record-payloads <releases>")
	}
	Available(t)
	for _, v := range strings.Split(*recordPayloads, ",") {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			recordRelease(t, v)
		})
	}
}

func recordRelease(t *testing.T, version string) {
	rel, err := hooks.ParseRelease(version)
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]any{}
	for _, e := range recorderEvents {
		if since, ok := hooks.EventSince(e); ok && !rel.Less(since) {
			groups[string(e)] = []any{map[string]any{"hooks": []any{map[string]any{
				"type": "command", "command": `"${CLAUDE_PLUGIN_ROOT}/bin/recorder"`, "timeout": 10}}}}
		}
	}
	manifest, _ := json.MarshalIndent(map[string]any{"description": "records every hook input", "hooks": groups}, "", "  ")
	plugin := t.TempDir()
	writeFile(t, filepath.Join(plugin, ".claude-plugin", "plugin.json"), `{"name":"hookstest-recorder","version":"0.0.1","description":"records hook inputs"}`+"\n")
	writeFile(t, filepath.Join(plugin, "hooks", "hooks.json"), string(manifest)+"\n")
	testkit.BuildTo(t, "./testdata/recorder", filepath.Join(plugin, "bin", "recorder"), testkit.Options{})

	root := t.TempDir()
	home, project, out := filepath.Join(root, "home"), filepath.Join(root, "project"), filepath.Join(root, "recorded")
	for _, d := range []string{home, project, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	notes := filepath.Join(project, "notes.md")
	agent := "Task"
	if !rel.Less(hooks.MustRelease("2.1.330")) {
		agent = "Agent" // renamed (seen on 2.1.330, TestSubagentLane)
	}
	const marker = "HOOKSTEST-SUBAGENT"
	script := modelapi.Script{
		modelapi.ToolUse("Bash", map[string]any{"command": "ls", "description": "List files"}),
		modelapi.ToolUse("Write", map[string]any{"file_path": notes, "content": "notes\n"}),
		modelapi.ToolUse("Read", map[string]any{"file_path": notes}),
		modelapi.ToolUse("Edit", map[string]any{"file_path": notes, "old_string": "notes", "new_string": "more notes"}),
		modelapi.ToolUse("Bash", map[string]any{"command": "false", "description": "Fail on purpose"}),
	}
	tools := []string{"Bash", "Write", "Read", "Edit", agent}
	if rel.Less(hooks.MustRelease("2.1.16")) {
		script = append(script, modelapi.ToolUse("TodoWrite", map[string]any{"todos": []any{
			map[string]any{"content": "Write the parser", "status": "completed", "activeForm": "Writing the parser"}}}))
		tools = append(tools, "TodoWrite")
	} else {
		script = append(script,
			modelapi.ToolUse("TaskCreate", map[string]any{"subject": "Write the parser", "description": "deliverable: parser.go", "activeForm": "Writing the parser"}),
			modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}),
			modelapi.ToolUse("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
		)
		tools = append(tools, "TaskCreate", "TaskUpdate")
	}
	script = append(script,
		modelapi.ToolUse(agent, map[string]any{"description": "scripted subagent", "subagent_type": "general-purpose", "prompt": marker + ": run the scripted steps."}),
		modelapi.ToolUse("Bash", map[string]any{"command": "ls", "description": "List files"}).In(marker),
		modelapi.Text("subagent finished").In(marker),
	)
	_, res := session(t, installT(t, version), script, sessionOpts{home: home, dir: project, pluginDirs: []string{plugin}, tools: tools,
		env: []string{"HOOKSTEST_RECORD=" + out, "CLAUDE_CODE_ENABLE_TASKS=1", "CLAUDE_CODE_ENABLE_TODO_TOOLS=1"}})
	requireRegistered(t, res)

	dest := filepath.Join("..", "..", "hooks", "hookstest", "payloads", version)
	if err := os.RemoveAll(dest); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.json"))
	sort.Strings(files)
	seen := map[string]bool{}
	var transcript string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var in map[string]json.RawMessage
		if err := json.Unmarshal(data, &in); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		name := payloadName(in)
		if seen[name] {
			continue
		}
		seen[name] = true
		var tp string
		_ = json.Unmarshal(in["transcript_path"], &tp)
		if tp != "" && transcript == "" {
			transcript = tp
		}
		writeFile(t, filepath.Join(dest, name+".json"), string(placeholders(data, project, home, tp))+"\n")
	}
	if len(seen) == 0 {
		t.Fatalf("nothing recorded; debug log:\n%s", res.DebugLog)
	}
	// The task files the release wrote, and the transcript line with its version.
	tasks := filepath.Join(home, ".claude", "tasks")
	filepath.WalkDir(tasks, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		rel, _ := filepath.Rel(home, p)
		data, _ := os.ReadFile(p)
		writeFile(t, filepath.Join(dest, "home", rel), string(placeholders(data, project, home, "")))
		return nil
	})
	if agent, err := os.ReadFile(filepath.Join(out, "AI_AGENT")); err == nil {
		writeFile(t, filepath.Join(dest, "env"), "AI_AGENT="+strings.TrimSpace(string(agent))+"\n")
	}
	if line := versionLine(transcript); line != "" {
		writeFile(t, filepath.Join(dest, "transcript.jsonl"), string(placeholders([]byte(line), project, home, transcript))+"\n")
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("%s: recorded %s", version, strings.Join(names, ", "))
}

// payloadName names a recorded input: the event, the tool, TaskUpdate's
// status, and "subagent" for a call inside one.
func payloadName(in map[string]json.RawMessage) string {
	str := func(raw json.RawMessage) string {
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	}
	name := str(in["hook_event_name"])
	if tool := str(in["tool_name"]); tool != "" {
		name += "-" + tool
		if tool == "TaskUpdate" {
			var ti struct{ Status string }
			_ = json.Unmarshal(in["tool_input"], &ti)
			name += "-" + ti.Status
		}
	}
	if src := str(in["source"]); src != "" {
		name += "-" + src
	}
	if _, sub := in["agent_id"]; sub && name != "SubagentStart" && name != "SubagentStop" {
		name += "-subagent"
	}
	return name
}

// placeholders replaces the run's folders in data: the transcript path
// first (it lies in HOME), the project's folder name as Claude Code spells
// it under ~/.claude/projects ("-tmp-x-project", made "-project"), then the
// project and HOME.
func placeholders(data []byte, project, home, transcript string) []byte {
	if transcript != "" {
		data = bytes.ReplaceAll(data, []byte(transcript), []byte("$TRANSCRIPT"))
	}
	mangled := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(project, "-")
	data = bytes.ReplaceAll(data, []byte(mangled), []byte("-project"))
	data = bytes.ReplaceAll(data, []byte(project), []byte("$PROJECT"))
	return bytes.ReplaceAll(data, []byte(home), []byte("$HOME"))
}

// versionLine is the first line of the transcript that carries
// "version", cut to the keys a hook reads there.
func versionLine(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &m) != nil || m["version"] == nil {
			continue
		}
		keep := map[string]json.RawMessage{}
		for _, k := range []string{"type", "version", "sessionId", "cwd"} {
			if v, ok := m[k]; ok {
				keep[k] = v
			}
		}
		b, _ := json.Marshal(keep)
		return string(b)
	}
	return ""
}
