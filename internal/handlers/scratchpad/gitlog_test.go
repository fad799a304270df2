package scratchpad

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestGitLogRunsNoPlantedProgram plants what the model can write in a
// project, a .git/config that asks git log to verify signatures with a
// program of its choosing and a commit that carries a signature, and
// checks that GitLog lists the commits without starting that program.
func TestGitLogRunsNoPlantedProgram(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the planted program is a shell script")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git:", err)
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", ".")
	git("-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "--allow-empty", "-m", "first")
	marker := filepath.Join(dir, "RAN")
	evil := filepath.Join(dir, "verify.sh")
	os.WriteFile(evil, []byte("#!/bin/sh\ntouch '"+marker+"'\nexit 1\n"), 0o755)
	signed := fmt.Sprintf("tree %s\nparent %s\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n"+
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQ==\n -----END PGP SIGNATURE-----\n\nsigned\n",
		git("rev-parse", "HEAD^{tree}"), git("rev-parse", "HEAD"))
	obj := filepath.Join(dir, "commit.txt")
	os.WriteFile(obj, []byte(signed), 0o644)
	git("update-ref", "HEAD", git("hash-object", "-t", "commit", "-w", obj))
	git("config", "log.showSignature", "true")
	git("config", "gpg.program", evil)

	out := GitLog(dir, 5)
	if !strings.Contains(out, "signed") || !strings.Contains(out, "first") {
		t.Errorf("GitLog = %q, want both commits", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("git log started the program the project's .git/config names")
	}
}
