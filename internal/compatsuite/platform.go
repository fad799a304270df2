package suite

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode"
)

// platform is one OS and arch a plugin's commands must run on, with what a
// shell there reports about itself.
type platform struct {
	GOOS, GOARCH     string
	ostype, hosttype string // bash's $OSTYPE, $HOSTTYPE
	uname            string // uname -sm
}

func (p platform) String() string { return p.GOOS + "/" + p.GOARCH }

// platforms are the places Claude Code runs plugin hooks (Windows through
// Git Bash).
var platforms = []platform{
	{"linux", "amd64", "linux-gnu", "x86_64", "Linux x86_64"},
	{"linux", "arm64", "linux-gnu", "aarch64", "Linux aarch64"},
	{"darwin", "amd64", "darwin23", "x86_64", "Darwin x86_64"},
	{"darwin", "arm64", "darwin23", "arm64", "Darwin arm64"},
	{"windows", "amd64", "msys", "x86_64", "MINGW64_NT-10.0-19045 x86_64"},
	{"windows", "arm64", "msys", "aarch64", "MINGW64_NT-10.0-26100 aarch64"},
}

// words splits a shell command into words, honouring single and double
// quotes and backslashes, and stops at the first control operator.
func words(cmd string) []string {
	var out []string
	var w strings.Builder
	inWord := false
	var quote rune
	flush := func() {
		if inWord {
			out = append(out, w.String())
			w.Reset()
			inWord = false
		}
	}
	rs := []rune(cmd)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' && i+1 < len(rs) {
				i++
				w.WriteRune(rs[i])
			} else {
				w.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			w.WriteRune(rs[i])
			inWord = true
		case unicode.IsSpace(r):
			flush()
		case strings.ContainsRune(";&|<>", r):
			flush()
			return out
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	flush()
	return out
}

// rootRefs are the spellings of the plugin root variable.
var rootRefs = []string{"${CLAUDE_PLUGIN_ROOT}", "$CLAUDE_PLUGIN_ROOT"}

// pluginPath returns the file a word names under the plugin root.
func pluginPath(root, word string) (string, bool) {
	for _, ref := range rootRefs {
		if strings.Contains(word, ref) {
			return filepath.Clean(strings.ReplaceAll(word, ref, root)), true
		}
	}
	return "", false
}

// checkTargets reports what a command needs from the plugin that is
// missing on some platform: the program it runs (and, for a launcher, the
// binary the launcher picks on every platform), and every other file it
// names under ${CLAUDE_PLUGIN_ROOT}.
// Programs already checked are looked up in seen (nil checks every time).
func checkTargets(root, command string, seen map[string][]string) []string {
	ws := words(command)
	var problems []string
	for i, w := range ws {
		path, ok := pluginPath(root, w)
		if !ok {
			continue
		}
		rel, _ := filepath.Rel(root, path)
		fi, err := os.Stat(path)
		if err != nil || fi.IsDir() {
			problems = append(problems, fmt.Sprintf("%s is missing", rel))
			continue
		}
		if i > 0 {
			continue // a script an interpreter reads: existing is enough
		}
		if fi.Mode()&0o111 == 0 {
			problems = append(problems, fmt.Sprintf("%s is not executable", rel))
			continue
		}
		if _, done := seen[path]; done {
			continue // reported with the first command that runs it
		}
		ps := checkProgram(path, rel)
		if seen != nil {
			seen[path] = ps
		}
		problems = append(problems, ps...)
	}
	return problems
}

// checkProgram checks the program a command runs on every platform: a
// native binary runs on one platform only; a launcher script must pick an
// existing binary of the right format for each. A release ships each
// binary gzip-compressed (bin/<name>-<os>-<arch>.gz) with its SHA-256 in
// bin/SHA256SUMS: the launcher unpacks and checks it on first use, so the
// suite checks the same in memory, writing nothing. A launcher with no
// binary at all beside it is a checkout where none was built yet: one
// problem that says what to run, which HWC-06 reports as a SKIP.
func checkProgram(path, rel string) []string {
	if p, ok := binaryPlatform(path); ok {
		return []string{fmt.Sprintf("%s is a %s binary; the other platforms cannot run it (use a launcher)", rel, p)}
	}
	siblings := launcherSiblings(path)
	if len(siblings) == 0 {
		return nil // a self-contained script
	}
	if len(siblings) == 1 && strings.HasSuffix(siblings[0], "-") {
		return []string{notBuilt(rel)}
	}
	var problems []string
	for _, pl := range platforms {
		picked, out, err := simulateLauncher(path, siblings, pl)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s on %s: %v", rel, pl, err))
		case picked == "":
			problems = append(problems, fmt.Sprintf("%s on %s picks no binary (%s)", rel, pl, firstLine(out)))
		default:
			if p := checkPicked(filepath.Dir(path), rel, picked, pl); p != "" {
				problems = append(problems, p)
			}
		}
	}
	return problems
}

