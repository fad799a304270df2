package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/hookwright/hookwright/hooks"
	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/urfave/cli/v2"
)

// eventCommand is `hookgen event`: the canonical event a hook command
// receives, for handlers not written in Go (the npm package's
// hookgen.event() runs it). The translation is package hooks', the one
// hooks.Main runs: there is no second copy.
func eventCommand(e env) *cli.Command {
	return &cli.Command{
		Name:      "event",
		Usage:     "read a hook's stdin and print the canonical event it stands for (JSON; null for nothing)",
		UsageText: "hookgen event [--] [<Event>] [--via <FiredEvent>] [--proto <release>] [the hook's other arguments ...]",
		Description: `For a hook written in another language: pipe the hook's stdin and pass its
command-line arguments, and hookgen prints one JSON object on stdout,

   {"event": <the canonical event's input, or null>,
    "hook": {"event": "TaskCompleted", "via": "PostToolUse", "proto": "2.1.16"}}

"event" is what the handler must act on: the input itself, or, for a
fallback registration (--via, written by hookgen for a release without the
event), the canonical event it stands for: TaskCompleted from a TaskUpdate
that completed a task (subject and description from Claude Code's task
file), TeammateIdle from a teammate's SubagentStop or Stop. null means the
fired event stands for nothing (a TaskUpdate that completes no task, a
TodoWrite, a plain subagent, a release that fires the canonical event
itself): the hook answers nothing and exits 0. "hook" is the command line
as read, for hookgen reply.

The arguments are the hook's own: --via and --proto with their values, and
the first word spelled as an event (TaskCompleted) are read, any other
word is ignored. With no event named, --via names it (PostToolUse stands in
for TaskCompleted, SubagentStop and Stop for TeammateIdle), else the
input's hook_event_name. stdin is read as a hook reads it: the first JSON
value, 5 MiB at most, never waiting for the end of the input. The
environment is the hook's: CLAUDE_CONFIG_DIR or HOME for the task files,
AI_AGENT for the release. Every non-ASCII character of the output is
written as a \u escape.

Exit 0 with the object; 1 with one line on stderr when the input is not an
event or the arguments are wrong (a hook should then exit 1: never 2).

   node hook.js --via PostToolUse      # whose hook.js runs:
   hookgen event -- --via PostToolUse  # with the same stdin`,
		Action: func(c *cli.Context) error { return runEvent(e, c.Args().Slice()) },
	}
}

// hookLine is a hook's command line as hookgen event and reply exchange it.
type hookLine struct {
	Event hooks.Event `json:"event"`
	Via   hooks.Event `json:"via,omitempty"`
	Proto string      `json:"proto,omitempty"`
}

// scanHookArgs reads --via, --proto, --with-native and the first word
// spelled as an event from a hook's own arguments; other words are the
// hook's business.
func scanHookArgs(args []string) (hooks.Invocation, error) {
	var inv hooks.Invocation
	for i := 0; i < len(args); i++ {
		flag, val, hasVal := strings.Cut(args[i], "=")
		switch flag {
		case "--via", "--proto":
			if !hasVal {
				if i+1 >= len(args) {
					return inv, fmt.Errorf("%s needs a value", flag)
				}
				i++
				val = args[i]
			}
			if flag == "--via" {
				ev, err := hooks.ParseEvent(val)
				if err != nil {
					return inv, fmt.Errorf("--via: %w", err)
				}
				inv.Via = ev
			} else {
				b, err := hooks.ParseBand(val)
				if err != nil {
					return inv, fmt.Errorf("--proto: %w", err)
				}
				inv.Band = b
			}
		case "--with-native":
			inv.WithNative = !hasVal
		default:
			if ev, err := hooks.ParseEvent(args[i]); err == nil && string(ev) == args[i] && inv.Event == "" {
				inv.Event = ev
			}
		}
	}
	if inv.Via == inv.Event {
		inv.Via = ""
	}
	return inv, nil
}

