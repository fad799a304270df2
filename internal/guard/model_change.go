package guard

import (
	"fmt"
	"path"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// optValue returns the value of option opt in args ("--x v" or
// "--x=v"), and whether it is there.
func optValue(args []shell.Word, opts ...string) (string, bool) {
	for k, a := range args {
		t := a.Text
		for _, o := range opts {
			if t == o {
				return wordAt(args, k+1), true
			}
			if strings.HasPrefix(t, o+"=") {
				return t[len(o)+1:], true
			}
		}
	}
	return "", false
}

// shortCluster reports whether a short-option cluster (-avzn) holds
// letter.
func shortCluster(t string, letter byte) bool {
	return len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.IndexByte(t[1:], letter) >= 0
}

// lineDryRun reports whether the words make the command a dry run;
// short says which single letter means it for this program (rsync -n).
func lineDryRun(args []shell.Word, short byte) bool {
	for _, a := range args {
		t := a.Text
		if dryRunWord(t) || t == "--list-only" || short != 0 && shortCluster(t, short) && !strings.Contains(t, "=") {
			return true
		}
	}
	return false
}

// firstPositional returns the first word that is not an option.
func firstPositional(args []shell.Word) (string, []shell.Word) {
	for k, a := range args {
		if !strings.HasPrefix(a.Text, "-") {
			return strings.ToLower(a.Text), args[k+1:]
		}
	}
	return "", nil
}

// harmSync is the model's part for copies that delete: rsync --delete to
// another host, rclone sync or move, gsutil rsync -d, azcopy sync
// --delete-destination, mc mirror --remove, s5cmd sync --delete, lftp
// mirror --delete, robocopy /MIR, and any sync or mirror whose option
// says it deletes.
func (pc *packCtx) harmSync(out map[string]string) {
	args := pc.args
	name := pc.name
	switch name {
	case "rsync":
		if lineDryRun(args, 'n') {
			return
		}
		deletes, sources := "", false
		for _, a := range args {
			t := a.Text
			if t == "--del" || strings.HasPrefix(t, "--delete") {
				deletes = t
			}
			if t == "--remove-source-files" {
				deletes, sources = t, true
			}
		}
		if deletes == "" {
			return
		}
		remote := false
		for _, a := range args {
			if !strings.HasPrefix(a.Text, "-") && remotePath(a.Text) {
				remote = true
			}
		}
		if remote || sources {
			out["sync"] = fmt.Sprintf("`rsync %s` deletes files on another host, or the source's, that the copy does not keep", deletes)
		}
		return
	case "rclone":
		if lineDryRun(args, 'n') {
			return
		}
		sub, _ := firstPositional(args)
		switch sub {
		case "sync", "bisync", "move", "moveto", "dedupe":
			out["sync"] = fmt.Sprintf("`rclone %s` deletes files: at the destination what the source lacks, or the source once copied", sub)
		}
		return
	case "robocopy":
		for _, a := range args {
			if l := strings.ToLower(a.Text); l == "/mir" || l == "/purge" || l == "/mov" || l == "/move" {
				out["sync"] = "`robocopy " + a.Text + "` deletes files the copy does not keep"
				return
			}
		}
		return
	case "lftp":
		for k, a := range args {
			if (a.Text == "-e" || a.Text == "-c") && k+1 < len(args) {
				s := args[k+1].Text
				if strings.Contains(s, "mirror") && (strings.Contains(s, "--delete") || strings.Contains(s, " -e ") || strings.Contains(s, " -Re ") || strings.Contains(s, " -eR ")) {
					out["sync"] = "`lftp mirror --delete` deletes files on the server that the source lacks"
					return
				}
			}
		}
		return
	}
	// any program's sync or mirror subcommand (gsutil rsync -d, azcopy
	// sync --delete-destination, mc mirror --remove, s5cmd sync --delete,
	// gcloud storage rsync --delete-unmatched-destination-objects)
	syncing := false
	for _, a := range args {
		l := strings.ToLower(a.Text)
		if l == "sync" || l == "rsync" || l == "mirror" || l == "bisync" {
			syncing = true
		}
	}
	if !syncing || lineDryRun(args, 0) || name == "aws" || name == "git" {
		return
	}
	for _, a := range args {
		t := a.Text
		if len(t) < 2 || t[0] != '-' {
			continue
		}
		f, v, hasV := strings.Cut(strings.TrimLeft(t, "-"), "=")
		if hasV && (v == "false" || v == "0" || v == "no") {
			continue
		}
		var buf [16]string
		toks := wordTokens(f, buf[:0])
		if len(toks) > 0 && (toks[0] == "delete" || toks[0] == "remove" || toks[0] == "purge") || name == "gsutil" && (t == "-d" || shortCluster(t, 'd')) {
			out["sync"] = fmt.Sprintf("`%s … %s` makes the copy delete what the source lacks", name, t)
			return
		}
	}
}

// remoteSystemPath reports whether p, a path on another host or in a
// container, is one of its system folders: /, /etc, /usr, /bin, /sbin,
// /lib*, /boot, /root, /sys, /proc, /dev, /var (but /var/tmp and
// /var/www).
func remoteSystemPath(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	p = path.Clean(p)
	if p == "/" {
		return true
	}
	if under(p, "/var/tmp") || under(p, "/var/www") {
		return false
	}
	for _, d := range []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/root", "/sys", "/proc", "/dev", "/var", "/System", "/Library"} {
		if under(p, d) {
			return true
		}
	}
	return false
}

