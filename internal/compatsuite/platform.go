package suite

import (
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
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
// existing binary of the right format for each.
func checkProgram(path, rel string) []string {
	if p, ok := binaryPlatform(path); ok {
		return []string{fmt.Sprintf("%s is a %s binary; the other platforms cannot run it (use a launcher)", rel, p)}
	}
	siblings := launcherSiblings(path)
	if len(siblings) == 0 {
		return nil // a self-contained script
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
			bin := filepath.Join(filepath.Dir(path), picked)
			got, ok := binaryPlatform(bin)
			if !ok {
				problems = append(problems, fmt.Sprintf("%s on %s picks %s, which is not a native executable", rel, pl, picked))
			} else if !got.equal(pl) {
				problems = append(problems, fmt.Sprintf("%s on %s picks %s, which is a %s binary", rel, pl, picked, got))
			} else if fi, err := os.Stat(bin); err != nil || fi.Mode()&0o111 == 0 {
				problems = append(problems, fmt.Sprintf("%s on %s picks %s, which is not executable", rel, pl, picked))
			}
		}
	}
	return problems
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
		if !e.IsDir() && strings.HasPrefix(e.Name(), base+"-") {
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
		if real, err := os.Stat(filepath.Join(filepath.Dir(path), s)); err != nil || real.Mode()&0o111 == 0 {
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
	if f, err := elf.Open(path); err == nil {
		defer f.Close()
		switch f.Machine {
		case elf.EM_X86_64:
			return platform{GOOS: "linux", GOARCH: "amd64"}, true
		case elf.EM_AARCH64:
			return platform{GOOS: "linux", GOARCH: "arm64"}, true
		}
		return platform{GOOS: "linux", GOARCH: f.Machine.String()}, true
	}
	if f, err := macho.Open(path); err == nil {
		defer f.Close()
		switch f.Cpu {
		case macho.CpuAmd64:
			return platform{GOOS: "darwin", GOARCH: "amd64"}, true
		case macho.CpuArm64:
			return platform{GOOS: "darwin", GOARCH: "arm64"}, true
		}
		return platform{GOOS: "darwin", GOARCH: f.Cpu.String()}, true
	}
	if f, err := pe.Open(path); err == nil {
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
