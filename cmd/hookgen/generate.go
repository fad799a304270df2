package main

import (
	"context"
	"fmt"
	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/atomicfile"
	"github.com/hookwright/hookwright/manifests"
	"io"
)

// genOptions are the root command's flags.
type genOptions struct {
	env
	ccVersion string
	detect    bool
	spec      string
	output    string
	verbose   bool
}

// runGenerate writes the manifest for one release.
func runGenerate(ctx context.Context, o *genOptions) error {
	v, err := o.release(ctx)
	if err != nil {
		return err
	}
	spec, err := loadSpec(o.spec, o.In)
	if err != nil {
		return err
	}
	r, err := manifests.Build(spec, v)
	if err != nil {
		return err
	}
	if o.verbose {
		fmt.Fprintf(o.Err, "hookgen: Claude Code %s is in band %s\n", v, r.Band)
		for _, n := range r.Notes {
			fmt.Fprintln(o.Err, "hookgen: "+n)
		}
	}
	if o.output == "" {
		_, err = o.Out.Write(r.JSON)
		return err
	}
	return atomicfile.Write(o.output, r.JSON)
}

// release resolves --cc-version or --detect to a version.
func (o *genOptions) release(ctx context.Context) (hooks.Release, error) {
	switch {
	case o.detect && o.ccVersion != "":
		return hooks.Release{}, usageErr("--detect and --cc-version exclude each other")
	case o.detect:
		return detectOrFloor(ctx, o.env), nil
	case o.ccVersion == "":
		return hooks.Release{}, usageErr("--cc-version is required (or --detect)")
	}
	return parseVersionWarn(o.env, o.ccVersion)
}

// parseVersionWarn is parseVersion that warns, on one line, about a
// release newer than every one hookwright knows (compat.NewestKnown).
func parseVersionWarn(e env, s string) (hooks.Release, error) {
	v, err := parseVersion(s)
	if err == nil {
		warnIfNewer(e, v)
	}
	return v, err
}

// warnIfNewer says, on one line, that v is newer than every release
// hookwright knows (compat.NewestKnown).
func warnIfNewer(e env, v hooks.Release) {
	if compat.NewerThanKnown(v) {
		fmt.Fprintf(e.Err, "hookgen: warning: Claude Code %s is newer than every release hookwright knows (the newest is %s): it is treated as %s's band, so events and keys it added are not used and any it dropped are not known\n",
			v, compat.NewestKnown, compat.NewestKnown)
	}
}

// parseVersion is hooks.ParseRelease with a usage exit code.
func parseVersion(s string) (hooks.Release, error) {
	v, err := hooks.ParseRelease(s)
	if err != nil {
		return hooks.Release{}, usageErr("--cc-version: %w", err)
	}
	return v, nil
}

// requiredVersion parses the --cc-version that cmd cannot do without.
func requiredVersion(e env, cmd, s string) (hooks.Release, error) {
	if s == "" {
		return hooks.Release{}, usageErr("%s needs --cc-version", cmd)
	}
	return parseVersionWarn(e, s)
}

// loadSpec reads a spec file ("-" reads stdin), or returns hookwright's
// own for "".
func loadSpec(path string, stdin io.Reader) (manifests.Spec, error) {
	if path == "" {
		return manifests.Hookwright(), nil
	}
	b, err := readInput(path, stdin)
	if err != nil {
		return manifests.Spec{}, fmt.Errorf("reading the spec: %w", err)
	}
	s, err := manifests.ParseSpec(b)
	if err != nil {
		return manifests.Spec{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// detectOrFloor detects the installed release, or warns and returns the
// plugin floor.
func detectOrFloor(ctx context.Context, e env) hooks.Release {
	v, how, err := detect(ctx, e)
	if err == nil {
		fmt.Fprintf(e.Err, "hookgen: detected Claude Code %s (%s)\n", v, how)
		return v
	}
	floor, _ := hooks.ParseRelease(compat.PluginFloor)
	fmt.Fprintf(e.Err, "hookgen: warning: %v; writing the manifest for the plugin floor %s, which every release with plugins loads\n",
		err, floor)
	return floor
}