// remoteDest returns the path part of a copy's destination on another
// host or in a container (host:/etc/x → /etc/x), or "".
func remoteDest(name, dest string) string {
	if strings.HasPrefix(dest, "rsync://") {
		rest := strings.TrimPrefix(dest, "rsync://")
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[i:]
			// rsync://host/module/path: the module is not a folder
			if j := strings.IndexByte(rest[1:], '/'); j >= 0 {
				return rest[j+1:]
			}
		}
		return ""
	}
	colon := strings.IndexByte(dest, ':')
	if colon <= 0 || strings.Contains(dest[:colon], "/") && name != "kubectl" && name != "oc" {
		return ""
	}
	return dest[colon+1:]
}

// harmRemote is the model's remote part for copies: scp, rsync, docker cp
// or kubectl cp onto a system folder of another host or container.
func (pc *packCtx) harmRemote(out map[string]string) {
	name := pc.name
	args := pc.args
	var pos []string
	switch name {
	case "scp", "rsync":
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			switch {
			case (t == "-i" || t == "-F" || t == "-o" || t == "-P" || t == "-S" || t == "-J" || t == "-l" || t == "-c") && name == "scp",
				(t == "-e" || t == "--rsh" || t == "--exclude" || t == "--include" || t == "--filter" || t == "-f" || t == "--port") && name == "rsync":
				k++
			case strings.HasPrefix(t, "-"):
			default:
				pos = append(pos, t)
			}
		}
		if lineDryRun(args, 'n') && name == "rsync" {
			return
		}
	case "docker", "podman", "nerdctl", "kubectl", "oc":
		sub, rest := firstPositional(args)
		if sub == "container" && name != "kubectl" {
			sub, rest = firstPositional(rest)
		}
		if sub != "cp" {
			return
		}
		for k := 0; k < len(rest); k++ {
			t := rest[k].Text
			if (t == "-n" || t == "--namespace" || t == "-c" || t == "--container") && (name == "kubectl" || name == "oc") {
				k++
				continue
			}
			if !strings.HasPrefix(t, "-") {
				pos = append(pos, t)
			}
		}
	default:
		return
	}
	if len(pos) < 2 {
		return
	}
	dest := pos[len(pos)-1]
	if p := remoteDest(name, dest); p != "" && remoteSystemPath(p) {
		out["remote"] = fmt.Sprintf("`%s … %s` writes into %s, a system folder of another host or container, where it replaces what the system runs", name, dest, p)
	}
}

// remoteVia returns the host or cluster a command runs on when it runs
// elsewhere (ssh, pssh, salt, ansible, kubectl exec), or "".
func remoteVia(via string) string {
	for _, p := range []string{"stdin of ssh ", "ssh ", "pssh", "parallel-ssh", "pdsh", "clush", "salt", "ansible", "kubectl exec", "oc exec"} {
		if i := strings.Index(via, p); i >= 0 {
			rest := via[i:]
			if j := strings.Index(rest, " → "); j >= 0 {
				rest = rest[:j]
			}
			return rest
		}
	}
	return ""
}

// exposureWords are values that open data to anyone.
func publicValue(v string) bool {
	switch strings.ToLower(v) {
	case "public-read", "public-read-write", "authenticated-read", "publicread", "publicreadwrite", "blob", "container", "public":
		return true
	}
	return false
}

