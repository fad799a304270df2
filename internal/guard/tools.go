package guard

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/hookwright/hookwright/internal/runtime/toolinput"
	"github.com/hookwright/hookwright/internal/runtime/toolrule"
	"github.com/hookwright/hookwright/internal/shell"
)

// ToolRulePolicy names the rule a guard.tools entry decides under, in the
// report, the reason and the journal.
const ToolRulePolicy = "tool-policy"

// toolPolicy applies guard.tools to the call.
func (ck *check) toolPolicy(c Call, fields map[string]json.RawMessage) {
	if len(ck.g.Config.Tools) == 0 {
		return
	}
	call := &toolrule.Call{Tool: c.Tool, Fields: fields, Home: ck.env.home, Project: ck.env.project, Cwd: ck.env.cwd}
	if c.Tool == "Bash" {
		cmds, err := shell.Parse(toolinput.String(fields, "command"))
		call.CmdErr = err != nil
		for _, sc := range cmds {
			if s := sc.String(); strings.TrimSpace(s) != "" {
				call.Commands = append(call.Commands, s)
			}
		}
	}
	keys := make([]string, 0, len(ck.g.Config.Tools))
	for k := range ck.g.Config.Tools {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var allowed string
	for _, k := range keys {
		v := ck.g.Config.Tools[k]
		r, err := toolrule.Parse(k)
		if err != nil {
			ck.rep.Warnings = append(ck.rep.Warnings, "guard.tools: "+err.Error())
			continue
		}
		m := r.Match(call)
		switch {
		case m == toolrule.No:
		case v == "deny":
			ck.findSev(ToolRulePolicy, Block, -1, fmt.Sprintf("%s is denied by guard.tools rule %s.", c.Tool, r.Raw))
		case v == "ask":
			ck.findSev(ToolRulePolicy, Ask, -1, fmt.Sprintf("%s asks first by guard.tools rule %s.", c.Tool, r.Raw))
		case v == "allow" && m == toolrule.Yes && allowed == "":
			allowed = r.Raw
		}
	}
	if allowed != "" {
		ck.rep.ToolAllow = allowed
	}
}
