package guard

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// The model's "later" part: changes that make a later command
// destructive. A forced push refspec or a mirror remote turns the next
// plain git push into a force push; a push URL sends every later push
// somewhere else; a moved shared tag changes what every deployment pulls;
// a hook file or a package script runs at the next commit or install.
// What the guard can read (a hook's text, a script's value) is judged as
// the command it is; what it cannot read asks.

// sharedTag reports whether an image reference's tag (or a bare tag) is
// one that deployments follow: latest, stable, prod, ….
func sharedTag(ref string) bool {
	tag := ref
	if i := strings.LastIndexByte(ref, ':'); i >= 0 && !strings.Contains(ref[i:], "/") {
		tag = ref[i+1:]
	} else if strings.Contains(ref, "/") {
		return false // no tag: latest, but only when pushed; a copy names it
	}
	switch strings.ToLower(tag) {
	case "latest", "stable", "prod", "production", "release", "main", "master", "live", "current", "lts":
		return true
	}
	return false
}

// pushedShared reports whether pushing ref moves a shared tag: its tag
// is one deployments follow, or it names a registry and no tag, which
// pushes latest.
func pushedShared(ref string) bool {
	if sharedTag(ref) {
		return true
	}
	last := ref[strings.LastIndexByte(ref, '/')+1:]
	return strings.Contains(ref, "/") && !strings.ContainsAny(last, ":@") && !strings.HasPrefix(ref, "-")
}

// localImage reports whether an image reference names a local store, not
// a registry (skopeo's oci:, dir:, docker-archive:).
func localImage(ref string) bool {
	for _, p := range []string{"oci:", "oci-archive:", "dir:", "docker-archive:", "containers-storage:", "docker-daemon:"} {
		if strings.HasPrefix(ref, p) {
			return true
		}
	}
	return false
}

// harmLater is the pack loop's share of the later part: a shared image
// tag moved in a registry, a package manager's script shell changed.
func (pc *packCtx) harmLater(out map[string]string) {
	name, args := pc.name, pc.args
	var pos []string
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		if t == "-t" || t == "--tag" {
			if k+1 < len(args) && sharedTag(args[k+1].Text) && (name == "docker" || name == "podman") && strings.Contains(joinTexts(args), "imagetools") {
				out["later"] = fmt.Sprintf("`%s buildx imagetools create -t %s` moves a tag that deployments follow", name, args[k+1].Text)
				return
			}
			k++
			continue
		}
		if !strings.HasPrefix(t, "-") {
			pos = append(pos, t)
		}
	}
	switch name {
	case "docker", "podman", "nerdctl", "buildah":
		// docker push r/app:latest, and a build that pushes its tags
		sub := ""
		if len(pos) > 0 {
			sub = strings.ToLower(pos[0])
		}
		if sub == "image" && len(pos) > 1 {
			sub, pos = strings.ToLower(pos[1]), pos[1:]
		}
		if sub == "push" {
			for _, ref := range pos[1:] {
				if v, ok := optValue(args, "--platform"); ok && v == ref {
					continue
				}
				if pushedShared(ref) {
					out["later"] = fmt.Sprintf("`%s push %s` moves a tag that deployments follow to this image", name, ref)
					return
				}
			}
			if slices.ContainsFunc(args, func(a shell.Word) bool { return a.Text == "--all-tags" || a.Text == "-a" }) {
				out["later"] = fmt.Sprintf("`%s push --all-tags` pushes every local tag, the ones deployments follow too", name)
			}
			return
		}
		if sub == "build" || sub == "buildx" && len(pos) > 1 && (pos[1] == "build" || pos[1] == "bake") {
			if !slices.ContainsFunc(args, func(a shell.Word) bool {
				return a.Text == "--push" || strings.HasPrefix(a.Text, "--output=type=registry")
			}) {
				return
			}
			for k := 0; k+1 < len(args); k++ {
				if t := args[k].Text; (t == "-t" || t == "--tag") && pushedShared(args[k+1].Text) {
					out["later"] = fmt.Sprintf("`%s … --push -t %s` moves a tag that deployments follow to the image it builds", name, args[k+1].Text)
					return
				}
			}
		}
	case "crane", "gcrane", "oras", "regctl", "skopeo":
		if len(pos) < 2 {
			return
		}
		sub := strings.ToLower(pos[0])
		if sub == "image" || sub == "manifest" || sub == "index" {
			if len(pos) < 3 {
				return
			}
			sub, pos = strings.ToLower(pos[1]), pos[1:]
		}
		switch sub {
		case "tag", "copy", "cp", "mutate", "append", "put", "push", "create":
			dst := pos[len(pos)-1]
			if len(pos) >= 3 && !localImage(dst) && sharedTag(dst) {
				out["later"] = fmt.Sprintf("`%s %s … %s` moves a tag that deployments follow to another image", name, sub, dst)
			}
		}
	case "npm", "pnpm", "yarn":
		if len(pos) >= 3 && pos[0] == "config" && pos[1] == "set" {
			key, _, _ := strings.Cut(pos[2], "=")
			if key == "script-shell" || key == "shell" {
				out["later"] = fmt.Sprintf("`%s config set %s` changes the program every package script runs with", name, key)
			}
		}
	}
}

