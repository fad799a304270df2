package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fixtures is the committed marketplace of plugin shapes the live test
// loads into real releases.
const fixtures = "../../internal/oracle/testdata/marketplace"

// TestAuditTable: the plugins × releases table, the reasons, the summary
// and exit 1 for a refusal.
func TestAuditTable(t *testing.T) {
	e, out, errb := fakeEnv(t)
	code := hookgen(t, e, "audit", "--cc-version", "2.0.30", "--cc-version", "2.1.252", "--cc-version", "2.1.330", fixtures)
	if code != exitInvalid {
		t.Fatalf("exit %d, want %d: %s", code, exitInvalid, errb)
	}
	rows := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 1 && !strings.Contains(l, ":") {
			rows[f[0]] = strings.Join(f[1:], " ")
		}
	}
	want := map[string]string{
		"clean":                  "loads loads loads",
		"http-var":               "refused refused loads, 1 dropped",
		"top-level-guard":        "loads, 1 dropped loads, 1 dropped refused",
		"long-timeout":           "loads loads loads",
		"prompt-handlers":        "loads, 2 dropped loads loads",
		"display-name":           "refused loads loads",
		"unknown-event":          "refused refused loads, 1 dropped",
		"skills-only":            "loads loads loads",
		"escape":                 "skipped skipped skipped",
		"author-string":          "refused refused loads",
		"guard-bad-url":          "refused refused refused",
		"timeout-zero":           "refused refused loads, 1 dropped",
		"schema-key":             "refused loads loads",
		"path-no-dot":            "refused refused refused",
		"shell-zsh":              "loads refused loads, 1 dropped",
		"top-level-stop":         "loads, 1 dropped loads, 1 dropped loads, 1 dropped",
		"surface-key":            "loads loads refused",
		"guards-in-metadata":     "refused loads loads",
		"guards-in-experimental": "refused loads refused",
		"bidi-name":              "loads refused refused",
		"null-guard":             "refused refused loads, 1 dropped",
	}
	for name, w := range want {
		if rows[name] != w {
			t.Errorf("%s: %q, want %q\n%s", name, rows[name], w, out)
		}
	}
	for _, w := range []string{`top-level-guard: rejected on 2.1.257 and later: hooks.json /PreToolUse`, "escape: skipped: marketplace: path leaves the marketplace root",
		"35 plugins x 3 releases: 34 load, 18 load with drops, 47 refused, 6 skipped"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestAuditJSONAndMarkdown: --json is one object with every plugin's
// verdict per release; --markdown a table a CI summary renders.
func TestAuditJSONAndMarkdown(t *testing.T) {
	e, out, _ := fakeEnv(t)
	if code := hookgen(t, e, "audit", "--json", "--cc-version", "2.1.330", fixtures); code != exitInvalid {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Releases []string
		Plugins  []struct {
			Name     string
			Releases []struct{ Release, Verdict, Reason string }
		}
		Summary map[string]int
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Plugins) != 35 || doc.Summary["refused"] != 11 || doc.Plugins[2].Releases[0].Verdict != "refused" ||
		!strings.Contains(doc.Plugins[2].Releases[0].Reason, "/PreToolUse") {
		t.Errorf("json = %+v", doc)
	}
	e, out, _ = fakeEnv(t)
	hookgen(t, e, "audit", "--markdown", "--cc-version", "2.1.330", "--cc-version", "2.0.30", fixtures)
	md := out.String()
	for _, w := range []string{"| plugin | 2.1.330 | 2.0.30 |", "|---|---|---|", "| top-level-guard | **refused** | loads, 1 dropped |"} {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q:\n%s", w, md)
		}
	}
}

// TestAuditExitLevels: a marketplace whose worst is a drop exits 0, and 1
// with --strict.
func TestAuditExitLevels(t *testing.T) {
	e, out, _ := fakeEnv(t)
	if code := hookgen(t, e, "audit", "--cc-version", "2.1.100", "--json", fixtures); code != exitInvalid {
		t.Errorf("2.1.100 refuses http-var: exit %d\n%s", code, out)
	}
	for _, tt := range []struct {
		flag string
		code int
	}{{"--fail-on=rejected", exitOK}, {"--strict", exitInvalid}} {
		e, out, _ := fakeEnv(t)
		// 2.0.30 without the plugins it refuses: only drops remain, so
		// check one plugin folder through validate, the same levels.
		if code := hookgen(t, e, "validate", tt.flag, "--cc-version", "2.0.30", fixtures+"/plugins/prompt-handlers"); code != tt.code {
			t.Errorf("validate %s on prompt-handlers: exit %d, want %d\n%s", tt.flag, code, tt.code, out)
		}
	}
	e, _, errb := fakeEnv(t)
	if code := hookgen(t, e, "audit", t.TempDir()); code != exitFailure || !strings.Contains(errb.String(), "marketplace.json") {
		t.Errorf("no marketplace.json: exit %d, %s", code, errb)
	}
}

// TestValidateRejectionFirst: an unknown event among a hundred other
// findings is the first line, and the exit code is 1 for it alone.
func TestValidateRejectionFirst(t *testing.T) {
	var hs []string
	for i := 0; i < 100; i++ {
		hs = append(hs, `{"type":"command","command":"x","timeout":5000,"note":1}`)
	}
	e, out, _ := fakeEnv(t)
	e.In = strings.NewReader(`{"hooks":{"Stop":[{"matcher":"Bash","hooks":[` + strings.Join(hs, ",") + `]}],"NoSuchEvent":[]}}`)
	if code := hookgen(t, e, "validate", "--cc-version", "2.1.33", "-"); code != exitInvalid {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 202 || !strings.HasPrefix(lines[0], "rejected hooks.json /hooks/NoSuchEvent ") {
		t.Errorf("%d lines, first %q; want 202, the unknown event first", len(lines), lines[0])
	}
	e, out, _ = fakeEnv(t)
	e.In = strings.NewReader(`{"hooks":{"Stop":[{"matcher":"Bash","hooks":[` + strings.Join(hs, ",") + `]}]}}`)
	if code := hookgen(t, e, "validate", "--cc-version", "2.1.33", "-"); code != exitOK {
		t.Errorf("lints and ignored keys alone: exit %d, want 0\n%s", code, out)
	}
}

// TestAuditGitURL clones a marketplace (a local repository by file://
// URL, standing in for a remote) shallow into a temporary folder, audits
// it and removes the clone.
func TestAuditGitURL(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	if err := copyDir(fixtures, repo); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "m"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "hookgen-audit-*"))
	e, out, errb := fakeEnv(t)
	if code := hookgen(t, e, "audit", "--cc-version", "2.1.330", "file://"+repo); code != exitInvalid ||
		!strings.Contains(out.String(), "top-level-guard: rejected on 2.1.257 and later") {
		t.Errorf("exit %d\n%s%s", code, out, errb)
	}
	after, _ := filepath.Glob(filepath.Join(os.TempDir(), "hookgen-audit-*"))
	if len(after) > len(before) {
		t.Errorf("clone left behind: %v", after)
	}
}

// copyDir copies the regular files under src into dst.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}
