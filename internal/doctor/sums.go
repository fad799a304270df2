package doctor

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/installcheck"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// SumsFile is where a release keeps the SHA-256 of every binary it ships
// or points to, relative to the plugin folder, in the format of
// sha256sum: "<hex>  <name>", names relative to bin/.
const SumsFile = "bin/SHA256SUMS"

// maxBinary caps what doctor hashes of one plugin file: a runtime is about
// 4 MB.
const maxBinary = 256 << 20

// reinstall is the fix for a plugin file that is not what the release
// shipped.
const reinstall = "reinstall the plugin: claude plugin uninstall hookwright@hookwright, then claude plugin install hookwright@hookwright (for a folder marketplace, restore its clone with git checkout -- plugin first)"

// sumLine is one "<hex>  <name>" line of SHA256SUMS (sha256sum's binary
// mode marks the name with "*"): a file in bin/, or one of the plugin's
// manifests (../hooks/<name>.json, ../.claude-plugin/plugin.json).
var sumLine = regexp.MustCompile(`^([0-9a-f]{64}) [ *]((?:\.\./(?:hooks|\.claude-plugin)/)?[A-Za-z0-9][A-Za-z0-9._-]*)$`)

// shipped reports whether the release ships name in the plugin folder of
// version: the runtimes (bin/hookwright-<version>-<os>-<arch>[.exe].gz,
// and the binary the launcher unpacks from it), the launchers and the
// manifests. hookgen-* and hwctl-*, and the runtimes under their plain
// names, are download files.
//
// A plugin of another name (prog) ships its launcher bin/<prog> and
// bin/<prog>-<version>-<os>-<arch>[.exe].gz the same way.
func shipped(prog, name, version string) bool {
	return name == prog || prog == ownProgram && (name == "hookgen" || name == "hwctl") ||
		strings.HasPrefix(name, "../") || version != "" && strings.HasPrefix(name, prog+"-"+version+"-")
}

// pinned is one file SHA256SUMS pins.
type pinned struct{ name, sum string }

// readSums parses the plugin's SHA256SUMS: every line must be a sum and a
// plain file name.
func readSums(root string) ([]pinned, error) {
	data, err := readPluginFile(root, filepath.FromSlash(SumsFile))
	if err != nil {
		return nil, err
	}
	var out []pinned
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			continue
		}
		m := sumLine.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("%s line %d is not \"<sha256>  <name>\"", SumsFile, n)
		}
		out = append(out, pinned{name: m[2], sum: m[1]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", SumsFile, err)
	}
	return out, nil
}

// sums checks every file the plugin ships against SHA256SUMS. bad names
// the files that failed, so the caller runs none of them.
func sums(root string) (r Report, bad map[string]bool) {
	sumsPath := filepath.Join(root, filepath.FromSlash(SumsFile))
	prog := programOf(root)
	reinstall := reinstallFix(prog)
	list, err := readSums(root)
	if errors.Is(err, fs.ErrNotExist) {
		if why, dev := installcheck.DevCheckout(root); dev {
			return Report{{Topic: "sums", OK: true, Detail: fmt.Sprintf("no %s: a development checkout (%s), whose binaries no release pins", sumsPath, why)}}, nil
		}
		if prog != ownProgram && sourceBuild(root) {
			return Report{{Topic: "sums", OK: true, Detail: fmt.Sprintf("no %s: a build from source (../go.mod), whose binaries no release pins (make release writes one that does)", sumsPath)}}, nil
		}
	}
	if err != nil {
		return Report{{Topic: "sums", Detail: fmt.Sprintf("cannot check the plugin's binaries: %v", err), Fix: reinstall}}, nil
	}
	var meta struct{ Version string }
	if b, err := readPluginFile(root, filepath.Join(".claude-plugin", "plugin.json")); err == nil {
		_ = json.Unmarshal(b, &meta)
	}
	bad = map[string]bool{}
	gz := map[string]bool{}
	for _, p := range list {
		if strings.HasSuffix(p.name, ".gz") {
			gz[strings.TrimSuffix(p.name, ".gz")] = true
		}
	}
	n := 0
	for _, p := range list {
		if !shipped(prog, p.name, meta.Version) {
			continue
		}
		n++
		path := filepath.Join(root, "bin", filepath.FromSlash(p.name))
		got, err := fileSum(root, p.name)
		if errors.Is(err, errMissing) && gz[p.name] {
			continue // shipped as .gz: the launcher unpacks it on first use
		}
		if err != nil {
			bad[p.name] = true
			r = append(r, Finding{Topic: "sums", Detail: fmt.Sprintf("%s: %v; %s pins SHA-256 %s", path, err, SumsFile, p.sum), Fix: reinstall})
			continue
		}
		if got != p.sum {
			bad[p.name] = true
			r = append(r, Finding{Topic: "sums", Detail: fmt.Sprintf("%s has SHA-256 %s, but %s pins %s: it is not the file the release shipped", path, got, SumsFile, p.sum), Fix: reinstall})
		}
	}
	if n == 0 {
		return Report{{Topic: "sums", Detail: fmt.Sprintf("%s pins none of the plugin's binaries", sumsPath), Fix: reinstall}}, bad
	}
	if len(r) == 0 {
		r = append(r, Finding{Topic: "sums", OK: true, Detail: fmt.Sprintf("%d files of %s match %s (binaries, launchers and manifests)", n, root, SumsFile)})
	}
	return r, bad
}

// sourceBuild reports whether the plugin folder root is the plugin/ of a
// Go module's source (hookgen new go's layout): ../go.mod is a regular
// file.
func sourceBuild(root string) bool {
	fi, err := safepath.Stat(safepath.At(filepath.Join(filepath.Dir(filepath.Clean(root)), "go.mod")))
	return err == nil && fi.Mode().IsRegular()
}

// errMissing is a pinned file that is not there.
var errMissing = errors.New("missing")

// fileSum hashes bin/name in the plugin folder: a regular file only (not a
// link, a pipe or a folder), never outside root, at most maxBinary bytes.
func fileSum(root, name string) (string, error) {
	p := safepath.Path{Root: root, Rel: filepath.Clean(filepath.Join("bin", filepath.FromSlash(name)))}
	if fi, err := os.Lstat(p.String()); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", errMissing
		}
		return "", err
	} else if fi.Mode()&fs.ModeSymlink != 0 {
		return "", errors.New("a symbolic link, not the file the release shipped")
	} else if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	f, _, err := safepath.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, maxBinary+1))
	if err != nil {
		return "", err
	}
	if n > maxBinary {
		return "", fmt.Errorf("larger than %d bytes", maxBinary)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