func runEvent(e env, args []string) error {
	fail := func(err error) error { return hwcli.Exit(hwcli.ExitNo, err) }
	inv, err := scanHookArgs(args)
	if err != nil {
		return fail(err)
	}
	if inv.Event == "" && inv.Via != "" {
		canonical, ok := hooks.FallbackFor(inv.Via)
		if !ok {
			return fail(fmt.Errorf("--via %s: name the canonical event too", inv.Via))
		}
		inv.Event = canonical
	}
	data, err := hooks.Read(e.In, hooks.ReadOptions{})
	if err != nil {
		return fail(err)
	}
	if data == nil {
		return fail(fmt.Errorf("no hook input on stdin"))
	}
	if inv.Event == "" {
		var named struct {
			Event string `json:"hook_event_name"`
		}
		_ = json.Unmarshal(data, &named)
		ev, err := hooks.ParseEvent(named.Event)
		if err != nil || string(ev) != named.Event {
			return fail(fmt.Errorf("no event in the arguments, and the input names no event (hook_event_name %q)", named.Event))
		}
		inv.Event = ev
	}
	in, err := hooks.Decode(data, inv.Fired())
	if err != nil {
		return fail(err)
	}
	getenv := e.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	canonical, err := inv.Translate(in, getenv)
	if err != nil {
		return fail(err)
	}
	event := json.RawMessage("null")
	if canonical != nil {
		if event, err = hooks.MarshalInput(canonical); err != nil {
			return fail(err)
		}
	}
	line := hookLine{Event: inv.Event, Via: inv.Via}
	if inv.Band != (hooks.Band{}) {
		line.Proto = inv.Band.Version.String()
	}
	return writeASCIIJSON(e.Out, struct {
		Event json.RawMessage `json:"event"`
		Hook  hookLine        `json:"hook"`
	}{event, line})
}

// replyCommand is `hookgen reply`: a handler's result written in the
// channel the hook's band needs, by package hooks' Emit (the one
// hooks.Main writes with).
func replyCommand(e env) *cli.Command {
	return &cli.Command{
		Name:      "reply",
		Usage:     "turn a handler's result (JSON on stdin) into the hook's answer: stdout, stderr and exit code (JSON)",
		UsageText: "hookgen reply <Event> [--via <FiredEvent>] [--proto <release>]",
		Description: `For a hook written in another language: give the hook's command line (the
"hook" of hookgen event) and the handler's result on stdin,

   {"decision": "block", "reason": "...", "context": "...", "systemMessage": "...",
    "halt": true, "stopReason": "...", "updatedInput": {...}}

(every field optional; decision is block, ask, allow or none), and hookgen
prints what the hook must write and the code it must exit with:

   {"code": 2, "stdout": "", "stderr": "the reason\n"}

in the channel Claude Code reads on that release band: exit 2 with the
reason on stderr where the event blocks so, {"continue":false} for a halt
on TeammateIdle and TaskCompleted from 2.1.69, a JSON decision on
PermissionRequest, a systemMessage where the event cannot block. A
fallback fired as PostToolUse that does not block answers in PostToolUse's
shape, so its context reaches the model.

hookgen reply itself exits 0 with the object, or 1 with one line on
stderr; its exit code is never the hook's. Every non-ASCII character of
the output is written as a \u escape.`,
		Action: func(c *cli.Context) error {
			inv, err := hooks.ParseInvocation(c.Args().Slice())
			if err == nil && inv.Event == "" {
				err = fmt.Errorf("name the hook's event: hookgen reply <Event> [--via <FiredEvent>] [--proto <release>]")
			}
			if err != nil {
				return hwcli.Exit(hwcli.ExitNo, err)
			}
			return runReply(e, inv)
		},
	}
}

func runReply(e env, inv hooks.Invocation) error {
	data, err := io.ReadAll(io.LimitReader(e.In, hooks.DefaultMaxInput+1))
	if err != nil {
		return hwcli.Exit(hwcli.ExitNo, err)
	}
	if len(data) > hooks.DefaultMaxInput {
		return hwcli.Exit(hwcli.ExitNo, fmt.Errorf("the result is larger than %d bytes", hooks.DefaultMaxInput))
	}
	var res hooks.Result
	if len(bytes.TrimSpace(data)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&res); err != nil {
			return hwcli.Exit(hwcli.ExitNo, fmt.Errorf("the result: %w", err))
		}
	}
	res.Handler = ""
	var stdout, stderr bytes.Buffer
	code := inv.Emit(&stdout, &stderr, res)
	return writeASCIIJSON(e.Out, struct {
		Code   int    `json:"code"`
		Stdout string `json:"stdout"`
		Stderr string `json:"stderr"`
	}{code, stdout.String(), stderr.String()})
}

// writeASCIIJSON writes v as one line of JSON in which every character
// outside printable ASCII is a \u escape: the bytes pass any terminal
// filter unchanged, and a JSON parser reads back exactly the strings.
func writeASCIIJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var out bytes.Buffer
	for s := buf.Bytes(); len(s) > 0; {
		r, n := utf8.DecodeRune(s)
		switch {
		case r >= 0x20 && r < 0x7f || r == '\n':
			out.WriteByte(byte(r))
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
		s = s[n:]
	}
	_, err := w.Write(out.Bytes())
	return err
}
