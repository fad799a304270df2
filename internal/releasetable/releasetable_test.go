package releasetable

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
)

// TestTableIsCurrent regenerates the table and fails on any difference from
// the committed file: a matrix change must be followed by go generate.
func TestTableIsCurrent(t *testing.T) {
	got, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", File))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: the matrix changed; run go generate ./hooks", File)
	}
}

// hooks.Channel is spelled by hand in package hooks, which imports nothing
// of compat; this keeps it equal to compat's Channel, the one table: every
// channel the matrix uses (events and their band changes, outputs) is a
// hooks constant of the same spelling, under the name the generated table
// uses for it, and hooks has no channel compat lacks.
func TestHooksChannelsMatchTheMatrix(t *testing.T) {
	hooksChannels := map[string]hooks.Channel{
		"ChannelNone": hooks.ChannelNone, "ChannelExit2": hooks.ChannelExit2, "ChannelContinue": hooks.ChannelContinue,
		"ChannelFeedback": hooks.ChannelFeedback, "ChannelDecision": hooks.ChannelDecision,
	}
	compatChannels := []compat.Channel{compat.ChannelNone, compat.ChannelExit2, compat.ChannelContinue, compat.ChannelFeedback, compat.ChannelDecision}
	used := map[compat.Channel]bool{}
	for _, f := range compat.Matrix {
		if f.Channel != "" {
			used[f.Channel] = true
		}
	}
	for _, c := range compatChannels {
		used[c] = true
	}
	for c := range used {
		name := channelConst(c)
		if h, ok := hooksChannels[name]; !ok || string(h) != string(c) {
			t.Errorf("compat channel %q: hooks.%s is %q", c, name, h)
		}
	}
	if len(used) != len(hooksChannels) {
		t.Errorf("compat has %d channels, hooks %d", len(used), len(hooksChannels))
	}
}
