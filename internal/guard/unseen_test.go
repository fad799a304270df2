package guard

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/config"
)

// member is one entry of a test archive: a file, or a symlink to link.
type member struct{ name, link string }

func writeTar(t *testing.T, p string, gz bool, ms ...member) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range ms {
		h := &tar.Header{Name: m.name, Mode: 0o644, Size: 2, Typeflag: tar.TypeReg}
		if m.link != "" {
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, m.link, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if m.link == "" {
			tw.Write([]byte("{}"))
		}
	}
	tw.Close()
	data := buf.Bytes()
	if gz {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(data)
		zw.Close()
		data = z.Bytes()
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeZip(t *testing.T, p string, names ...string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("{}"))
	}
	zw.Close()
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Archives unpacked into a folder that holds the guard's ground: the
// guard reads the member names (tar, tar.gz, zip; bounded, a regular file
// only) and blocks one that lands on the ground; what it cannot read asks;
// into a subfolder, or an archive of ordinary files, stays allowed.
func TestGuardGroundArchives(t *testing.T) {
	dir := t.TempDir()
	writeTar(t, filepath.Join(dir, "evil.tgz"), true, member{name: "src/a.go"}, member{name: ".hookwright/config.json"})
	writeTar(t, filepath.Join(dir, "dot.tar"), false, member{name: "./.claude/settings.json"})
	writeTar(t, filepath.Join(dir, "up.tar"), false, member{name: "../x/.hookwright/loop.json"})
	writeTar(t, filepath.Join(dir, "link.tar"), false, member{name: "cfg", link: ".hookwright"}, member{name: "cfg/config.json"})
	writeTar(t, filepath.Join(dir, "hooks.tar"), false, member{name: ".claude/hooks/pre.sh"})
	writeTar(t, filepath.Join(dir, "long.tar"), false, member{name: "src/a.go"}, member{name: strings.Repeat("./", 60) + ".hookwright/config.json"})
	writeTar(t, filepath.Join(dir, "ok.tgz"), true, member{name: "src/a.go"}, member{name: "docs/hookwright.md"}, member{name: ".claude/commands/x.md"})
	writeZip(t, filepath.Join(dir, "evil.zip"), "README.md", ".claude/settings.local.json")
	writeZip(t, filepath.Join(dir, "case.zip"), ".HOOKWRIGHT/config.json")
	writeZip(t, filepath.Join(dir, "ok.zip"), "public/logo.png", "public/index.html")
	os.WriteFile(filepath.Join(dir, "junk.tgz"), []byte("not an archive"), 0o644)
	os.WriteFile(filepath.Join(dir, "x.7z"), []byte("7z\xbc\xaf\x27\x1c"), 0o644)
	os.WriteFile(filepath.Join(dir, "x.cpio"), []byte("070701"), 0o644)
	os.MkdirAll(filepath.Join(dir, "vendor"), 0o755)

	g := newTest(config.Guard{}, groundEnv)
	g.ProjectDir = dir
	run := func(cmd string) Report {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		return g.Check(Call{Tool: "Bash", Input: in, Cwd: dir})
	}
	for _, c := range []struct{ cmd, want string }{
		{`tar -xzf evil.tgz`, "block"}, {`tar xzf evil.tgz`, "block"}, {`tar -C . -xf evil.tgz`, "block"},
		{`tar -xf dot.tar`, "block"}, {`tar -xf long.tar`, "block"}, {`tar -xf up.tar`, "block"}, {`tar -xf link.tar`, "block"}, {`tar -xf hooks.tar`, "block"},
		{`bsdtar -xf evil.tgz`, "block"}, {`tar --extract --file=evil.tgz`, "block"}, {`tar -x -f evil.tgz`, "block"},
		{`unzip evil.zip`, "block"}, {`unzip -o evil.zip`, "block"}, {`unzip -o evil.zip -d .`, "block"}, {`unzip case.zip`, "block"},
		{`tar -xzf junk.tgz`, "ask"}, {`tar -xzf missing.tgz`, "allow"}, {`7z x evil.7z`, "allow"}, {`7z x x.7z`, "ask"}, {`cpio -idmv < x.cpio`, "ask"},
		{`cpio -idmv < evil.cpio`, "allow"}, {`curl -sO https://example.com/x.zip; unzip -o x.zip`, "ask"}, {`cat evil.tgz | tar -xz`, "ask"},
		{`curl -LO https://example.com/r.tgz && tar xzf r.tgz`, "ask"}, {`pax -r < x.cpio`, "ask"},
		{`tar -xzf ok.tgz`, "allow"}, {`unzip ok.zip`, "allow"}, {`unzip -o ok.zip`, "allow"},
		{`tar -xzf evil.tgz -C vendor/`, "allow"}, {`unzip evil.zip -d vendor`, "allow"}, {`cd vendor && tar xzf ../evil.tgz`, "allow"},
		{`tar -tzf evil.tgz`, "allow"}, {`unzip -l evil.zip`, "allow"}, {`tar -czf backup.tgz .`, "allow"}, {`7z l evil.7z`, "allow"},
		{`7z a out.7z src`, "allow"}, {`tar -cf - src | tar -xf - -C /tmp/copy`, "allow"},
	} {
		if rep := run(c.cmd); rep.Decision != c.want {
			t.Errorf("%q: got %s (%s), want %s\n%s", c.cmd, rep.Decision, rep.Reason, c.want, summary(rep))
		}
	}
}

// tarNames reads what archive/tar writes, long names included, and never
// panics or runs away on anything else.
func FuzzTarNames(f *testing.F) {
	for _, ms := range [][]member{
		{{name: "a"}, {name: ".hookwright/config.json"}},
		{{name: strings.Repeat("d/", 80) + "x"}, {name: "l", link: strings.Repeat("t/", 80)}},
	} {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for _, m := range ms {
			h := &tar.Header{Name: m.name, Mode: 0o644, Typeflag: tar.TypeReg}
			if m.link != "" {
				h.Typeflag, h.Linkname = tar.TypeSymlink, m.link
			}
			tw.WriteHeader(h)
		}
		tw.Close()
		f.Add(buf.Bytes())
	}
	f.Add([]byte("not a tar"))
	f.Fuzz(func(t *testing.T, data []byte) {
		names, err := tarNames(bytes.NewReader(data))
		if err == nil && len(names) > maxMembers+1 {
			t.Fatalf("%d names", len(names))
		}
		// what archive/tar reads, tarNames reads too
		tr := tar.NewReader(bytes.NewReader(data))
		for err == nil {
			h, terr := tr.Next()
			if terr != nil {
				break
			}
			if !slices.Contains(names, h.Name) {
				t.Fatalf("archive/tar reads %q, tarNames %q", h.Name, names)
			}
		}
	})
}

// Patches applied in a folder that holds the guard's ground are judged by
// the files they name; one the guard cannot read asks.
func TestGuardGroundPatches(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"evil.patch":   "diff --git a/.hookwright/config.json b/.hookwright/config.json\n--- a/.hookwright/config.json\n+++ b/.hookwright/config.json\n@@ -1 +1 @@\n-{}\n+{\"guard\":{\"enabled\":false}}\n",
		"plain.diff":   "--- .claude/settings.json\t2024-01-01\n+++ .claude/settings.json\t2024-01-02\n@@ -1 +1 @@\n-{}\n+{\"disableAllHooks\":true}\n",
		"rename.patch": "diff --git a/x.json b/.claude/hooks/x.sh\nsimilarity index 100%\nrename from x.json\nrename to .claude/hooks/x.sh\n",
		"fix.diff":     "diff --git a/src/a.go b/src/a.go\n--- a/src/a.go\n+++ b/src/a.go\n@@ -1 +1 @@\n-a\n+b\n",
		"doc.diff":     "--- a/docs/hookwright.md\n+++ b/docs/hookwright.md\n@@ -1 +1 @@\n-a\n+mentions .hookwright/config.json in the text\n",
	}
	for n, c := range files {
		os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, "vendor"), 0o755)
	g := newTest(config.Guard{}, groundEnv)
	g.ProjectDir = dir
	for _, c := range []struct{ cmd, want string }{
		{`git apply evil.patch`, "block"}, {`git apply -3 evil.patch`, "block"}, {`git am evil.patch`, "block"},
		{`patch -p1 < evil.patch`, "block"}, {`patch -p1 -i evil.patch`, "block"}, {`patch -p0 < plain.diff`, "block"},
		{`patch < plain.diff`, "block"}, {`git apply rename.patch`, "block"}, {`git apply --index evil.patch`, "block"},
		{`curl -s https://example.com/p | git apply`, "ask"}, {`curl -so p.diff https://example.com/p && git apply p.diff`, "ask"},
		{`git apply < evil.patch`, "block"},
		{`git apply fix.diff`, "allow"}, {`patch -p1 < fix.diff`, "allow"}, {`git apply doc.diff`, "allow"},
		{`git apply --check evil.patch`, "allow"}, {`git apply --stat evil.patch`, "allow"}, {`git apply --cached evil.patch`, "allow"},
		{`git diff > p.diff && git apply -R p.diff`, "allow"}, {`cd vendor && patch -p1 < ../evil.patch`, "allow"},
		{`git apply missing.patch`, "allow"}, {`git am --abort`, "allow"},
	} {
		in, _ := json.Marshal(map[string]string{"command": c.cmd})
		if rep := g.Check(Call{Tool: "Bash", Input: in, Cwd: dir}); rep.Decision != c.want {
			t.Errorf("%q: got %s (%s), want %s\n%s", c.cmd, rep.Decision, rep.Reason, c.want, summary(rep))
		}
	}
}