// harmExposure is the model's exposure part: public ACLs and policies,
// repository visibility made public, 0.0.0.0/0 opened, admin granted,
// branch protection changed or bypassed, deletion protection switched
// off.
func (pc *packCtx) harmExposure(out map[string]string) {
	name, args := pc.name, pc.args
	if localProgram(name) && name != "npm" && name != "pnpm" && name != "yarn" || dataProgram(name) || shell.IsShell(name) {
		return
	}
	say := func(format string, a ...any) { out["exposure"] = fmt.Sprintf(format, a...) }
	if name == "npm" || name == "pnpm" || name == "yarn" {
		sub, rest := firstPositional(args)
		if sub == "access" {
			if v, _ := firstPositional(rest); v == "public" || v == "grant" || strings.Contains(joinTexts(rest), "status=public") {
				say("`%s access %s` opens a package to more people", name, v)
			}
		}
		return
	}
	for k, a := range args {
		t := a.Text
		if !strings.HasPrefix(t, "-") && !strings.Contains(t, "llUsers") && !strings.Contains(t, "llAuthenticatedUsers") &&
			!strings.Contains(t, "/0") && !strings.Contains(t, "=false") && !strings.Contains(t, "dministratorAccess") {
			continue // no option and none of the words that expose: most words of most commands
		}
		l := strings.ToLower(t)
		next := strings.ToLower(wordAt(args, k+1))
		switch {
		case (l == "--acl" || l == "-a" && name == "gsutil" || l == "--canned-acl" || l == "--predefined-acl") && publicValue(next),
			strings.HasPrefix(l, "--acl=") && publicValue(l[6:]), strings.HasPrefix(l, "--predefined-acl=") && publicValue(l[17:]):
			say("`%s … %s %s` makes the data readable by anyone", name, t, wordAt(args, k+1))
		case strings.Contains(t, "AllUsers") || strings.Contains(t, "allUsers") || strings.Contains(t, "allAuthenticatedUsers") || strings.Contains(t, "AllAuthenticatedUsers"):
			say("`%s … %s` grants access to everyone on the internet", name, t)
		case (l == "--public-access" && next != "off" && next != "none" && next != "" && next != "false") ||
			strings.HasPrefix(l, "--public-access=") && !strings.HasSuffix(l, "=off") && !strings.HasSuffix(l, "=none"):
			say("`%s … %s` opens the storage to anonymous reads", name, t)
		case l == "--allow-blob-public-access" && next != "false" || l == "--allow-blob-public-access=true" || l == "--publicly-accessible":
			say("`%s … %s` makes the resource reachable from the internet", name, t)
		case (l == "--visibility" && (next == "public" || next == "internal")) || l == "--visibility=public" || l == "--visibility=internal":
			say("`%s … %s` makes a private repository or project visible to others", name, strings.TrimPrefix(t+" "+wordAt(args, k+1), " "))
		case strings.Contains(t, "0.0.0.0/0") || strings.Contains(t, "::/0"):
			say("`%s … %s` opens access to every address on the internet", name, t)
		case l == "--no-deletion-protection" || l == "--no-deletion-protection-enabled" || l == "--deletion-protection=false" ||
			(l == "--deletion-protection" || l == "--termination-protection") && next == "false" || l == "--no-termination-protection" ||
			l == "--disable-api-termination=false" || l == "--no-disable-api-termination":
			say("`%s … %s` switches off the protection against deleting the resource", name, t)
		case strings.Contains(l, "administratoraccess") || l == "--role=roles/owner" || l == "--role=roles/editor" || (l == "--role" && (next == "roles/owner" || next == "roles/editor" || next == "owner")):
			say("`%s … %s` grants full control of the account", name, t)
		case strings.Contains(t, "BlockPublic") && strings.Contains(l, "=false"), strings.Contains(l, "restrictpublicbuckets=false"):
			say("`%s … %s` lifts the block on public access", name, t)
		}
		if out["exposure"] != "" {
			return
		}
	}
	if name == "gh" && wordAt(args, 0) == "pr" && wordAt(args, 1) == "merge" {
		for _, a := range args {
			if a.Text == "--admin" {
				say("`gh pr merge --admin` merges past the branch protection rules and required reviews")
				return
			}
		}
	}
	if r, ok := readHTTP(name, args); ok && (name == "gh" || name == "glab") {
		for _, f := range r.fields {
			k, v, _ := strings.Cut(strings.ToLower(f), "=")
			switch {
			case k == "private" && v == "false", k == "visibility" && (v == "public" || v == "internal"), k == "public" && v == "true":
				say("`%s api … %s` makes a private repository public", name, f)
			case (k == "permission" || k == "role" || k == "access_level") && (v == "admin" || v == "maintain" || v == "owner" || v == "50" || v == "40"):
				say("`%s api … %s` grants administrative rights", name, f)
			}
		}
		if r.method != "GET" {
			for _, u := range r.urls {
				if strings.Contains(u, "/protection") || strings.Contains(u, "protected_branches") || strings.Contains(u, "/rulesets") {
					say("`%s api -X %s %s` changes the branch protection that keeps history and reviews safe", name, r.method, u)
				}
			}
		}
		return
	}
	if name == "aws" {
		for k, a := range args {
			if (a.Text == "--policy" || a.Text == "--policy-document") && k+1 < len(args) {
				v := args[k+1].Text
				if strings.Contains(v, `"*"`) && strings.Contains(v, "Principal") {
					say("`aws … %s` grants the policy to anyone (Principal \"*\")", a.Text)
					return
				}
				if strings.HasPrefix(v, "file://") {
					say("`aws … %s %s` sets an access policy the guard cannot read", a.Text, v)
					return
				}
			}
		}
	}
}

