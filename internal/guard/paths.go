package guard

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// env is where a check resolves paths: the home folder, the project, the
// current folder and the temp folders, all absolute and clean ("" when
// unknown).
type env struct {
	home, project, cwd string
	// plugin, pluginData and xdg are $CLAUDE_PLUGIN_ROOT,
	// $CLAUDE_PLUGIN_DATA and $XDG_CONFIG_HOME ("" when unset).
	plugin, pluginData, xdg string
	temps                   []string
	secrets                 []string // the config's extra secret globs
	// ground is the guard's own ground (groundRoots).
	ground []string
	// vars are the literal NAME=value assignments seen so far in the
	// command line (x=/; rm -rf $x).
	vars map[string]string
	// links and stats count the symlinks resolved and the Lstat calls
	// made in this check (both bounded).
	links, stats int
	// ifsSet: the line assigned IFS; ifs is its value when literal
	// (ifsKnown). positional: the line set the positional parameters
	// (set -- …). tainted are the variables whose value a transform or
	// decoder computed (c=$(echo … | tr …)).
	ifsSet, ifsKnown, positional bool
	ifs                          string
	tainted                      map[string]bool
	// arrays are the arrays the line assigned (x=(rm -rf /)): their
	// words, each single-quoted.
	arrays map[string]string
	// arraysDropped: an array was too large to keep.
	arraysDropped bool
	// aliases are the aliases the line defined (alias g=git).
	aliases map[string]string
}

// arrayCommand returns the command line that runs when the program word
// expands an array the line assigned ("${x[@]}" -rf: the array's words,
// then the rest). $x, ${x} and ${x[0]} are read as the whole array too,
// though they expand to its first word: the stricter reading.
func (e *env) arrayCommand(args []shell.Word) (string, bool) {
	if len(args) == 0 || len(e.arrays) == 0 {
		return "", false
	}
	t := args[0].Text
	name := strings.TrimPrefix(t, "$")
	if strings.HasPrefix(name, "{") && strings.HasSuffix(name, "}") {
		name = name[1 : len(name)-1]
		for _, sub := range []string{"[@]", "[*]", "[0]"} {
			name = strings.TrimSuffix(name, sub)
		}
	}
	words, ok := e.arrays[name]
	if !ok || name == t {
		return "", false
	}
	var b strings.Builder
	b.WriteString(words)
	for _, a := range args[1:] {
		b.WriteString(" " + shell.Quote(a.Text))
	}
	return b.String(), true
}

// taintedUse reports whether a word uses a tainted variable.
func (e *env) taintedUse(w string) bool {
	for name := range e.tainted {
		if strings.Contains(w, "${"+name) || replaceVar(w, "$"+name, "\x00") != w {
			return true
		}
	}
	return false
}

