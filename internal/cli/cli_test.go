package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

// app is a two-level app with a global --dir: it prints the --dir it sees.
func app(out *bytes.Buffer) *ucli.App {
	show := func(c *ucli.Context) error { fmt.Fprint(out, String(c, "dir")); return nil }
	a := &ucli.App{
		Name:   "tool",
		Writer: out, ErrWriter: out,
		Commands: []*ucli.Command{
			{Name: "log", Action: show},
			{Name: "work", Subcommands: []*ucli.Command{{Name: "start", Action: show}}},
			{Name: "fail", Action: func(*ucli.Context) error { return errors.New("disk\nfull") }},
			{Name: "bad", Action: func(*ucli.Context) error { return Usagef("bad needs X") }},
			{Name: "no", Action: func(*ucli.Context) error { return &ExitError{Code: ExitNo, Err: errors.New("said"), Quiet: true} }},
		},
	}
	Setup(a, "1.2.3", &ucli.StringFlag{Name: "dir", Value: "."})
	return a
}

func TestGlobalFlagBeforeOrAfter(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"log"}, "."},
		{[]string{"--dir", "A", "log"}, "A"},
		{[]string{"log", "--dir", "B"}, "B"},
		{[]string{"--dir", "A", "log", "--dir", "B"}, "B"},
		{[]string{"--dir", "A", "work", "start"}, "A"},
		{[]string{"work", "--dir", "C", "start"}, "C"},
		{[]string{"work", "start", "--dir", "D"}, "D"},
	} {
		var out, errb bytes.Buffer
		if code := Run(context.Background(), app(&out), append([]string{"tool"}, tc.args...), &errb); code != 0 || out.String() != tc.want {
			t.Errorf("%v: exit %d, dir %q, want %q (%s)", tc.args, code, out.String(), tc.want, errb.String())
		}
	}
}

func TestExitCodesAndOneLineErrors(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"fail"}, ExitFailure, "tool: disk full\n"},
		{[]string{"bad"}, ExitUsage, "tool: bad needs X; run tool bad --help\n"},
		{[]string{"log", "--nope"}, ExitUsage, "tool: flag provided but not defined: -nope; run tool log --help\n"},
		{[]string{"nosuch"}, ExitUsage, "tool: unknown command \"nosuch\"; run tool --help\n"},
		{[]string{"work", "nosuch"}, ExitUsage, "tool: unknown command \"nosuch\"; run tool work --help\n"},
		{[]string{"no"}, ExitNo, ""},
	} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), app(&out), append([]string{"tool"}, tc.args...), &errb)
		if code != tc.code || errb.String() != tc.stderr {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", tc.args, code, errb.String(), tc.code, tc.stderr)
		}
	}
}

func TestVersionAndInterrupt(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Run(context.Background(), app(&out), []string{"tool", "--version"}, &errb); code != 0 || strings.TrimSpace(out.String()) != "tool version 1.2.3" {
		t.Errorf("--version: %d %q", code, out.String())
	}
	if Version("") == "" || Version("dev") == "" || Version("0.4.0") != "0.4.0" {
		t.Error("Version")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out.Reset()
	if code := Run(ctx, app(&out), []string{"tool", "fail"}, &errb); code != ExitInterrupted {
		t.Errorf("cancelled: exit %d", code)
	}
	if Code(nil) != 0 || Code(errors.New("x")) != ExitFailure || Code(fmt.Errorf("w: %w", Usagef("u"))) != ExitUsage || Code(ucli.Exit("m", 4)) != 4 {
		t.Error("Code")
	}
}

func TestBuffers(t *testing.T) {
	s, out, errb := Buffers("input", map[string]string{"A": "1"})
	data, _ := io.ReadAll(s.In)
	s.Out.Write([]byte("o"))
	s.Err.Write([]byte("e"))
	if string(data) != "input" || out.String() != "o" || errb.String() != "e" || s.Getenv("A") != "1" || s.Getenv("HOME") != "" {
		t.Errorf("Buffers: in %q, out %q, err %q", data, out, errb)
	}
	if sys := System(); sys.Getenv == nil || sys.Out == nil {
		t.Error("System streams are incomplete")
	}
}