// joinTexts joins the words' texts with spaces.
func joinTexts(ws []shell.Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

// zeroValue reports whether a scale value is zero ("0", "web=0",
// "worker=0:standard-1x").
func zeroValue(v string) bool {
	if _, after, ok := strings.Cut(v, "="); ok {
		v = after
	}
	if before, _, ok := strings.Cut(v, ":"); ok {
		v = before
	}
	return v == "0"
}

// harmCapacity is the model's capacity part: scaling to zero, stopping
// cloud instances and databases, forcing a replacement, a DNS change
// batch.
func (pc *packCtx) harmCapacity(out map[string]string) {
	name, args := pc.name, pc.args
	if dataProgram(name) || shell.IsShell(name) || interpreter(name) != "" {
		return
	}
	say := func(format string, a ...any) { out["capacity"] = fmt.Sprintf(format, a...) }
	for k, a := range args {
		t := a.Text
		if !strings.HasPrefix(t, "--") {
			continue
		}
		l := strings.ToLower(t)
		f, v, hasV := strings.Cut(l, "=")
		if !hasV {
			v = strings.ToLower(wordAt(args, k+1))
		}
		switch f {
		case "--replicas", "--desired-count", "--desired-capacity", "--max-size", "--num-nodes", "--node-count", "--max-instances",
			"--count", "--size", "--min-size", "--nodes", "--instances", "--max-nodes", "--capacity", "--scale":
			if zeroValue(v) && (f != "--min-size" || strings.Contains(joinTexts(args), "--max-size 0") || strings.Contains(joinTexts(args), "--max-size=0")) && f != "--size" {
				say("`%s … %s %s` scales a running service to zero", name, f, v)
				return
			}
		case "--reserved-concurrent-executions", "--provisioned-concurrent-executions", "--reserved-concurrency":
			// a serverless function allowed to run zero at once: throttled
			if zeroValue(v) && name != "npx" && name != "npm" {
				say("`%s … %s %s` lets the function run nothing: every call is throttled", name, f, v)
				return
			}
		case "--activation-policy":
			if v == "never" {
				say("`%s … %s %s` stops the database instance", name, f, v)
				return
			}
		}
	}
	words := joinTexts(args)
	switch name {
	case "kubectl", "oc", "k":
		sub, rest := firstPositional(args)
		if sub == "patch" && (strings.Contains(words, `"replicas":0`) || strings.Contains(words, `"replicas": 0`)) {
			say("`%s patch` sets replicas to zero", name)
		}
		if sub == "delete" || sub == "scale" {
			for _, a := range rest {
				if !strings.HasPrefix(a.Text, "-") && edgeProxy(a.Text) {
					say("`%s %s %s` takes down the load balancer or ingress every site behind it depends on", name, sub, a.Text)
					return
				}
			}
		}
	case "docker", "podman", "nerdctl", "docker-compose", "podman-compose":
		sub, rest := firstPositional(args)
		if sub == "compose" || sub == "container" {
			sub, rest = firstPositional(rest)
		}
		switch sub {
		case "stop", "kill", "rm", "down", "pause":
			for _, a := range rest {
				if !strings.HasPrefix(a.Text, "-") && edgeProxy(a.Text) {
					say("`%s %s %s` takes down the load balancer every site behind it depends on", name, sub, a.Text)
					return
				}
			}
		}
	case "nginx", "openresty", "caddy", "traefik", "envoy":
		if v, ok := optValue(args, "-s"); ok && (v == "stop" || v == "quit") {
			say("`%s -s %s` stops the web server or load balancer", name, v)
		} else if name == "caddy" && wordAt(args, 0) == "stop" {
			say("`caddy stop` stops the web server")
		}
	case "haproxy":
		for _, a := range args {
			if a.Text == "-sf" || a.Text == "-st" {
				say("`haproxy %s` stops the running load balancer's processes", a.Text)
				return
			}
		}
	case "fly", "flyctl", "heroku", "railway", "render", "doctl", "scalingo", "dokku":
		for k, a := range args {
			l := strings.ToLower(a.Text)
			if (l == "count" || l == "ps:scale" || l == "scale" || l == "ps:type") && k+1 < len(args) {
				for _, b := range args[k+1:] {
					if zeroValue(b.Text) {
						say("`%s %s %s` scales a running service to zero", name, a.Text, b.Text)
						return
					}
				}
			}
		}
	case "terraform", "tofu", "terragrunt", "tf":
		sub, _ := firstPositional(args)
		if sub == "taint" {
			say("`%s taint` marks a resource to be destroyed and created again at the next apply", name)
			return
		}
		if sub == "apply" || sub == "run-all" {
			for _, a := range args {
				if strings.HasPrefix(a.Text, "-replace") || strings.HasPrefix(a.Text, "--replace") {
					say("`%s apply %s` destroys the resource and creates it again", name, a.Text)
					return
				}
			}
		}
	case "pulumi":
		if sub, _ := firstPositional(args); sub == "up" || sub == "update" {
			for _, a := range args {
				if a.Text == "--replace" || strings.HasPrefix(a.Text, "--replace=") || a.Text == "--target-replace" || strings.HasPrefix(a.Text, "--target-replace=") {
					say("`pulumi up --replace` destroys the resource and creates it again")
					return
				}
			}
		}
	case "helm":
		if sub, _ := firstPositional(args); sub == "upgrade" || sub == "rollback" {
			for _, a := range args {
				if a.Text == "--force" {
					say("`helm %s --force` deletes and recreates the release's resources", sub)
					return
				}
			}
		}
	case "gcloud", "az", "hcloud", "linode-cli", "scw", "exoscale", "openstack", "oci", "ibmcloud", "vultr-cli", "civo":
		for i, a := range args {
			if i > 5 {
				break
			}
			switch strings.ToLower(a.Text) {
			case "stop", "power-off", "poweroff", "shutdown", "suspend", "hibernate", "deallocate", "power_off":
				say("`%s … %s` stops running machines or databases", name, a.Text)
				return
			}
			if strings.HasPrefix(a.Text, "-") {
				break
			}
		}
		if name == "gcloud" && strings.Contains(words, "record-sets transaction execute") {
			say("`gcloud dns record-sets transaction execute` applies a DNS change batch the guard cannot read")
		}
	case "aws":
		if strings.Contains(words, "change-resource-record-sets") {
			batch, _ := optValue(args, "--change-batch")
			up := strings.ToUpper(batch)
			switch {
			case strings.HasPrefix(batch, "file://") || strings.HasPrefix(batch, "fileb://"):
				say("`aws route53 change-resource-record-sets --change-batch %s` changes live DNS from a file the guard does not read", batch)
			case strings.Contains(up, "DELETE") || strings.Contains(up, "UPSERT"):
				say("`aws route53 change-resource-record-sets` deletes or replaces live DNS records")
			case batch == "":
				say("`aws route53 change-resource-record-sets` changes live DNS")
			}
		}
	case "nsupdate":
		text := pc.cc.c.Stdin
		if t, ok := pc.cc.pipedText(); ok {
			text += t
		}
		if strings.Contains(strings.ToLower(text), "delete") || text == "" {
			say("`nsupdate` deletes DNS records, or applies updates the guard cannot read")
		}
	}
}
