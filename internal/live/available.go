package live

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// registryProbe is the result of the one registry check per process.
var registryProbe = sync.OnceValue(func() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "view", Package, "version")
	cmd.Env = npmEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("npm view %s version: %w\n%s", Package, err, out)
	}
	return nil
})

// Available skips t under -short (the fast loop runs no real Claude Code),
// and when the npm registry cannot be reached, since then no release can
// be installed. With CI=true an unreachable registry fails t instead: in CI
// the live tier must run.
func Available(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("live tier: needs real Claude Code releases (skipped under -short)")
	}
	err := registryProbe()
	if err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("live tier: npm registry unreachable and CI=true: %v", err)
	}
	t.Skipf("live tier skipped: npm registry unreachable: %v", err)
}
