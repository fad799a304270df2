package hooks

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSessionTeam(t *testing.T) {
	cfgDir := t.TempDir()
	os.MkdirAll(filepath.Join(cfgDir, "teams", "core"), 0o755)
	// The shape 2.1.33 writes: the lead without a pane, a tmux teammate with one.
	os.WriteFile(filepath.Join(cfgDir, "teams", "core", "config.json"), []byte(`{"name":"core","leadAgentId":"team-lead@core",
		"members":[{"agentId":"team-lead@core","name":"team-lead","tmuxPaneId":""},
		           {"agentId":"alice@core","name":"alice","tmuxPaneId":"%3","backendType":"tmux"}]}`), 0o644)
	tests := []struct {
		name string
		env  map[string]string
		want Team
	}{
		{"nothing", nil, Team{}},
		{"env names both", map[string]string{"CLAUDE_CODE_TEAM_NAME": "core", "CLAUDE_CODE_AGENT_NAME": "bob"}, Team{TeamName: "core", TeammateName: "bob"}},
		{"env agent id name@team", map[string]string{"CLAUDE_CODE_TEAM_NAME": "core", "CLAUDE_CODE_AGENT_ID": "carol@core"}, Team{TeamName: "core", TeammateName: "carol"}},
		{"env team only is the lead", map[string]string{"CLAUDE_CODE_TEAM_NAME": "core"}, Team{TeamName: "core"}},
		{"tmux pane of a teammate", map[string]string{"CLAUDE_CONFIG_DIR": cfgDir, "TMUX_PANE": "%3"}, Team{TeamName: "core", TeammateName: "alice"}},
		{"tmux pane of nobody", map[string]string{"CLAUDE_CONFIG_DIR": cfgDir, "TMUX_PANE": "%7"}, Team{}},
		{"env wins over the pane", map[string]string{"CLAUDE_CONFIG_DIR": cfgDir, "TMUX_PANE": "%3", "CLAUDE_CODE_TEAM_NAME": "x", "CLAUDE_CODE_AGENT_NAME": "y"}, Team{TeamName: "x", TeammateName: "y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sessionTeam(func(k string) string { return tt.env[k] })
			if got != tt.want {
				t.Fatalf("sessionTeam = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestTeammateIdleTeamSources(t *testing.T) {
	getenv := func(k string) string {
		return map[string]string{"CLAUDE_CODE_TEAM_NAME": "core", "CLAUDE_CODE_AGENT_NAME": "alice"}[k]
	}
	stop := &Stop{}
	stop.HookEventName = EventStop
	out, ok, err := adapt(EventTeammateIdle, stop, getenv)
	if err != nil || !ok || out.(*TeammateIdle).Team != (Team{TeamName: "core", TeammateName: "alice"}) {
		t.Fatalf("Stop: %+v %v %v", out, ok, err)
	}

	// A subagent stopping is not the session going idle: the session's
	// team does not apply, only fields on the event itself.
	sub := &SubagentStop{}
	sub.HookEventName = EventSubagentStop
	out, ok, err = adapt(EventTeammateIdle, sub, getenv)
	if err != nil || !ok || out.(*TeammateIdle).Team != (Team{}) {
		t.Fatalf("SubagentStop: %+v %v %v", out, ok, err)
	}
	withTeam, err := Decode([]byte(`{"hook_event_name":"SubagentStop","team_name":"t","teammate_name":"m"}`), EventSubagentStop)
	if err != nil {
		t.Fatal(err)
	}
	out, _, _ = adapt(EventTeammateIdle, withTeam, getenv)
	if out.(*TeammateIdle).Team != (Team{TeamName: "t", TeammateName: "m"}) {
		t.Fatalf("SubagentStop with fields: %+v", out)
	}

	// Event fields win over the session.
	stopWithTeam, err := Decode([]byte(`{"hook_event_name":"Stop","team_name":"t","teammate_name":"m"}`), EventStop)
	if err != nil {
		t.Fatal(err)
	}
	out, _, _ = adapt(EventTeammateIdle, stopWithTeam, getenv)
	if out.(*TeammateIdle).Team != (Team{TeamName: "t", TeammateName: "m"}) {
		t.Fatalf("Stop with fields: %+v", out)
	}
}

func TestFillTeam(t *testing.T) {
	getenv := func(k string) string {
		return map[string]string{"CLAUDE_CODE_TEAM_NAME": "core", "CLAUDE_CODE_AGENT_NAME": "alice"}[k]
	}
	bare := &TaskCompleted{}
	fillTeam(bare, getenv)
	if bare.Team != (Team{TeamName: "core", TeammateName: "alice"}) {
		t.Fatalf("native TaskCompleted without a team: %+v", bare.Team)
	}
	named := &TeammateIdle{Team: Team{TeamName: "red", TeammateName: "bob"}}
	fillTeam(named, getenv)
	if named.Team != (Team{TeamName: "red", TeammateName: "bob"}) {
		t.Fatalf("the event's own team was replaced: %+v", named.Team)
	}
	getenv = func(string) string { return "" }
	solo := &TaskCompleted{}
	fillTeam(solo, getenv)
	if solo.Team != (Team{}) {
		t.Fatalf("a session outside any team got one: %+v", solo.Team)
	}
}

// A real SubagentStop for an in-process teammate carries no team fields:
// agent_type is the teammate's name and session_id the lead's (2.1.33,
// compat/FACTS.md). The team is the one whose config records that lead
// session and has a member of that name.
func TestSubagentStopFindsTheInProcessTeammate(t *testing.T) {
	cfgDir := t.TempDir()
	os.MkdirAll(filepath.Join(cfgDir, "teams", "core"), 0o755)
	os.WriteFile(filepath.Join(cfgDir, "teams", "core", "config.json"), []byte(`{"name":"core","leadAgentId":"team-lead@core",
		"leadSessionId":"lead-1",
		"members":[{"agentId":"team-lead@core","name":"team-lead","agentType":"team-lead","tmuxPaneId":""},
		           {"agentId":"alice@core","name":"alice","agentType":"general-purpose","tmuxPaneId":"in-process"}]}`), 0o644)
	getenv := func(k string) string { return map[string]string{"CLAUDE_CONFIG_DIR": cfgDir}[k] }
	for _, tt := range []struct {
		name    string
		payload string
		want    Team
	}{
		{"the teammate", `{"session_id":"lead-1","agent_id":"a1b2c3d","agent_type":"alice","stop_hook_active":false}`, Team{TeamName: "core", TeammateName: "alice"}},
		{"a plain subagent of the lead", `{"session_id":"lead-1","agent_id":"a1b2c3d","agent_type":"general-purpose","stop_hook_active":false}`, Team{}},
		{"the lead's name", `{"session_id":"lead-1","agent_type":"team-lead","stop_hook_active":false}`, Team{}},
		{"another session", `{"session_id":"other","agent_type":"alice","stop_hook_active":false}`, Team{}},
		{"no session", `{"agent_type":"alice","stop_hook_active":false}`, Team{}},
		{"fields on the event win", `{"session_id":"lead-1","agent_type":"alice","team_name":"t","teammate_name":"m"}`, Team{TeamName: "t", TeammateName: "m"}},
	} {
		in, err := Decode([]byte(`{"hook_event_name":"SubagentStop",`+tt.payload[1:]), EventSubagentStop)
		if err != nil {
			t.Fatal(err)
		}
		out, ok, err := adapt(EventTeammateIdle, in, getenv)
		if err != nil || !ok || out.(*TeammateIdle).Team != tt.want {
			t.Errorf("%s: %+v %v %v, want %+v", tt.name, out, ok, err, tt.want)
		}
	}
}
