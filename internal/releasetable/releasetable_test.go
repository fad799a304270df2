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

// hooks.Channel's constants are generated from compat.Channels (and
// TestTableIsCurrent keeps the file current); this keeps that list whole:
// every channel the matrix uses is in it, and the generated constants spell
// each one as compat does.
func TestHooksChannelsMatchTheMatrix(t *testing.T) {
	hooksChannels := map[string]hooks.Channel{
		"ChannelNone": hooks.ChannelNone, "ChannelExit2": hooks.ChannelExit2, "ChannelContinue": hooks.ChannelContinue,
		"ChannelFeedback": hooks.ChannelFeedback, "ChannelDecision": hooks.ChannelDecision,
	}
	listed := map[compat.Channel]bool{}
	for _, c := range compat.Channels() {
		listed[c] = true
		if h, ok := hooksChannels[channelConst(c)]; !ok || string(h) != string(c) {
			t.Errorf("compat channel %q: hooks.%s is %q", c, channelConst(c), h)
		}
	}
	for _, f := range compat.Matrix {
		if f.Channel != "" && !listed[f.Channel] {
			t.Errorf("%s %s: channel %q is not in compat.Channels", f.Kind, f.Name, f.Channel)
		}
	}
	for _, ev := range compat.All(compat.KindEvent) {
		for _, band := range compat.Bands() {
			if c := compat.ChannelOf(ev.Name, band); !listed[c] {
				t.Errorf("%s at %s: channel %q is not in compat.Channels", ev.Name, band, c)
			}
		}
	}
	if len(listed) != len(hooksChannels) {
		t.Errorf("compat has %d channels, hooks %d", len(listed), len(hooksChannels))
	}
}

// A channel without a hooks constant stops generation instead of becoming
// ChannelNone.
func TestGenerateNamesEveryChannel(t *testing.T) {
	saved := hooksChannels[compat.ChannelDecision]
	delete(hooksChannels, compat.ChannelDecision)
	defer func() { hooksChannels[compat.ChannelDecision] = saved }()
	if _, err := Generate(); err == nil {
		t.Fatal("Generate accepted a channel without a hooks constant")
	}
}
