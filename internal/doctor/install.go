package doctor

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/compat"
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// inPlaceFrom is the first release that runs a plugin from its folder
// marketplace in place although installed_plugins.json names a cache copy
// (compat.FolderPluginInPlace, with its evidence); 2.0.30 runs the folder
// too, and writes no installed_plugins.json. The releases between run the
// copy in ~/.claude/plugins/cache that installed_plugins.json names.
var (
	inPlaceFrom   = loaderEdge(compat.FolderPluginInPlace)
	pluginsFolder = filepath.Join(".claude", "plugins")
)

// loaderEdge is the first release of the matrix's loader row name.
func loaderEdge(name string) hooks.Release {
	f, ok := compat.Lookup(compat.KindLoader, name)
	if !ok {
		panic("doctor: no loader row " + name + " in compat's matrix")
	}
	return f.Version()
}

// PluginRoot returns the folder Claude Code release v runs the hookwright
// plugin from for the user whose home is home, and how that was found; ""
// when no hookwright plugin is installed. v may be nil (unknown release):
// the installed copy is assumed then.
func PluginRoot(home string, v hooks.Release) (root, how string) {
	cached, id := installedCopy(home)
	market := ""
	if id != "" {
		_, market, _ = strings.Cut(id, "@")
	}
	folder := marketplaceFolder(home, market)
	runsInPlace := !v.IsZero() && !v.Less(inPlaceFrom)
	switch {
	case folder != "" && (cached == "" || runsInPlace):
		return folder, "run in place from its folder marketplace (" + releaseName(v) + ")"
	case cached != "":
		return cached, "the installed copy in installed_plugins.json"
	}
	return "", ""
}

func releaseName(v hooks.Release) string {
	if v.IsZero() {
		return "release unknown"
	}
	return "Claude Code " + v.String()
}

// maxPluginsFile caps Claude Code's plugin registries and the settings
// files doctor reads: far above any real one.
const (
	maxPluginsFile  = 8 << 20
	maxSettingsFile = 8 << 20
)

// installedCopy returns the install path of hookwright@<marketplace> from
// installed_plugins.json, and its id.
func installedCopy(home string) (path, id string) {
	data, err := safepath.ReadFollowing(filepath.Join(home, pluginsFolder, "installed_plugins.json"), maxPluginsFile)
	if err != nil {
		return "", ""
	}
	var f struct {
		Plugins map[string][]struct{ InstallPath string }
	}
	if json.Unmarshal(data, &f) != nil {
		return "", ""
	}
	for id, installs := range f.Plugins {
		if strings.HasPrefix(id, "hookwright@") && len(installs) > 0 {
			return installs[0].InstallPath, id
		}
	}
	return "", ""
}

// marketplaceFolder returns the hookwright plugin folder inside a folder
// marketplace (source "directory" in known_marketplaces.json) that lists
// it: market when named, else any; "" when there is none.
func marketplaceFolder(home, market string) string {
	data, err := safepath.ReadFollowing(filepath.Join(home, pluginsFolder, "known_marketplaces.json"), maxPluginsFile)
	if err != nil {
		return ""
	}
	var known map[string]struct {
		Source struct {
			Source, Path string
		}
		InstallLocation string
	}
	if json.Unmarshal(data, &known) != nil {
		return ""
	}
	for name, m := range known {
		if market != "" && name != market || m.Source.Source != "directory" {
			continue
		}
		loc := m.InstallLocation
		if loc == "" {
			loc = m.Source.Path
		}
		if src := pluginSource(loc); src != "" {
			return src
		}
	}
	return ""
}

// pluginSource resolves the hookwright entry of loc's marketplace.json.
func pluginSource(loc string) string {
	data, err := readPluginFile(loc, filepath.Join(".claude-plugin", "marketplace.json"))
	if err != nil {
		return ""
	}
	var m struct {
		Plugins []struct {
			Name   string
			Source any
		}
	}
	if json.Unmarshal(data, &m) != nil {
		return ""
	}
	for _, p := range m.Plugins {
		if s, ok := p.Source.(string); ok && p.Name == "hookwright" {
			return filepath.Join(loc, filepath.FromSlash(s))
		}
	}
	return ""
}
