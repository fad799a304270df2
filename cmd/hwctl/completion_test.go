package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletionInRealShells loads hwctl completion bash, zsh and fish in
// the real shells and completes as a user's Tab would: the commands after
// "hwctl ev", a command's flags after "hwctl events --s", and a
// subcommand after "hwctl work ".
func TestCompletionInRealShells(t *testing.T) {
	_, bin := builtBinaries(t)
	dir := t.TempDir()
	env := append(hermeticEnv(t), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	script := func(shell string) string {
		out, errs, code := hwctl(t, "completion", shell)
		if code != 0 || out == "" {
			t.Fatalf("hwctl completion %s: exit %d %q", shell, code, errs)
		}
		p := filepath.Join(dir, "hwctl."+shell)
		must(t, os.WriteFile(p, []byte(out), 0o644))
		return p
	}
	run := func(shell string, args ...string) string {
		t.Helper()
		cmd := exec.Command(shell, args...)
		cmd.Env, cmd.Dir = env, dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", shell, args, err, out)
		}
		return string(out)
	}
	cases := []struct {
		line string // what is typed, then Tab
		want []string
	}{
		{"hwctl ev", []string{"events"}},
		{"hwctl events --s", []string{"--session", "--since", "--search"}},
		{"hwctl work ", []string{"start", "stop", "status"}},
	}
	if _, err := exec.LookPath("bash"); err == nil {
		p := script("bash")
		for _, c := range cases {
			words := strings.Fields(c.line)
			if strings.HasSuffix(c.line, " ") {
				words = append(words, "")
			}
			var quoted []string
			for _, w := range words {
				quoted = append(quoted, "'"+w+"'")
			}
			drive := "source '" + p + "'\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" + itoa(len(words)-1) +
				"\n_hwctl_complete\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
			got := run("bash", "-c", drive)
			for _, w := range c.want {
				if !strings.Contains("\n"+got, "\n"+w+"\n") {
					t.Errorf("bash: %q then Tab offers %q, not %q", c.line, got, w)
				}
			}
		}
	} else {
		t.Log("no bash")
	}
	if _, err := exec.LookPath("fish"); err == nil {
		p := script("fish")
		for _, c := range cases {
			got := run("fish", "--no-config", "-c", "source '"+p+"'; complete -C '"+c.line+"'")
			for _, w := range c.want {
				if !strings.Contains("\n"+got, "\n"+w) {
					t.Errorf("fish: %q then Tab offers %q, not %q", c.line, got, w)
				}
			}
		}
	} else {
		t.Log("no fish")
	}
	if _, err := exec.LookPath("zsh"); err == nil {
		p := script("zsh")
		// The zsh script's function, with the words the completion system
		// would set and _describe replaced by a printer of its choices.
		for _, c := range cases {
			words := strings.Fields(c.line)
			if strings.HasSuffix(c.line, " ") {
				words = append(words, "''")
			}
			drive := "compdef() { :; }\nsource '" + p + "'\n_describe() { print -rl -- ${(P)2}; }\n_files() { :; }\nwords=(" + strings.Join(words, " ") + ")\n_hwctl_complete\n"
			got := run("zsh", "-f", "-c", drive)
			for _, w := range c.want {
				if !strings.Contains("\n"+got, "\n"+w) {
					t.Errorf("zsh: %q then Tab offers %q, not %q", c.line, got, w)
				}
			}
		}
	} else {
		t.Log("no zsh")
	}
}

// TestCompletionNeedsAShell: a missing or unknown shell is a usage error.
func TestCompletionNeedsAShell(t *testing.T) {
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}} {
		if _, errs, code := hwctl(t, args...); code != 2 || !strings.Contains(errs, "bash, zsh or fish") {
			t.Errorf("hwctl %v: exit %d %q", args, code, errs)
		}
	}
}
