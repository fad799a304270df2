package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// errNotDetected is returned when no detection method answers.
var errNotDetected = errors.New("could not find the installed Claude Code")

// versionTimeout bounds `claude --version`: about 1 s from 2.1.40, 2–3 s
// on the Node releases, and up to 16 s on a loaded machine (seen).
const versionTimeout = 30 * time.Second

// detect finds the installed Claude Code release, cheapest source first:
// the native installer's symlink, the npm package's package.json (a
// version file), then `claude --version`. It returns the source it used.
func detect(ctx context.Context, e env) (hooks.Release, string, error) {
	var tried []string
	for _, m := range []func(context.Context, env) (hooks.Release, string, error){fromSymlink, fromPackageJSON, fromVersionCommand} {
		v, how, err := m(ctx, e)
		if err == nil {
			return v, how, nil
		}
		tried = append(tried, err.Error())
	}
	return hooks.Release{}, "", fmt.Errorf("%w (%s)", errNotDetected, strings.Join(tried, "; "))
}

// fromSymlink reads ~/.local/bin/claude → …/versions/<X>.
func fromSymlink(_ context.Context, e env) (hooks.Release, string, error) {
	link := filepath.Join(e.Home, ".local", "bin", "claude")
	target, err := os.Readlink(link)
	if err != nil {
		return hooks.Release{}, "", fmt.Errorf("no symlink %s", link)
	}
	v, err := hooks.ParseRelease(filepath.Base(target))
	if err != nil {
		return hooks.Release{}, "", fmt.Errorf("%s → %s names no version", link, target)
	}
	return v, "symlink " + link, nil
}

// fromVersionCommand runs `claude --version`, bounded by versionTimeout.
func fromVersionCommand(ctx context.Context, e env) (hooks.Release, string, error) {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	out, err := e.Exec(ctx, "claude", "--version")
	if err != nil {
		return hooks.Release{}, "", fmt.Errorf("claude --version: %w", err)
	}
	v, err := hooks.ParseRelease(string(out))
	if err != nil {
		return hooks.Release{}, "", fmt.Errorf("claude --version printed %q", out)
	}
	return v, "claude --version", nil
}

// fromPackageJSON reads the version of the npm package that provides the
// claude found on PATH.
func fromPackageJSON(_ context.Context, e env) (hooks.Release, string, error) {
	bin, err := e.LookPath("claude")
	if err != nil {
		return hooks.Release{}, "", fmt.Errorf("no claude on PATH")
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return hooks.Release{}, "", fmt.Errorf("resolving %s: %w", bin, err)
	}
	for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
		if v, path, ok := packageVersion(dir); ok {
			return v, "version file " + path, nil
		}
		if parent := filepath.Dir(dir); parent == dir {
			return hooks.Release{}, "", fmt.Errorf("no @anthropic-ai/claude-code package.json above %s", real)
		}
	}
}

// packageVersion reads dir/package.json if it is Claude Code's.
func packageVersion(dir string) (hooks.Release, string, bool) {
	path := filepath.Join(dir, "package.json")
	b, err := safepath.ReadFollowing(path, 1<<20)
	if err != nil {
		return hooks.Release{}, "", false
	}
	var pkg struct{ Name, Version string }
	if json.Unmarshal(b, &pkg) != nil || pkg.Name != "@anthropic-ai/claude-code" {
		return hooks.Release{}, "", false
	}
	v, err := hooks.ParseRelease(pkg.Version)
	return v, path, err == nil
}