// notBuiltMark starts the problem of a launcher with no binary built.
const notBuiltMark = "no runtime binary is built next to "

// notBuilt is the problem of a launcher with no binary beside it.
func notBuilt(rel string) string {
	return notBuiltMark + rel + ": run make plugin (a checkout), or check a released plugin"
}

// checkPicked checks the binary a launcher picks on pl: beside it, or
// compressed as a release ships it. "" when it is right.
func checkPicked(dir, rel, picked string, pl platform) string {
	bin := filepath.Join(dir, picked)
	if _, err := os.Stat(bin); err != nil {
		return checkCompressed(dir, rel, picked, pl)
	}
	got, ok := binaryPlatform(bin)
	switch {
	case !ok:
		return fmt.Sprintf("%s on %s picks %s, which is not a native executable", rel, pl, picked)
	case !got.equal(pl):
		return fmt.Sprintf("%s on %s picks %s, which is a %s binary", rel, pl, picked, got)
	}
	if fi, err := os.Stat(bin); err != nil || fi.Mode()&0o111 == 0 {
		return fmt.Sprintf("%s on %s picks %s, which is not executable", rel, pl, picked)
	}
	return ""
}

// maxRuntime bounds a compressed runtime the suite unpacks in memory.
const maxRuntime = 256 << 20

// checkCompressed checks picked as a release ships it: picked.gz unpacks
// to a binary for pl whose SHA-256 bin/SHA256SUMS pins for picked.
func checkCompressed(dir, rel, picked string, pl platform) string {
	gz, err := readPluginFile(dir, picked+".gz")
	if err != nil {
		return fmt.Sprintf("%s on %s picks %s, which is missing (and there is no %s.gz)", rel, pl, picked, picked)
	}
	sums, err := readPluginFile(dir, "SHA256SUMS")
	if err != nil {
		return fmt.Sprintf("%s on %s would unpack %s.gz, but there is no SHA256SUMS to check it against: the launcher runs nothing", rel, pl, picked)
	}
	want := pinned(sums, picked)
	if want == "" {
		return fmt.Sprintf("%s on %s would unpack %s.gz, but SHA256SUMS pins no SHA-256 for %s: the launcher runs nothing", rel, pl, picked, picked)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return fmt.Sprintf("%s on %s: %s.gz does not unpack: %v", rel, pl, picked, err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxRuntime+1))
	if err != nil || len(raw) > maxRuntime {
		return fmt.Sprintf("%s on %s: %s.gz does not unpack within %d MiB", rel, pl, picked, maxRuntime>>20)
	}
	if got := fmt.Sprintf("%x", sha256.Sum256(raw)); got != want {
		return fmt.Sprintf("%s on %s: %s.gz unpacks to SHA-256 %s, but SHA256SUMS pins %s: the launcher runs nothing", rel, pl, picked, got, want)
	}
	got, ok := platformOf(bytes.NewReader(raw))
	switch {
	case !ok:
		return fmt.Sprintf("%s on %s: %s.gz holds no native executable", rel, pl, picked)
	case !got.equal(pl):
		return fmt.Sprintf("%s on %s: %s.gz holds a %s binary", rel, pl, picked, got)
	}
	return ""
}

// pinned returns the SHA-256 sums pins for name ("" when none), as the
// launcher reads it: "<64 hex> <space or *><name>".
func pinned(sums []byte, name string) string {
	for _, l := range strings.Split(string(sums), "\n") {
		l = strings.TrimRight(l, "\r")
		if len(l) < 66 || l[64] != ' ' {
			continue
		}
		if f := strings.TrimPrefix(strings.TrimPrefix(l[65:], " "), "*"); f == name && isHex(l[:64]) {
			return l[:64]
		}
	}
	return ""
}

