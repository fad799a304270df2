package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFindBinInThePluginThatLaunchedIt: run by a release's launcher,
// hookgen lives in the user's cache, not next to the runtime; the hooks it
// installs still run the plugin's launcher, which HOOKWRIGHT_PLUGIN_BIN
// names.
func TestFindBinInThePluginThatLaunchedIt(t *testing.T) {
	noPath := env{LookPath: func(string) (string, error) { return "", errors.New("not on PATH") }}
	bin := t.TempDir()
	launcher := filepath.Join(bin, "hookwright")
	if err := os.WriteFile(launcher, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOOKWRIGHT_PLUGIN_BIN", bin)
	if got, err := findBin(noPath, ""); err != nil || got != launcher {
		t.Errorf("findBin = %q, %v; want %q", got, err, launcher)
	}
	t.Setenv("HOOKWRIGHT_PLUGIN_BIN", "relative/bin")
	if got, err := findBin(noPath, ""); err == nil {
		t.Errorf("findBin with a relative HOOKWRIGHT_PLUGIN_BIN = %q, want an error", got)
	}
}
