package hooks_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
)

// TestEmitFollowsTheMatrix walks every event of compat's matrix on every
// band and checks that what hooks.Emit does with a block, and with a halt, is what
// the matrix says the band's channel is. It reads compat directly, not the
// generated table, so a matrix row that hooks.Emit does not follow (a stale table,
// or a hand-kept exception in hooks.Emit) fails here.
func TestEmitFollowsTheMatrix(t *testing.T) {
	for _, ev := range compat.All(compat.KindEvent) {
		for _, edge := range compat.Bands() {
			band := hooks.Band{Version: edge}
			want := compat.ChannelOf(ev.Name, edge)
			if got := hooks.ChannelOf(hooks.Event(ev.Name), band); string(got) != string(want) {
				t.Errorf("%s on %s: hooks.ChannelOf = %s, matrix says %s", ev.Name, edge, got, want)
			}
			if got := blockOutcome(hooks.Event(ev.Name), hooks.Blocked("stop it"), band); got != wantBlock(want) {
				t.Errorf("%s on %s: a block gives %s; the matrix's channel %s wants %s", ev.Name, edge, got, want, wantBlock(want))
			}
			if got := blockOutcome(hooks.Event(ev.Name), hooks.Halted("enough"), band); got != wantHalt(ev.Name, want) {
				t.Errorf("%s on %s: a halt gives %s; the matrix's channel %s wants %s", ev.Name, edge, got, want, wantHalt(ev.Name, want))
			}
		}
	}
}

// blockOutcome runs hooks.Emit and names what Claude Code would see.
func blockOutcome(e hooks.Event, res hooks.Result, band hooks.Band) string {
	var out, errOut bytes.Buffer
	code := hooks.Emit(&out, &errOut, e, res, band)
	var reply struct {
		Continue      *bool  `json:"continue"`
		SystemMessage string `json:"systemMessage"`
		Specific      struct {
			Decision struct {
				Behavior string `json:"behavior"`
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &reply); err != nil {
			return "invalid JSON " + out.String()
		}
	}
	switch {
	case code == hooks.ExitBlock && errOut.Len() > 0:
		return "exit 2"
	case code != hooks.ExitOK:
		return fmt.Sprintf("exit %d", code)
	case reply.Continue != nil && !*reply.Continue:
		return "continue:false"
	case reply.Specific.Decision.Behavior == "deny":
		return "JSON deny"
	case reply.SystemMessage != "":
		return "system message"
	}
	return "nothing"
}

// wantBlock is what a block must become on a channel.
func wantBlock(c compat.Channel) string {
	switch c {
	case compat.ChannelExit2, compat.ChannelFeedback, compat.ChannelContinue:
		return "exit 2"
	case compat.ChannelDecision:
		return "JSON deny"
	}
	return "system message"
}

// wantHalt is what a halt must become: JSON continue:false, except on an
// event whose halt channel arrives later in the matrix (TeammateIdle and
// TaskCompleted before 2.1.69), where it degrades to a block.
func wantHalt(event string, c compat.Channel) string {
	if c == compat.ChannelContinue {
		return "continue:false"
	}
	for _, f := range compat.All(compat.KindOutput) {
		if f.Channel == compat.ChannelContinue && slices.Contains(f.Events, event) {
			return wantBlock(c)
		}
	}
	return "continue:false"
}

// TestInputSinceFollowsTheMatrix checks the input-field rows of the table.
func TestInputSinceFollowsTheMatrix(t *testing.T) {
	for _, f := range compat.All(compat.KindInput) {
		for _, ev := range f.Events {
			if got, ok := hooks.InputSince(hooks.Event(ev), f.Name); !ok || got.String() != f.Version().String() {
				t.Errorf("hooks.InputSince(%s, %s) = %s, %v; matrix says %s", ev, f.Name, got, ok, f.Since)
			}
		}
	}
	if _, ok := hooks.InputSince(hooks.EventStop, "session_id"); ok {
		t.Error("hooks.InputSince knows session_id")
	}
}
