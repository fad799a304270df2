package main

import (
	"bytes"
	"context"
	"errors"
	"github.com/hookwright/hookwright/compat"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hwcli "github.com/hookwright/hookwright/internal/cli"
)

// fakeEnv is an env with in-memory streams and no Claude Code installed.
func fakeEnv(t testing.TB) (env, *bytes.Buffer, *bytes.Buffer) {
	s, out, errb := hwcli.Buffers("", nil)
	return env{
		Streams: s, Home: t.TempDir(),
		Exec: func(context.Context, string, ...string) ([]byte, error) {
			return nil, errors.New("not installed")
		},
		LookPath: func(string) (string, error) { return "", errors.New("not found") },
	}, out, errb
}

func hookgen(t testing.TB, e env, args ...string) int {
	t.Helper()
	return run(append([]string{"hookgen"}, args...), e)
}

func TestGenerateExactForm(t *testing.T) {
	e, out, errb := fakeEnv(t)
	if code := hookgen(t, e, "--cc-version", "2.1.32"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	s := out.String()
	for _, banned := range []string{`"TeammateIdle"`, `"TaskCompleted"`, "$schema"} {
		if strings.Contains(s, banned) {
			t.Errorf("2.1.32 output has %s", banned)
		}
	}
	for _, want := range []string{`"matcher": "TaskUpdate"`, `TeammateIdle --via SubagentStop`, `TeammateIdle --via Stop`} {
		if !strings.Contains(s, want) {
			t.Errorf("2.1.32 output lacks %s", want)
		}
	}
	if errb.Len() != 0 {
		t.Errorf("stderr not empty: %s", errb)
	}
}

func TestGenerateToFileAndValidateIt(t *testing.T) {
	e, out, errb := fakeEnv(t)
	path := filepath.Join(t.TempDir(), "hooks.json")
	if code := hookgen(t, e, "--cc-version", "2.1.33 (Claude Code)", "-o", path); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if out.Len() != 0 {
		t.Errorf("stdout not empty with -o")
	}
	b, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(b, []byte(`"TeammateIdle"`)) {
		t.Fatalf("2.1.33 file: %v\n%s", err, b)
	}
	if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".hookgen-*")); len(matches) > 0 {
		t.Errorf("temporary files left: %v", matches)
	}
	if code := hookgen(t, e, "validate", "--cc-version", "2.1.33", path); code != exitOK {
		t.Errorf("validate on its own output: exit %d: %s %s", code, out, errb)
	}
	out.Reset()
	if code := hookgen(t, e, "validate", "--cc-version", "2.1.32", path); code != exitInvalid {
		t.Errorf("2.1.33 manifest on 2.1.32: exit %d, want %d", code, exitInvalid)
	}
	want := "rejected hooks.json /hooks/TaskCompleted (up to 2.1.32): event TaskCompleted arrives in 2.1.33"
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "/hooks/TeammateIdle (") {
		t.Errorf("violations:\n%s\nwant a line starting %q", out, want)
	}
}

func TestValidateStdinAndEveryViolation(t *testing.T) {
	e, out, _ := fakeEnv(t)
	e.In = strings.NewReader(`{"$schema":"x","hooks":{"Stop":[{"matcher":"Bash","note":1,"hooks":[{"type":"command","command":["a"],"timeout":5000}]}]}}`)
	if code := hookgen(t, e, "validate", "--cc-version", "2.1.50", "-"); code != exitInvalid {
		t.Fatalf("exit %d", code)
	}
	// command is not a string (rejected); "note" (ignored); the matcher on
	// Stop and timeout 5000 (lint), in that order.
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if strings.HasPrefix(l, "hookgen validate: ") {
			continue // the summary
		}
		c, rest, _ := strings.Cut(l, " ")
		_, p, _ := strings.Cut(rest, " ")
		p, _, _ = strings.Cut(p, " ")
		got = append(got, c+" "+p)
	}
	want := []string{"rejected /hooks/Stop/0/hooks/0/command", "ignored /hooks/Stop/0/note", "lint /hooks/Stop/0/hooks/0/timeout", "lint /hooks/Stop/0/matcher"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant, in this order:\n%s", out, strings.Join(want, "\n"))
	}
	if strings.Contains(out.String(), "$schema") {
		t.Errorf("$schema reported:\n%s", out)
	}
}

