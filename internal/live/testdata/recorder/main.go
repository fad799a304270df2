// Command recorder is a hook that records its input: the first JSON value
// on stdin, written as it came to $HOOKSTEST_RECORD/<n>-<event>.json, and
// $AI_AGENT (the release, from 2.1.120) to $HOOKSTEST_RECORD/AI_AGENT. It
// answers nothing and exits 0. TestRecordPayloads installs it for every
// event a release knows.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hookwright/hookwright/hooks"
)

func main() {
	dir := os.Getenv("HOOKSTEST_RECORD")
	data, err := hooks.Read(os.Stdin, hooks.ReadOptions{Timeout: 5 * time.Second})
	if err != nil || data == nil || dir == "" {
		fmt.Fprintln(os.Stderr, "recorder:", err, dir)
		return
	}
	var in struct {
		Event string `json:"hook_event_name"`
	}
	_ = json.Unmarshal(data, &in)
	if agent := os.Getenv("AI_AGENT"); agent != "" {
		_ = os.WriteFile(filepath.Join(dir, "AI_AGENT"), []byte(agent), 0o644)
	}
	for i := 0; i < 10000; i++ {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("%04d-%s.json", i, in.Event)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			continue
		}
		f.Write(data)
		f.Close()
		return
	}
}