// isHex reports lowercase hex digits only.
func isHex(s string) bool {
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

// launcherSiblings returns the names of files next to a script that start
// with its name and a dash (bin/x-linux-amd64, ...): the binaries a
// launcher chooses from. A script whose siblings are missing altogether is
// recognised by naming the pattern in its text.
func launcherSiblings(path string) []string {
	data, err := readPluginFile(filepath.Dir(path), filepath.Base(path))
	if err != nil || !strings.HasPrefix(string(data), "#!") {
		return nil
	}
	base := filepath.Base(path)
	entries, _ := os.ReadDir(filepath.Dir(path))
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasPrefix(e.Name(), base+"-") && !strings.HasSuffix(e.Name(), ".unpack") {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 && strings.Contains(string(data), base+"-") {
		return []string{base + "-"} // a launcher with no binaries at all
	}
	return out
}

// simulateLauncher runs a copy of the launcher as if on pl, with stubs in
// place of the real binaries, and returns the name of the stub it ran.
func simulateLauncher(path string, siblings []string, pl platform) (picked, out string, err error) {
	dir, err := os.MkdirTemp("", "compat-launcher-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(dir)
	bin, fake := filepath.Join(dir, "bin"), filepath.Join(dir, "fake")
	for _, d := range []string{bin, fake} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", "", err
		}
	}
	data, err := readPluginFile(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return "", "", err
	}
	launcher := filepath.Join(bin, filepath.Base(path))
	if err := os.WriteFile(launcher, data, 0o755); err != nil {
		return "", "", err
	}
	for _, s := range siblings {
		real, err := os.Stat(filepath.Join(filepath.Dir(path), s))
		if err != nil || !real.Mode().IsRegular() {
			continue
		}
		if name, gz := strings.CutSuffix(s, ".gz"); gz {
			s = name // the launcher unpacks it to this name, then runs it
		} else if real.Mode()&0o111 == 0 {
			continue // a non-executable sibling cannot be picked
		}
		stub := "#!/bin/sh\necho 'compat-suite-picked:" + s + "'\n"
		if err := os.WriteFile(filepath.Join(bin, s), []byte(stub), 0o755); err != nil {
			return "", "", err
		}
	}
	uname := "#!/bin/sh\ncase \"$*\" in -s) echo '" + strings.Fields(pl.uname)[0] + "';; -m) echo '" + strings.Fields(pl.uname)[1] + "';; *) echo '" + pl.uname + "';; esac\n"
	if err := os.WriteFile(filepath.Join(fake, "uname"), []byte(uname), 0o755); err != nil {
		return "", "", err
	}
	shell := "sh"
	if d, err := exec.LookPath("dash"); err == nil {
		shell = d // bash would overwrite $OSTYPE and $HOSTTYPE with the host's
	}
	cmd := exec.Command(shell, launcher, "SessionStart")
	cmd.Env = append(os.Environ(), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"),
		"OSTYPE="+pl.ostype, "HOSTTYPE="+pl.hosttype)
	cmd.Stdin = strings.NewReader("{}")
	b, _ := cmd.CombinedOutput()
	out = strings.ReplaceAll(string(b), bin, filepath.Dir(path))
	for _, line := range strings.Split(out, "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "compat-suite-picked:"); ok {
			return name, out, nil
		}
	}
	return "", out, nil
}

// binaryPlatform reads the executable format of path: ELF is Linux,
// Mach-O is macOS, PE is Windows.
func binaryPlatform(path string) (platform, bool) {
	f, err := os.Open(path)
	if err != nil {
		return platform{}, false
	}
	defer f.Close()
	return platformOf(f)
}

// platformOf reads the executable format of r.
func platformOf(r io.ReaderAt) (platform, bool) {
	if f, err := elf.NewFile(r); err == nil {
		defer f.Close()
		switch f.Machine {
		case elf.EM_X86_64:
			return platform{GOOS: "linux", GOARCH: "amd64"}, true
		case elf.EM_AARCH64:
			return platform{GOOS: "linux", GOARCH: "arm64"}, true
		}
		return platform{GOOS: "linux", GOARCH: f.Machine.String()}, true
	}
	if f, err := macho.NewFile(r); err == nil {
		defer f.Close()
		switch f.Cpu {
		case macho.CpuAmd64:
			return platform{GOOS: "darwin", GOARCH: "amd64"}, true
		case macho.CpuArm64:
			return platform{GOOS: "darwin", GOARCH: "arm64"}, true
		}
		return platform{GOOS: "darwin", GOARCH: f.Cpu.String()}, true
	}
	if f, err := pe.NewFile(r); err == nil {
		defer f.Close()
		switch f.Machine {
		case pe.IMAGE_FILE_MACHINE_AMD64:
			return platform{GOOS: "windows", GOARCH: "amd64"}, true
		case pe.IMAGE_FILE_MACHINE_ARM64:
			return platform{GOOS: "windows", GOARCH: "arm64"}, true
		}
		return platform{GOOS: "windows", GOARCH: fmt.Sprint(f.Machine)}, true
	}
	return platform{}, false
}

// equal compares the OS and arch only.
func (p platform) equal(o platform) bool { return p.GOOS == o.GOOS && p.GOARCH == o.GOARCH }
