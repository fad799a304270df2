package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The hook binary runs on every tool call: it may import the standard
// library and this module's hooks packages, nothing else, and none of the
// standard packages below, whose size or init cost it does not need.
var forbiddenStd = []string{
	"net", "net/http", "crypto/tls", "crypto/x509", "html/template", "text/template",
	"database/sql", "plugin", "expvar", "net/rpc", "os/user", "go/ast", "testing",
}

const allowedPrefix = "github.com/hookwright/hookwright/hooks"

func TestDependencyGuard(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if .Standard}}std {{end}}{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var own []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if std, ok := strings.CutPrefix(line, "std "); ok {
			for _, bad := range forbiddenStd {
				if std == bad {
					t.Errorf("hookwright imports %s; keep the runtime lean (see cmd/hookwright/deps_test.go)", std)
				}
			}
			continue
		}
		if line == "github.com/hookwright/hookwright/cmd/hookwright" {
			continue
		}
		if !strings.HasPrefix(line, allowedPrefix) {
			t.Errorf("hookwright imports %s: only the standard library and %s/... are allowed", line, allowedPrefix)
		}
		own = append(own, line)
	}
	if len(own) == 0 {
		t.Fatal("go list found none of the hooks packages: the guard is not looking at the runtime")
	}
}