// TestValidateConsequenceByRelease: an unknown event rejects the file up
// to 2.1.252 (exit 1) and is dropped from 2.1.257 (exit 0, or 1 with
// --strict); a top-level $schema loads on every band; a lint alone exits 0.
func TestValidateConsequenceByRelease(t *testing.T) {
	const unknown = `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}],"NoSuchEvent":[{"hooks":[{"type":"command","command":"true"}]}]}}`
	for _, tt := range []struct {
		release, flag string
		code          int
		line          string
	}{{"2.0.30", "", exitInvalid, "rejected hooks.json /hooks/NoSuchEvent"}, {"2.1.252", "", exitInvalid, "rejected hooks.json /hooks/NoSuchEvent"},
		{"2.1.257", "", 0, "dropped hooks.json /hooks/NoSuchEvent"}, {"2.1.330", "", 0, "dropped hooks.json /hooks/NoSuchEvent"},
		{"2.1.330", "--strict", exitInvalid, "dropped hooks.json /hooks/NoSuchEvent"}, {"2.1.330", "--fail-on=dropped", exitInvalid, "dropped"}} {
		e, out, errOut := fakeEnv(t)
		e.In = strings.NewReader(unknown)
		args := []string{"validate", "--cc-version", tt.release, "-"}
		if tt.flag != "" {
			args = append(args[:1], append([]string{tt.flag}, args[1:]...)...)
		}
		if code := hookgen(t, e, args...); code != tt.code {
			t.Errorf("%v: exit %d, want %d\nstdout %s\nstderr %s", args, code, tt.code, out, errOut)
		}
		if !strings.HasPrefix(out.String(), tt.line) {
			t.Errorf("%v: want a first line %q, got %q", args, tt.line, out)
		}
	}
	for _, band := range compat.Bands() {
		e, out, errOut := fakeEnv(t)
		e.In = strings.NewReader(`{"$schema":"https://example.com/hooks.schema.json","hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}`)
		want := "hookgen validate: judged " + band.String() + " (--cc-version): loads\n"
		if code := hookgen(t, e, "validate", "--cc-version", band.String(), "-"); code != 0 || out.String() != want || errOut.Len() > 0 {
			t.Errorf("$schema on %s: exit %d\nstdout %s\nstderr %s", band, code, out, errOut)
		}
	}
	e, out, _ := fakeEnv(t)
	e.In = strings.NewReader(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true","timeout":345600}]}]}}`)
	if code := hookgen(t, e, "validate", "-"); code != exitOK || !strings.HasPrefix(out.String(), "lint ") {
		t.Errorf("a four-day timeout on every band: exit %d, want 0 and a lint:\n%s", code, out)
	}
}

func TestErrorsAndExitCodes(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{}, exitUsage, "--cc-version is required"},
		{[]string{"--cc-version", "2.1"}, exitUsage, `not a Claude Code version: "2.1"`},
		{[]string{"--cc-version", "2.1.33", "--detect"}, exitUsage, "exclude each other"},
		{[]string{"--cc-version", "2.1.33", "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"--nope"}, exitUsage, "flag provided but not defined"},
		{[]string{"--cc-version", "2.0.11"}, exitFailure, "predates plugin hooks"},
		{[]string{"--cc-version", "2.1.33", "--spec", "/no/such/spec.json"}, exitFailure, "reading the spec"},
		{[]string{"validate", "--fail-on", "never", "x.json"}, exitUsage, "--fail-on"},
		{[]string{"validate", "--cc-version", "2.0.11", "x.json"}, exitUsage, "older than 2.0.12"},
		{[]string{"validate", "--cc-version", "2.1.33"}, exitUsage, "exactly one PATH"},
		{[]string{"validate", ".", "--since", "2.1.100"}, exitUsage, "put flags before the path"},
		{[]string{"validate", "--since", "2.1.100", "--cc-version", "2.1.33", "x.json"}, exitUsage, "exclude each other"},
		{[]string{"validate", "--releases", ">=banana", "x.json"}, exitUsage, "not a release range"},
		{[]string{"audit", "--cc-version", "2.0.11", "."}, exitUsage, "older than 2.0.12"},
		{[]string{"audit", "../../internal/oracle/testdata/marketplace/plugins/clean"}, exitUsage, "run hookgen validate"},
		{[]string{"audit", "../../internal/oracle/testdata/marketplace/plugins/clean/hooks/hooks.json"}, exitUsage, "hookgen validate"},
		{[]string{"validate", "../../internal/oracle/testdata/marketplace"}, exitUsage, "run hookgen audit"},
		{[]string{"audit", "file:///no/such/repository.git"}, exitFailure, "cannot clone file:///no/such/repository.git"},
		{[]string{"validate", "--cc-version", "2.1.33", "/no/such/file"}, exitFailure, "reading the manifest"},
		{[]string{"explain"}, exitUsage, "explain needs --cc-version"},
		{[]string{"matrix", "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"install"}, exitUsage, "install needs --settings"},
		{[]string{"doctor", "--nope"}, exitUsage, "flag provided but not defined"},
		{[]string{"compat", "--nope"}, exitUsage, "flag provided but not defined"},
		{[]string{"--cc-version", "2.1.33", "-o", "/no/such/dir/hooks.json"}, exitFailure, "writing /no/such/dir/hooks.json"},
		{[]string{"install", "--settings", "project", "--project", "/no/such/project", "--bin", "/bin/sh"}, exitUsage, "--project /no/such/project: no such folder (it is not created"},
		{[]string{"install", "--settings", "user", "--bin", "/no/such/hookwright"}, exitUsage, "--bin /no/such/hookwright: no such hookwright binary"},
		{[]string{"install", "--settings", "user", "--bin", "/bin/sh", "--cc-version", "2.1.33", "--statusline", "--hwctl", "/no/such/hwctl"}, exitUsage, "--hwctl /no/such/hwctl: no such hwctl binary"},
	}
	for _, c := range cases {
		e, _, errb := fakeEnv(t)
		code := hookgen(t, e, c.args...)
		lines := strings.Split(strings.TrimRight(errb.String(), "\n"), "\n")
		if code != c.code || len(lines) != 1 || !strings.HasPrefix(lines[0], "hookgen: ") || !strings.Contains(lines[0], c.msg) {
			t.Errorf("hookgen %v: exit %d, stderr %q; want exit %d and one line containing %q", c.args, code, errb, c.code, c.msg)
		}
	}
}

func TestSpecFlagWithAForeignPlugin(t *testing.T) {
	e, out, errb := fakeEnv(t)
	spec := filepath.Join(t.TempDir(), "bkit.spec.json")
	os.WriteFile(spec, []byte(`{"handlers":[{"event":"TeammateIdle","command":"node \"${CLAUDE_PLUGIN_ROOT}/scripts/idle.js\"","timeout":30}]}`), 0o644)
	if code := hookgen(t, e, "--cc-version", "2.0.30", "--spec", spec); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if !strings.Contains(out.String(), `"command": "node \"${CLAUDE_PLUGIN_ROOT}/scripts/idle.js\" --via SubagentStop"`) {
		t.Errorf("output:\n%s", out)
	}
}

func TestExplainAndMatrix(t *testing.T) {
	e, out, errb := fakeEnv(t)
	if code := hookgen(t, e, "explain", "--cc-version", "2.1.20"); code != exitOK {
		t.Fatalf("explain: exit %d: %s", code, errb)
	}
	for _, want := range []string{"band 2.1.16", "TaskCompleted", "fallback via PostToolUse matching TaskUpdate", "TeammateIdle", "SubagentStop + Stop", "blocks by feedback"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	out.Reset()
	if code := hookgen(t, e, "matrix", "--wide"); code != exitOK {
		t.Fatalf("matrix: exit %d: %s", code, errb)
	}
	for _, want := range []string{"TeammateIdle", "2.1.33", "statusMessage", "Bands (plugin floor 2.0.12): 2.0.12 ", " 2.1.257",
		"Fallbacks: TaskCompleted → PostToolUse[TaskUpdate] from 2.1.16, PostToolUse[TodoWrite] before (approximate); TeammateIdle → SubagentStop + Stop"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("matrix lacks %q", want)
		}
	}
}

func TestHelpTeaches(t *testing.T) {
	e, out, _ := fakeEnv(t)
	if code := hookgen(t, e, "--help"); code != exitOK {
		t.Fatalf("--help: exit %d", code)
	}
	for _, want := range []string{"EXAMPLES", "hookgen --cc-version 2.1.32", "--detect", "validate", "EXIT CODES"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	// Every subcommand's help shows it in use.
	for _, cmd := range []string{"validate", "explain", "matrix", "install", "doctor", "compat"} {
		out.Reset()
		if code := hookgen(t, e, cmd, "--help"); code != exitOK {
			t.Fatalf("%s --help: exit %d", cmd, code)
		}
		if !strings.Contains(out.String(), "\n      hookgen "+cmd) {
			t.Errorf("%s --help has no example:\n%s", cmd, out)
		}
	}
}

func TestDetect(t *testing.T) {
	t.Run("symlink first", func(t *testing.T) {
		e, _, errb := fakeEnv(t)
		bin := filepath.Join(e.Home, ".local", "bin")
		os.MkdirAll(bin, 0o755)
		os.Symlink(filepath.Join(e.Home, ".local", "share", "claude", "versions", "2.1.40"), filepath.Join(bin, "claude"))
		e.Exec = func(context.Context, string, ...string) ([]byte, error) { return []byte("2.1.99 (Claude Code)\n"), nil }
		checkDetected(t, e, errb, "2.1.40", "symlink")
	})
	t.Run("claude --version", func(t *testing.T) {
		e, _, errb := fakeEnv(t)
		var gotTimeout bool
		var deadline time.Time
		e.Exec = func(ctx context.Context, name string, args ...string) ([]byte, error) {
			deadline, gotTimeout = ctx.Deadline()
			return []byte("2.1.33 (Claude Code)\n"), nil
		}
		checkDetected(t, e, errb, "2.1.33", "claude --version")
		if !gotTimeout {
			t.Error("claude --version ran without a deadline")
		} else if left := time.Until(deadline); left < 15*time.Second {
			t.Errorf("claude --version gets %s; it takes up to 16 s on a loaded machine", left)
		}
	})
	t.Run("package.json", func(t *testing.T) {
		e, _, errb := fakeEnv(t)
		pkg := filepath.Join(e.Home, "lib", "node_modules", "@anthropic-ai", "claude-code")
		os.MkdirAll(pkg, 0o755)
		os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"2.1.16"}`), 0o644)
		os.WriteFile(filepath.Join(pkg, "cli.js"), nil, 0o755)
		link := filepath.Join(e.Home, "claude")
		os.Symlink(filepath.Join(pkg, "cli.js"), link)
		e.LookPath = func(string) (string, error) { return link, nil }
		ran := false
		e.Exec = func(context.Context, string, ...string) ([]byte, error) {
			ran = true
			return []byte("2.1.99 (Claude Code)\n"), nil
		}
		checkDetected(t, e, errb, "2.1.16", "version file")
		if ran {
			t.Error("claude --version ran although the version file answers")
		}
	})
	t.Run("nothing found falls back to the floor", func(t *testing.T) {
		e, out, errb := fakeEnv(t)
		if code := hookgen(t, e, "--detect"); code != exitOK {
			t.Fatalf("exit %d: %s", code, errb)
		}
		if !strings.Contains(errb.String(), "warning: could not find the installed Claude Code") || !strings.Contains(errb.String(), "2.0.12") {
			t.Errorf("stderr: %s", errb)
		}
		if strings.Contains(out.String(), "SubagentStart") || !strings.Contains(out.String(), "TodoWrite") {
			t.Errorf("not the floor manifest:\n%s", out)
		}
	})
}

func checkDetected(t *testing.T, e env, errb *bytes.Buffer, version, how string) {
	t.Helper()
	if code := hookgen(t, e, "--detect", "-o", filepath.Join(t.TempDir(), "h.json")); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if want := "detected Claude Code " + version + " (" + how; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr %q, want %q", errb, want)
	}
}

// TestNewerThanKnownWarns: a release newer than every one hookwright knows
// is written for, with one warning line that says so; a known one gets
// none.
func TestNewerThanKnownWarns(t *testing.T) {
	for _, c := range []struct {
		args []string
		warn bool
	}{
		{[]string{"--cc-version", "99.0.0"}, true},
		{[]string{"--cc-version", "v2.1.331"}, true},
		{[]string{"--cc-version", compat.NewestKnown}, false},
		{[]string{"explain", "--cc-version", "99.0.0"}, true},
		{[]string{"validate", "--cc-version", "99.0.0", "../../plugin/hooks/hooks.json"}, true},
		{[]string{"validate", "--cc-version", "2.1.33", "../../plugin/hooks/hooks.json"}, false},
	} {
		e, _, errb := fakeEnv(t)
		code := hookgen(t, e, c.args...)
		warned := strings.Contains(errb.String(), "is newer than every release hookwright knows (the newest is "+compat.NewestKnown+")")
		if code != exitOK || warned != c.warn || strings.Count(errb.String(), "\n") > 1 {
			t.Errorf("hookgen %v: exit %d, stderr %q; want exit 0 and a warning: %v", c.args, code, errb, c.warn)
		}
	}
}

// TestMessagesNameNoGoTypeNorTemporaryFile: a spec of the wrong shape is
// described in JSON's words, and a write that fails names the file asked
// for, not the temporary file it went through.
func TestMessagesNameNoGoTypeNorTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"string.json": `"x"`, "number.json": `{"handlers":[{"event":1}]}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	folder := filepath.Join(dir, "hooks.json")
	if err := os.MkdirAll(filepath.Join(folder, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--cc-version", "2.1.33", "--spec", filepath.Join(dir, "string.json")}, "invalid spec: the document: want an object, got a string"},
		{[]string{"--cc-version", "2.1.33", "--spec", filepath.Join(dir, "number.json")}, "invalid spec: handlers.event: want a string, got a number"},
		{[]string{"--cc-version", "2.1.33", "-o", folder}, "writing " + folder + ": it is a folder"},
	} {
		e, _, errb := fakeEnv(t)
		code := hookgen(t, e, c.args...)
		msg := errb.String()
		if code != exitFailure || !strings.Contains(msg, c.want) || strings.Contains(msg, "Go ") || strings.Contains(msg, "manifests.") || strings.Contains(msg, ".tmp") {
			t.Errorf("hookgen %v: exit %d, %q; want %q", c.args, code, msg, c.want)
		}
	}
}
