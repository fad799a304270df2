package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/compat"

	"github.com/hookwright/hookwright/internal/compatsuite"
	"github.com/urfave/cli/v2"

	hwcli "github.com/hookwright/hookwright/internal/cli"
)

// compatOptions are `hookgen compat`'s flags and argument.
type compatOptions struct {
	env
	dir         string
	ccVersions  []string
	spec        string
	marketplace string
}

func compatCommand(e env) *cli.Command {
	o := &compatOptions{env: e}
	versions := &cli.StringSliceFlag{Name: "cc-version", Usage: "a release the plugin must work on; repeat it (default: every band edge from 2.0.12)"}
	return &cli.Command{
		Name:      "compat",
		Usage:     "run the HWC/HWF/HWR suite on a plugin folder; one line per case",
		UsageText: "hookgen compat PLUGIN-DIR [--cc-version VERSION ...] [--spec FILE] [--marketplace FILE]",
		Description: `Checks a plugin folder (the one holding .claude-plugin/plugin.json and
hooks/hooks.json) with 31 cases and prints one line each, PASS, FAIL, WARN or
SKIP (WARN: the releases load the plugin but drop or ignore something in it,
or the claim is unverified; it does not fail the run), then a summary line
(the releases judged, how many passed, failed, warned and were skipped):

   PASS HWC-03 every manifest is one valid JSON object: 25 manifests ...
   FAIL HWC-01: hooks/hooks.json (band 2.0.30) names TeammateIdle, so 2.0.30 rejects ...

The cases about loading (HWC-01 to HWC-04, HWR-01 to HWR-03) ask hookgen
validate's oracle and fail exactly where hookgen validate fails: a release
refuses the plugin, a hooks file, or every hook. By default the releases are
those plugin.json declares (engines["claude-code"]), else every release from
2.0.12. It runs the plugin's hook commands through sh -c with real payloads,
so any plugin works, JavaScript ones included, from a private copy of the
folder: it never writes into the folder it checks. A released plugin's
runtimes (bin/<name>-<version>-<os>-<arch>.gz, pinned by bin/SHA256SUMS)
are checked in memory. hooks/hooks.json is taken as written for the oldest
release; each further hooks file plugin.json names (an install for every
release, hooks/<release>.json) is read by the releases that accept it, and
each release is judged on what it loads. Without --spec the
cases that compare with a spec are skipped. A case that runs handlers is
SKIP, never PASS, when a handler never ran (the shell found no program, or a
launcher found no binary and failed open); in a checkout where make plugin
has not run, HWC-06 says so as a SKIP. Exits 1 when a case fails. The cases
are listed in the internal/compatsuite package docs and docs/validate.md.

   hookgen compat plugin --spec manifests/hookwright.spec.json
   hookgen compat . --cc-version 2.1.32 --cc-version 2.1.33 --spec bkit.spec.json`,
		Flags: []cli.Flag{
			versions,
			&cli.StringFlag{Name: "spec", Usage: "the plugin's handler spec `FILE`, to compare the manifests with", Destination: &o.spec},
			&cli.StringFlag{Name: "marketplace", Usage: "marketplace.json `FILE` (default: .claude-plugin/ in the plugin folder or its parent)", Destination: &o.marketplace},
		},
		Action: func(c *cli.Context) error {
			o.ccVersions = c.StringSlice("cc-version")
			if c.NArg() == 0 {
				return usageErr("compat needs a PLUGIN-DIR")
			}
			o.dir = c.Args().First()
			if err := o.parseTail(c.Args().Tail()); err != nil {
				return err
			}
			return runCompat(c, o)
		},
	}
}

// parseTail reads flags written after PLUGIN-DIR, which urfave/cli leaves
// as arguments: hookgen compat plugin --spec FILE.
func (o *compatOptions) parseTail(args []string) error {
	fs := flag.NewFlagSet("compat", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Func("cc-version", "", func(v string) error { o.ccVersions = append(o.ccVersions, v); return nil })
	fs.StringVar(&o.spec, "spec", o.spec, "")
	fs.StringVar(&o.marketplace, "marketplace", o.marketplace, "")
	if err := fs.Parse(args); err != nil {
		return usageErr("compat: %w", err)
	}
	if fs.NArg() > 0 {
		return usageErr("compat takes exactly one PLUGIN-DIR, not also %q", fs.Arg(0))
	}
	return nil
}

// judged names the releases the suite judged, as validate's summary does.
func (o *compatOptions) judged(cfg suite.Config) string {
	if len(cfg.Versions) > 0 {
		var vs []string
		for _, v := range cfg.Versions {
			vs = append(vs, v.String())
		}
		return strings.Join(vs, ", ") + " (--cc-version)"
	}
	manifest, _ := readInput(filepath.Join(o.dir, ".claude-plugin", "plugin.json"), nil)
	j, err := (&releaseFlags{}).choose(manifest)
	if err != nil {
		return "every release from " + compat.PluginFloor
	}
	return j.Label
}

// runCompat runs the suite and prints one line per case.
func runCompat(c *cli.Context, o *compatOptions) error {
	cfg := suite.Config{Dir: o.dir, Marketplace: o.marketplace}
	for _, s := range o.ccVersions {
		v, err := parseVersion(s)
		if err != nil {
			return err
		}
		cfg.Versions = append(cfg.Versions, v)
	}
	if o.spec != "" {
		spec, err := loadSpec(o.spec, o.In)
		if err != nil {
			return err
		}
		cfg.Spec = &spec
	}
	outcomes, failed, err := suite.Run(c.Context, cfg, o.Out)
	if err != nil {
		return err
	}
	pass, fail, skip := suite.Tally(outcomes)
	warn := len(outcomes) - pass - fail - skip
	fmt.Fprintf(o.Out, "%d cases on %s: %d passed, %d failed, %d warned, %d skipped\n", len(outcomes), o.judged(cfg), pass, fail, warn, skip)
	if failed {
		return hwcli.Exit(exitInvalid, fmt.Errorf("%d of %d cases failed", fail, len(outcomes)))
	}
	return nil
}