// gitLater judges git config keys and remotes that change what a later
// push does, and records the remotes a line adds.
func (cc *cmdCtx) gitLater(key, value string) {
	k := strings.ToLower(key)
	if !strings.HasPrefix(k, "remote.") {
		return
	}
	switch {
	case strings.HasSuffix(k, ".push") && (strings.HasPrefix(value, "+") || strings.Contains(value, ":+")):
		cc.modelFind("later", fmt.Sprintf("`git config %s %s` makes every later git push a force push", key, value))
	case strings.HasSuffix(k, ".mirror") && strings.ToLower(value) != "false":
		cc.modelFind("later", fmt.Sprintf("`git config %s %s` makes every later git push overwrite and delete the remote's refs", key, value))
	case strings.HasSuffix(k, ".pushurl"):
		cc.modelFind("later", fmt.Sprintf("`git config %s %s` sends every later push somewhere else", key, value))
	}
}

// gitRemote judges git remote: a mirror remote, a push URL redirected,
// and remembers the remotes the line adds.
func (cc *cmdCtx) gitRemote(rest []shell.Word) {
	sub, args := firstPositional(rest)
	switch sub {
	case "add":
		var pos []string
		for _, a := range args {
			t := a.Text
			if t == "--mirror" || strings.HasPrefix(t, "--mirror=") && t != "--mirror=fetch" {
				cc.modelFind("later", "`git remote add "+t+"` makes every later git push overwrite and delete the remote's refs")
			}
			if !strings.HasPrefix(t, "-") {
				pos = append(pos, t)
			}
		}
		if len(pos) > 0 {
			if cc.ck.remotes == nil {
				cc.ck.remotes = map[string]string{}
			}
			cc.ck.remotes[pos[0]] = wordAt2(pos, 1)
		}
	case "set-url":
		for _, a := range args {
			if a.Text == "--push" {
				cc.modelFind("later", "`git remote set-url --push` sends every later push to another URL")
				return
			}
		}
	}
}

// gitPushElsewhere asks for a push to a remote the same line added, or of
// every branch or tag to a URL no remote names.
func (cc *cmdCtx) gitPushElsewhere(rest []shell.Word) {
	all := false
	var pos []string
	for k := 0; k < len(rest); k++ {
		t := rest[k].Text
		switch {
		case t == "--all" || t == "--tags" || t == "--mirror" || t == "--follow-tags":
			all = true
		case t == "--repo" || t == "-o" || t == "--push-option" || t == "--receive-pack" || t == "--exec":
			k++
		case strings.HasPrefix(t, "-"):
		default:
			pos = append(pos, t)
		}
	}
	if len(pos) == 0 {
		return
	}
	remote := pos[0]
	if url, ok := cc.ck.remotes[remote]; ok {
		cc.modelFind("later", fmt.Sprintf("git push to %s, a remote this line adds (%s): the code goes where no one configured it to", remote, url))
		return
	}
	if all && (strings.Contains(remote, "://") || strings.Contains(remote, "@") && strings.Contains(remote, ":")) {
		cc.modelFind("later", fmt.Sprintf("git push of every branch or tag to %s, a URL no remote names", remote))
	}
}