func newEnv(getenv func(string) string, project, cwd string, secrets []string) env {
	e := env{secrets: secrets}
	clean := func(p string) string {
		if p == "" || !filepath.IsAbs(p) {
			return ""
		}
		return filepath.ToSlash(filepath.Clean(p))
	}
	e.home = clean(getenv("HOME"))
	e.project = clean(project)
	e.cwd = clean(cwd)
	if e.cwd == "" {
		e.cwd = e.project
	}
	e.plugin, e.pluginData, e.xdg = clean(getenv("CLAUDE_PLUGIN_ROOT")), clean(getenv("CLAUDE_PLUGIN_DATA")), clean(getenv("XDG_CONFIG_HOME"))
	e.ground = groundRoots(getenv, e.home, e.project)
	for _, t := range []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", "/dev/shm", getenv("TMPDIR"), os.TempDir()} {
		if t = clean(t); t != "" && t != "/" && t != e.home && !contains(e.temps, t) {
			e.temps = append(e.temps, t)
		}
	}
	return e
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// under reports whether p is dir or below it.
func under(p, dir string) bool {
	if dir == "" || p == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

// expand resolves a word to an absolute, clean, slash-separated path
// relative to cwd: ~, ~/…, $HOME, ${HOME}, $PWD, $TMPDIR and
// $CLAUDE_PROJECT_DIR are expanded. ok is false when the path depends on
// something unknown (another variable, an unknown current folder).
// substitute replaces the variables of word that hold known literal
// values (the command's own assignments); ok is false when an expansion is
// left whose value is unknown.
func (e *env) substitute(word string) (string, bool) {
	w := knownOutputs(word)
	for name, val := range e.vars {
		w = strings.ReplaceAll(w, "${"+name+"}", val)
		w = replaceVar(w, "$"+name, val)
	}
	if strings.Contains(w, "$") || strings.Contains(w, "`") {
		return "", false
	}
	return w, true
}

// knownOutputs replaces each command substitution in w, $(…) or `…`,
// whose command is one echo or printf (shell.Output) by what it prints,
// trailing new lines dropped as the shell drops them: $(printf
// '\x72\x6d') is rm. Any other substitution stays as written.
func knownOutputs(w string) string {
	for start := 0; start < len(w); {
		i := strings.IndexAny(w[start:], "$`")
		if i < 0 {
			break
		}
		i += start
		var inner string
		end := -1
		switch {
		case w[i] == '`':
			if j := strings.IndexByte(w[i+1:], '`'); j >= 0 {
				inner, end = w[i+1:i+1+j], i+2+j
			}
		case strings.HasPrefix(w[i:], "$(") && !strings.HasPrefix(w[i:], "$(("):
			if j := closingParen(w, i+2); j >= 0 {
				inner, end = w[i+2:j], j+1
			}
		}
		if end < 0 {
			start = i + 1
			continue
		}
		out, ok := "", false
		if cmds, err := shell.Parse(inner); err == nil && len(cmds) == 1 && cmds[0].PipeFrom < 0 {
			out, ok = shell.Output(cmds[0])
			if !ok {
				// $(which python3), $(command -v node): the program's name
				// stands for the path the shell finds
				switch a := cmds[0].Args; {
				case len(a) == 2 && (a[0].Text == "which" || a[0].Text == "whence"):
					out, ok = a[1].Text, true
				case len(a) == 3 && (a[0].Text == "command" || a[0].Text == "type") && (a[1].Text == "-v" || a[1].Text == "-P" || a[1].Text == "-p"):
					out, ok = a[2].Text, true
				}
			}
		}
		if !ok || strings.ContainsAny(out, "$`") {
			start = end
			continue
		}
		out = strings.TrimRight(out, "\n")
		w = w[:i] + out + w[end:]
		start = i + len(out)
	}
	return w
}

// closingParen returns the index of the ) that closes the $( whose body
// starts at from, skipping quoted text and nested parentheses, or -1.
func closingParen(w string, from int) int {
	depth := 1
	var quote byte
	for k := from; k < len(w); k++ {
		c := w[k]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				k++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			k++
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

func (e *env) expand(word, cwd string) (string, bool) {
	w := word
	switch {
	case w == "~" || strings.HasPrefix(w, "~/"):
		if e.home == "" {
			return "", false
		}
		w = e.home + w[1:]
	case w == "~+" || strings.HasPrefix(w, "~+/"):
		// bash's and zsh's current folder
		if cwd == "" {
			return "", false
		}
		w = cwd + w[2:]
	case w == "~-" || strings.HasPrefix(w, "~-/"):
		// the previous folder ($OLDPWD), which the guard does not know
		return "", false
	case strings.HasPrefix(w, "~"):
		// ~user: another user's home folder
		name, rest, _ := strings.Cut(w[1:], "/")
		w = "/home/" + name + "/" + rest
	}
	if strings.Contains(w, "$") {
		for name, val := range e.vars {
			w = strings.ReplaceAll(w, "${"+name+"}", val)
			w = replaceVar(w, "$"+name, val)
		}
		for _, v := range []struct{ name, val string }{
			{"HOME", e.home}, {"PWD", cwd}, {"CLAUDE_PROJECT_DIR", e.project}, {"TMPDIR", firstOr(e.temps, "/tmp")},
			{"CLAUDE_PLUGIN_ROOT", e.plugin}, {"CLAUDE_PLUGIN_DATA", e.pluginData}, {"XDG_CONFIG_HOME", e.xdg},
		} {
			if v.val == "" {
				continue
			}
			w = strings.ReplaceAll(w, "${"+v.name+"}", v.val)
			w = replaceVar(w, "$"+v.name, v.val)
		}
		w = strings.ReplaceAll(w, "$(pwd)", cwd)
		w = strings.ReplaceAll(w, "`pwd`", cwd)
		w = strings.ReplaceAll(w, "$(git rev-parse --show-toplevel)", e.project)
		if strings.Contains(w, "$") || strings.Contains(w, "`") {
			return "", false
		}
	}
	if !strings.HasPrefix(w, "/") {
		if cwd == "" {
			return "", false
		}
		w = cwd + "/" + w
	}
	return path.Clean(w), true
}

// replaceVar replaces $NAME where it is not followed by a name character.
func replaceVar(s, v, val string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, v)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(v)
		if end < len(s) && isNameByte(s[end]) {
			b.WriteString(s[:end])
			s = s[end:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(val)
		s = s[end:]
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func firstOr(list []string, def string) string {
	if len(list) > 0 {
		return list[0]
	}
	return def
}

// maxLinks bounds the symlinks one check resolves, and maxParts the path
// elements one resolution walks.
const (
	maxLinks = 64
	maxParts = 256
	maxStats = 2048
)

// real resolves the symlinks in p (absolute, clean) as far as they exist,
// with Lstat and Readlink only: nothing is opened, so a FIFO or a device
// cannot hang the guard. A missing tail is kept as written.
func (e *env) real(p string) string {
	if !strings.HasPrefix(p, "/") {
		return p
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := "/"
	steps := 0
	for i := 0; i < len(parts); i++ {
		steps++
		if steps > maxParts {
			return p
		}
		part := parts[i]
		if part == "" || part == "." {
			continue
		}
		if part == ".." {
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, part)
		e.stats++
		if e.stats > maxStats {
			return path.Join(append([]string{next}, parts[i+1:]...)...)
		}
		fi, err := os.Lstat(filepath.FromSlash(next))
		if err != nil {
			// missing (or unreadable): the rest stays as written
			return path.Join(append([]string{next}, parts[i+1:]...)...)
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		e.links++
		if e.links > maxLinks {
			return path.Join(append([]string{next}, parts[i+1:]...)...)
		}
		target, err := os.Readlink(filepath.FromSlash(next))
		if err != nil {
			return path.Join(append([]string{next}, parts[i+1:]...)...)
		}
		target = filepath.ToSlash(target)
		rest := append(strings.Split(strings.Trim(target, "/"), "/"), parts[i+1:]...)
		if strings.HasPrefix(target, "/") {
			cur = "/"
		}
		parts = rest
		i = -1
	}
	return cur
}

// Path classes.
const (
	classSecret       = "secret"
	classSecretDir    = "secret folder"
	classPersistence  = "persistence"
	classGitHooks     = "git hooks or config"
	classGitInternals = "git internals"
)

// secretDirs are folders (below the home folder) that hold credentials:
// everything in them is a secret, except the names in secretDirKeep.
var secretDirs = []string{".ssh", ".aws", ".config/gcloud", ".azure", ".gnupg", ".kube", ".docker", ".password-store", ".local/share/keyrings", "Library/Keychains",
	".config/rclone", ".config/doctl", ".fly", ".oci", ".pulumi", ".config/stripe", ".config/netlify", ".ngrok2", ".config/ngrok",
	".wrangler/config", ".config/glab-cli", ".mc", ".config/heroku", ".config/configstore", ".local/share/com.vercel.cli",
	".config/op", ".config/sops", ".vault.d", ".snowsql", ".tsh", ".bluemix", ".config/hcloud", ".config/linode-cli", ".config/scw"}

// secretDirKeep are files in a secret folder that are not secrets:
// public keys, host lists, trust databases.
func secretDirKeep(dir, base string) bool {
	switch {
	case strings.HasSuffix(base, ".pub"):
		return true
	case dir == ".ssh":
		return base == "known_hosts" || base == "known_hosts.old" || base == "config" || strings.HasPrefix(base, "authorized_keys") || base == "environment" || base == "rc"
	case dir == ".gnupg":
		return base == "pubring.kbx" || base == "pubring.gpg" || base == "trustdb.gpg" || base == "gpg.conf" || base == "gpg-agent.conf" || base == "dirmngr.conf"
	case dir == ".docker":
		return base != "config.json"
	case dir == ".kube":
		return base != "config" && !strings.HasSuffix(base, ".yaml") && !strings.HasSuffix(base, ".yml")
	case dir == ".aws":
		return base == "config"
	case dir == ".config/configstore":
		// Node tools' settings: only firebase's and a few others hold tokens
		return !strings.Contains(base, "firebase") && !strings.Contains(base, "netlify") && !strings.Contains(base, "vercel")
	}
	return false
}

// secretNames are base names that are secrets anywhere.
func isSecretName(s string) bool {
	switch s {
	case ".netrc", "_netrc", ".git-credentials", ".npmrc", ".pypirc", ".vault-token",
		"application_default_credentials.json", ".htpasswd", "credentials.tfrc.json", ".pgpass", ".my.cnf",
		"secring.gpg", ".envrc", ".s3cfg", "rclone.conf", ".boto", ".databrickscfg", ".terraformrc", "terraform.rc", ".dockercfg",
		"settings-security.xml", ".git-credentials.bak", ".cloudflared", ".heroku-netrc", "credentials.db", "access_tokens.db",
		".npmrc.bak", ".yarnrc.yml.bak", "service-account.json", "serviceAccountKey.json":
		return true
	}
	return false
}

// secretHomePaths are files below the home folder that are secrets.
var secretHomePaths = []string{
	".claude/.credentials.json", ".config/gh/hosts.yml", ".config/git/credentials", ".cargo/credentials",
	".cargo/credentials.toml", ".gem/credentials", ".terraform.d/credentials.tfrc.json", ".config/hub",
	".composer/auth.json", ".config/composer/auth.json", ".m2/settings.xml", ".gradle/gradle.properties", ".config/pip/pip.conf",
	".pip/pip.conf", ".config/gh/config.yml", ".dbt/profiles.yml", ".config/containers/auth.json", ".kaggle/kaggle.json",
	".config/openai/auth.json", ".codex/auth.json", ".config/github-copilot/hosts.json", ".config/github-copilot/apps.json",
	".twilio-cli/config.json", ".sentryclirc", ".config/helm/repositories.yaml", ".terraform.d/credentials.tfrc.json",
}

// secretAbsPaths are system files that are secrets.
var secretAbsPaths = []string{"/etc/shadow", "/etc/gshadow", "/etc/master.passwd", "/etc/sudoers"}

// isEnvFile reports whether base is a .env file that holds secrets: .env
// and .env.*, but not templates.
func isEnvFile(base string) bool {
	if base != ".env" && !strings.HasPrefix(base, ".env.") {
		return false
	}
	for _, t := range []string{".example", ".sample", ".template", ".dist", ".defaults", ".schema"} {
		if strings.HasSuffix(base, t) {
			return false
		}
	}
	return true
}

// isKeyFile reports whether base looks like private key material.
func isKeyFile(base string) bool {
	lower := strings.ToLower(base)
	if strings.HasSuffix(lower, ".pub") || strings.Contains(lower, ".pub.") {
		return false
	}
	for _, k := range []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_xmss"} {
		if strings.HasPrefix(lower, k) {
			return true
		}
	}
	switch path.Ext(lower) {
	case ".key", ".p12", ".pfx", ".ppk", ".jks", ".keystore":
		return !strings.Contains(lower, "public")
	case ".pem":
		for _, not := range []string{"cert", "chain", "public", "pub", "ca.", "ca-", "bundle"} {
			if strings.Contains(lower, not) {
				return false
			}
		}
		return true
	}
	return false
}

// classify says what p (absolute, clean) is: a secret, a secret folder, a
// persistence file, git hooks or config, other git internals, or "".
func (e *env) classify(p string) string {
	if p == "" {
		return ""
	}
	base := path.Base(p)
	if e.home != "" && under(p, e.home) && p != e.home {
		rel := strings.TrimPrefix(p, e.home+"/")
		for _, d := range secretDirs {
			if rel == d {
				return classSecretDir
			}
			if strings.HasPrefix(rel, d+"/") {
				if secretDirKeep(d, base) {
					break
				}
				return classSecret
			}
		}
		for _, s := range secretHomePaths {
			if rel == s {
				return classSecret
			}
		}
		if persistentHome(rel) {
			return classPersistence
		}
	}
	if isSecretName(base) || isEnvFile(base) || isKeyFile(base) || contains(secretAbsPaths, p) {
		return classSecret
	}
	if strings.HasPrefix(p, "/proc/") && base == "environ" {
		return classSecret
	}
	// Secrets a container runtime mounts: Kubernetes service account
	// tokens and Docker or Compose secrets.
	for _, d := range []string{"/var/run/secrets", "/run/secrets"} {
		if p == d {
			return classSecretDir
		}
		if strings.HasPrefix(p, d+"/") {
			return classSecret
		}
	}
	if strings.HasSuffix(p, "/.kube/config") || strings.HasSuffix(p, "/.aws/credentials") || strings.HasSuffix(p, "/.docker/config.json") {
		return classSecret
	}
	if c := e.extraSecret(p); c != "" {
		return c
	}
	if e.isGround(p, false) {
		return classGround
	}
	if base == ".mcp.json" {
		// the MCP servers Claude Code starts: commands that run later
		return classPersistence
	}
	if persistentSystem(p) {
		return classPersistence
	}
	if i := gitDir(p); i >= 0 {
		rest := p[i+len("/.git"):]
		switch {
		case rest == "/hooks" || strings.HasPrefix(rest, "/hooks/") || rest == "/config":
			return classGitHooks
		case rest == "/info/exclude":
			// ignore rules: they run nothing
			return ""
		case rest != "" && rest != "/":
			return classGitInternals
		}
	}
	return ""
}

// gitDir returns the index of the first "/.git" element in p, or -1.
func gitDir(p string) int {
	for off := 0; ; {
		i := strings.Index(p[off:], "/.git")
		if i < 0 {
			return -1
		}
		end := off + i + len("/.git")
		if end == len(p) || p[end] == '/' {
			return off + i
		}
		off = end
	}
}

// persistentHome reports whether rel (below the home folder) runs code or
// grants access later.
func persistentHome(rel string) bool {
	switch rel {
	case ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv",
		".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".xprofile",
		".xinitrc", ".xsession", ".inputrc", ".config/fish/config.fish", ".ssh/authorized_keys",
		".ssh/authorized_keys2", ".ssh/config", ".ssh/rc", ".ssh/environment", ".gitconfig", ".config/git/config",
		".pam_environment", ".bash_aliases", ".vimrc", ".gvimrc", ".exrc", ".tmux.conf", ".screenrc", ".emacs", ".emacs.el",
		".nanorc", ".wgetrc", ".curlrc", ".Rprofile", ".pythonrc", ".pythonrc.py", ".irbrc", ".pryrc", ".psqlrc", ".sqliterc",
		".lesskey", ".yarnrc", ".gemrc", ".mailcap", ".xbindkeysrc", ".config/starship.toml", ".direnvrc":
		return true
	}
	for _, d := range []string{".local/bin/", "bin/", ".vim/", ".config/nvim/", ".config/tmux/", ".emacs.d/", ".config/direnv/",
		".config/git/hooks/", ".git-templates/", ".ipython/profile_default/startup/", ".config/htop/", ".config/kitty/", ".config/alacritty/",
		".config/zsh/", ".config/bash/", ".config/powershell/", ".config/pip/", ".local/share/applications/", ".config/Code/User/", ".cargo/bin/", "go/bin/"} {
		if strings.HasPrefix(rel, d) {
			return true
		}
	}
	for _, d := range []string{".config/fish/conf.d/", ".config/autostart/", ".config/systemd/user/", "Library/LaunchAgents/", ".config/environment.d/", ".oh-my-zsh/custom/", ".zshrc.d/", ".bashrc.d/"} {
		if strings.HasPrefix(rel, d) || len(rel) == len(d)-1 && strings.HasPrefix(d, rel) {
			return true
		}
	}
	return false
}

// persistentSystem reports whether p is a system file that runs code or
// grants access later.
func persistentSystem(p string) bool {
	switch p {
	case "/etc/profile", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zshrc", "/etc/zsh/zshrc", "/etc/zsh/zshenv",
		"/etc/environment", "/etc/crontab", "/etc/sudoers", "/etc/rc.local", "/etc/ld.so.preload", "/etc/passwd":
		return true
	}
	for _, d := range []string{"/etc/profile.d/", "/etc/cron.", "/etc/cron.d/", "/var/spool/cron/", "/etc/systemd/system/", "/lib/systemd/system/",
		"/Library/LaunchAgents/", "/Library/LaunchDaemons/", "/etc/sudoers.d/", "/etc/init.d/", "/etc/xdg/autostart/", "/var/at/tabs/"} {
		if strings.HasPrefix(p, d) || len(p) == len(d)-1 && strings.HasPrefix(d, p) {
			return true
		}
	}
	return false
}

// extraSecret matches p against the config's secret globs.
func (e *env) extraSecret(p string) string {
	for _, g := range e.secrets {
		g = strings.TrimSpace(filepath.ToSlash(g))
		dir := strings.HasSuffix(g, "/")
		g = strings.TrimSuffix(g, "/")
		switch {
		case strings.HasPrefix(g, "~/") && e.home != "":
			g = e.home + g[1:]
		case strings.HasPrefix(g, "$HOME/") && e.home != "":
			g = e.home + g[5:]
		case !strings.HasPrefix(g, "/") && e.project != "" && strings.HasPrefix(g, "./"):
			g = e.project + g[1:]
		}
		if g == "" {
			continue
		}
		if strings.HasPrefix(g, "/") {
			if matchPrefix(g, p, dir) {
				if dir && globCount(g) == globCount(p) && ok(path.Match(g, p)) {
					return classSecretDir
				}
				return classSecret
			}
			continue
		}
		// relative glob: the path's last elements
		n := strings.Count(g, "/") + 1
		segs := strings.Split(p, "/")
		for start := 1; start+n <= len(segs); start++ {
			tail := strings.Join(segs[start:start+n], "/")
			if ok(path.Match(g, tail)) {
				if dir && start+n == len(segs) {
					return classSecretDir
				}
				if dir || start+n == len(segs) {
					return classSecret
				}
			}
		}
	}
	return ""
}

func ok(m bool, err error) bool { return m && err == nil }

func globCount(s string) int { return strings.Count(s, "/") }

// matchPrefix reports whether the absolute glob g matches p, or (for a
// folder glob) one of p's parents.
func matchPrefix(g, p string, dir bool) bool {
	if ok(path.Match(g, p)) {
		return true
	}
	if !dir {
		return false
	}
	for q := path.Dir(p); q != "/" && q != "."; q = path.Dir(q) {
		if ok(path.Match(g, q)) {
			return true
		}
	}
	return false
}
