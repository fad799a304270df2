// Command plugin is the hook binary of package plugin.
package main

import (
	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/hooks/hookstest/testdata/plugin"
)

func main() { hooks.Main(plugin.Mux()) }
