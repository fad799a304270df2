package main

import (
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The hook binary runs on every tool call: it may import the standard
// library and this module's own packages, nothing else, and none of the
// standard packages below, whose size or init cost it does not need. Its
// full dependency list is committed in testdata/deps.txt, so that a new
// import shows up in review; go test -run TestDependencyGuard -update
// rewrites it.
var forbiddenStd = []string{
	"net", "net/http", "crypto/tls", "crypto/x509", "html/template", "text/template",
	"database/sql", "plugin", "expvar", "net/rpc", "os/user", "go/ast", "testing",
	// Their package init runs on every hook call, for work a hook rarely
	// or never does: net/url's (with net/netip, unique and weak) was about
	// 1.4% of a call's CPU, hash/crc32's (through archive/zip and
	// compress/gzip) about 2%. toolrule reads a URL's host, and the guard
	// a zip's names and a gzip stream, by hand instead.
	"net/url", "net/netip", "archive/zip", "hash/crc32", "compress/gzip",
}

const module = "github.com/hookwright/hookwright"

func TestDependencyGuard(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if .Standard}}std {{end}}{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var own, all []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if std, ok := strings.CutPrefix(line, "std "); ok {
			all = append(all, std)
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
		if line != module && !strings.HasPrefix(line, module+"/") {
			t.Errorf("hookwright imports %s: only the standard library and %s/... are allowed", line, module)
		}
		own = append(own, line)
		all = append(all, line)
	}
	if len(own) == 0 {
		t.Fatal("go list found none of this module's packages: the guard is not looking at the runtime")
	}
	sort.Strings(all)
	got := strings.Join(all, "\n") + "\n"
	const golden = "testdata/deps.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run TestDependencyGuard -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("the runtime's dependency list changed; review it, then go test ./cmd/hookwright -run TestDependencyGuard -update\n%s", lineDiff(string(want), got))
	}
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

// TestInitWorkNearZero runs the built binary with GODEBUG=inittrace=1 and
// fails when one of this module's packages does real work at start-up: the
// runtime starts on every tool call, so a package-level regexp.MustCompile
// (about 50 allocations), a table built by a function, or a file read in
// init is paid on every hook. Compile and build such things on first use
// (sync.OnceValue). Allocation counts, unlike times, are stable.
func TestInitWorkNearZero(t *testing.T) {
	const maxAllocs, maxBytes = 32, 8 << 10
	cmd := exec.Command(binPath, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// init github.com/x/y @0.3 ms, 0.004 ms clock, 984 bytes, 4 allocs
	line := regexp.MustCompile(`init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs`)
	seen := 0
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		if !strings.HasPrefix(m[1], "github.com/hookwright/hookwright") {
			continue
		}
		seen++
		bytes, _ := strconv.Atoi(m[2])
		allocs, _ := strconv.Atoi(m[3])
		if allocs > maxAllocs || bytes > maxBytes {
			t.Errorf("init of %s: %d bytes in %d allocations (at most %d bytes, %d allocations): move the work to first use", m[1], bytes, allocs, maxBytes, maxAllocs)
		}
	}
	if seen == 0 {
		t.Fatalf("inittrace named none of this module's packages:\n%s", out)
	}
}
