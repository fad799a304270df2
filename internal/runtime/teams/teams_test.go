package teams

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestByPane(t *testing.T) {
	dir := t.TempDir()
	write := func(folder, text string) {
		os.MkdirAll(filepath.Join(dir, folder), 0o755)
		os.WriteFile(filepath.Join(dir, folder, "config.json"), []byte(text), 0o644)
	}
	// The shape Claude Code 2.1.32/2.1.33 writes (spawnTeam, then a tmux teammate).
	write("core", `{"name":"core","leadAgentId":"team-lead@core","members":[
		{"agentId":"team-lead@core","name":"team-lead","tmuxPaneId":"%0","cwd":"/p"},
		{"agentId":"alice@core","name":"alice","agentType":"general-purpose","tmuxPaneId":"%5","backendType":"tmux"},
		{"agentId":"bob@core","name":"bob","tmuxPaneId":"in-process","backendType":"in-process"}]}`)
	write("broken", `{`)
	teams, err := Teams(dir)
	if err != nil || len(teams) != 1 {
		t.Fatalf("Teams = %+v, %v", teams, err)
	}
	for _, tt := range []struct {
		pane, team, mate string
		ok               bool
	}{
		{"%5", "core", "alice", true},
		{"%0", "", "", false}, // the lead is no teammate
		{"%9", "", "", false},
		{"", "", "", false},
	} {
		team, mate, ok := ByPane(teams, tt.pane)
		if team != tt.team || mate != tt.mate || ok != tt.ok {
			t.Errorf("ByPane(%q) = %q, %q, %v", tt.pane, team, mate, ok)
		}
	}
}

// TestTeamsWaitsOutAnInPlaceRewrite: Claude Code 2.1.33 rewrites a team's
// config.json in place and leaves it empty for 40-300 ms at each write
// (internal/live/TEAMS.md). A read in that window must not lose the team,
// or a gate on the fallback path would let a teammate through.
func TestTeamsWaitsOutAnInPlaceRewrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "core", "config.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, nil, 0o644) // truncated: the rewrite has begun
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(150 * time.Millisecond)
		os.WriteFile(path, []byte(`{"name":"core","members":[{"agentId":"alice@core","name":"alice","tmuxPaneId":"%5"}]}`), 0o644)
	}()
	teams, err := Teams(dir)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if team, mate, ok := ByPane(teams, "%5"); !ok || team != "core" || mate != "alice" {
		t.Fatalf("Teams during a rewrite = %+v: the team was lost", teams)
	}
}