// hookFile reports whether p is a file that a hook manager runs at a
// later git command (husky, a hooks folder in the project, lefthook,
// pre-commit's config): the ground of git-hooks-write covers .git/hooks.
func hookFile(p string) string {
	dir, base := path.Split(p)
	switch {
	case strings.HasSuffix(dir, "/.husky/") || strings.HasSuffix(dir, "/.githooks/") || strings.HasSuffix(dir, "/.hooks/") || strings.HasSuffix(dir, "/githooks/"):
		return "hook"
	case base == "lefthook.yml" || base == "lefthook.yaml" || base == ".lefthook.yml" || base == "lefthook-local.yml":
		return "lefthook"
	case base == ".pre-commit-config.yaml" || base == ".pre-commit-config.yml":
		return "pre-commit"
	case base == "package.json":
		return "package"
	}
	return ""
}

// judgeLaterFile judges a file the line writes that runs later: a hook's
// text as a shell script, pre-commit's and lefthook's commands, a
// package.json's scripts. text is what the line wrote, when known.
func (cc *cmdCtx) judgeLaterFile(p, kind, text string, known bool) {
	if !known {
		if kind == "package" {
			return // judged when a script of it runs (unseen)
		}
		cc.modelFind("later", fmt.Sprintf("%s runs at a later git command, and this line writes it with text the guard cannot read", p))
		return
	}
	switch kind {
	case "hook":
		cc.nested(text, "hook "+path.Base(p))
	case "pre-commit", "lefthook":
		for _, line := range strings.Split(text, "\n") {
			l := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
			for _, key := range []string{"entry:", "run:", "command:"} {
				if v, ok := strings.CutPrefix(l, key); ok {
					v = strings.Trim(strings.TrimSpace(v), `"'`)
					if v != "" {
						cc.nested(v, "hook "+path.Base(p))
					}
				}
			}
		}
	case "package":
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal([]byte(text), &pkg) == nil {
			for name, s := range pkg.Scripts {
				cc.nested(s, "package script "+name)
			}
		}
	}
}

// packageScripts judges the package scripts a command sets: npm pkg set
// scripts.X=V, npm set-script X V, jq '.scripts.X = "V"'. Each is judged
// as the command it is, since npm runs it later (and lifecycle scripts
// run on their own, at the next install).
func (cc *cmdCtx) packageScripts(name string, args []shell.Word) {
	switch name {
	case "npm", "pnpm", "yarn", "bun":
		sub, rest := firstPositional(args)
		switch sub {
		case "pkg":
			op, kv := firstPositional(rest)
			if op != "set" {
				return
			}
			for _, a := range kv {
				key, v, ok := strings.Cut(a.Text, "=")
				if !ok {
					continue
				}
				if s, ok := strings.CutPrefix(key, "scripts."); ok {
					cc.setScript(s, v, a.Dynamic)
				}
			}
		case "set-script":
			var pos []shell.Word
			for _, a := range rest {
				if !strings.HasPrefix(a.Text, "-") {
					pos = append(pos, a)
				}
			}
			if len(pos) >= 2 {
				cc.setScript(pos[0].Text, pos[1].Text, pos[1].Dynamic)
			}
		}
	case "jq":
		for _, a := range args {
			t := a.Text
			i := strings.Index(t, ".scripts.")
			if i < 0 {
				i = strings.Index(t, `.scripts["`)
			}
			if i < 0 {
				continue
			}
			_, v, ok := strings.Cut(t[i:], "=")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			if len(v) >= 2 && v[0] == '"' && strings.HasSuffix(v, `"`) {
				cc.setScript("(jq)", strings.ReplaceAll(v[1:len(v)-1], `\"`, `"`), false)
			} else {
				cc.modelFind("later", "`jq` sets a package script to a value the guard cannot read")
			}
		}
	}
}

// setScript judges the value of package script name.
func (cc *cmdCtx) setScript(name, value string, dynamic bool) {
	if dynamic && strings.ContainsAny(value, "$`") {
		cc.modelFind("later", fmt.Sprintf("package script %s is set to a value the guard cannot read, and npm runs it later", name))
		return
	}
	if cc.ck.scripts == nil {
		cc.ck.scripts = map[string]string{}
	}
	cc.ck.scripts[name] = value
	cc.nested(value, "package script "+name)
}
