package hookstest

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/hookwright/hookwright/hooks"
)

// payloadFS holds the recorded payloads: payloads/<release>/<name>.json,
// each release's task files under home/, transcript.jsonl, the line of
// the session log that says the release, and env (see payloads/README.md).
//
//go:embed all:payloads
var payloadFS embed.FS

// Payload is one hook input a real Claude Code release sent, recorded by
// hookwright's live tier, with the files that release had written by
// then: what a hook on that release receives, for tests.
type Payload struct {
	// Release is the release it was recorded on ("2.1.32"); a folder
	// with a suffix ("2.1.33-team") holds the payloads of one setting.
	Release string
	// Name is the file name without .json: the event, the tool, and what
	// tells it apart ("PostToolUse-TaskUpdate-completed").
	Name string
	// Event is its hook_event_name; Tool its tool_name, if any.
	Event hooks.Event
	Tool  string
	// JSON is the input, with the folders of the run as $PROJECT, $HOME
	// and $TRANSCRIPT (filled in by [Run] and [Exec]).
	JSON string
	// Home are the files under HOME the release had written (its task
	// files), by slash-separated path, and Transcript the session log
	// line that names the release.
	Home       map[string]string
	Transcript string
	// Env is what the hook's environment held that the payload relies on
	// ("TMUX_PANE=%3" in a tmux teammate), "KEY=VALUE".
	Env []string
}

// Payloads returns every recorded payload, by release and name.
func Payloads() []Payload {
	var out []Payload
	releases, err := fs.ReadDir(payloadFS, "payloads")
	if err != nil {
		panic(err)
	}
	for _, rel := range releases {
		if !rel.IsDir() {
			continue
		}
		files, _ := fs.ReadDir(payloadFS, "payloads/"+rel.Name())
		for _, f := range files {
			if name, ok := strings.CutSuffix(f.Name(), ".json"); ok && !f.IsDir() {
				out = append(out, load(rel.Name(), name))
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Release != out[j].Release {
			ri, _ := hooks.ParseRelease(strings.SplitN(out[i].Release, "-", 2)[0])
			rj, _ := hooks.ParseRelease(strings.SplitN(out[j].Release, "-", 2)[0])
			if ri != rj {
				return ri.Less(rj)
			}
			return out[i].Release < out[j].Release
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Recorded returns the payload name recorded on release; it panics when
// there is none, naming the ones there are (a test's typo).
func Recorded(release, name string) Payload {
	if _, err := fs.Stat(payloadFS, "payloads/"+release+"/"+name+".json"); err != nil {
		var have []string
		for _, p := range Payloads() {
			if p.Release == release {
				have = append(have, p.Name)
			}
		}
		panic(fmt.Sprintf("hookstest: no payload %q recorded on %q; there are: %s", name, release, strings.Join(have, ", ")))
	}
	return load(release, name)
}

func load(release, name string) Payload {
	dir := "payloads/" + release
	data, err := fs.ReadFile(payloadFS, dir+"/"+name+".json")
	if err != nil {
		panic(err)
	}
	p := Payload{Release: release, Name: name, JSON: strings.TrimSpace(string(data)), Home: map[string]string{}}
	var head struct {
		Event hooks.Event `json:"hook_event_name"`
		Tool  string      `json:"tool_name"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		panic(fmt.Sprintf("hookstest: payload %s/%s: %v", release, name, err))
	}
	p.Event, p.Tool = head.Event, head.Tool
	_ = fs.WalkDir(payloadFS, dir+"/home", func(file string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := fs.ReadFile(payloadFS, file)
		p.Home[strings.TrimPrefix(file, dir+"/home/")] = string(b)
		return nil
	})
	if b, err := fs.ReadFile(payloadFS, dir+"/transcript.jsonl"); err == nil {
		p.Transcript = string(b)
	}
	if b, err := fs.ReadFile(payloadFS, dir+"/env"); err == nil {
		p.Env = strings.Fields(string(b))
	}
	return p
}

// Call is a call of the payload with the command line args ("TaskCompleted
// --via PostToolUse --proto 2.1.16"): the payload on stdin, its release's
// task files under HOME and its session log at $TRANSCRIPT. Add to it
// (Env, Files, more HomeFiles) before running it.
func (p Payload) Call(args string) Call {
	home := map[string]string{}
	for k, v := range p.Home {
		home[k] = v
	}
	return Call{Args: args, Stdin: p.JSON, HomeFiles: home, Transcript: p.Transcript, Env: append([]string(nil), p.Env...)}
}

// TaskFile is the HOME-relative path of task id's file in the list of the
// payload's session, where Claude Code keeps a task outside a team:
// ".claude/tasks/<session>/<id>.json".
func (p Payload) TaskFile(id string) string {
	var in struct {
		Session string `json:"session_id"`
	}
	_ = json.Unmarshal([]byte(p.JSON), &in)
	return path.Join(".claude", "tasks", in.Session, id+".json")
}