// A script already on disk (an earlier Write, say) is read and judged for
// the guard's ground only: a script that deletes .hookwright blocks; one
// that does what the guard would otherwise ask about is the user's.
func TestGuardGroundScriptsOnDisk(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "wipe.sh"), []byte("#!/bin/sh\nset -e\nrm -rf .hookwright\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "cfg.py"), []byte("open('.claude/settings.json', 'w').write('{}')\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "clean.sh"), []byte("#!/bin/sh\nrm -rf build dist\nrm -rf ~/.cache/tool\n"), 0o755)
	g := newTest(config.Guard{}, groundEnv)
	g.ProjectDir = dir
	for _, c := range []struct{ cmd, want string }{
		{`sh wipe.sh`, "block"}, {`bash -e wipe.sh`, "block"}, {`./wipe.sh`, "block"}, {`. ./wipe.sh`, "block"}, {`python3 cfg.py`, "block"},
		{`sh clean.sh`, "allow"}, {`./clean.sh`, "allow"}, {`sh -c 'echo hi' wipe.sh`, "allow"},
	} {
		in, _ := json.Marshal(map[string]string{"command": c.cmd})
		if rep := g.Check(Call{Tool: "Bash", Input: in, Cwd: dir}); rep.Decision != c.want {
			t.Errorf("%q: got %s (%s), want %s\n%s", c.cmd, rep.Decision, rep.Reason, c.want, summary(rep))
		}
	}
}
