package loop

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"

	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// An armed check is a shell command the runtime runs at every stop. The
// state file that holds it is in the project, so a cloned or copied
// repository could ship one (.hookwright/loop.json with "armed": {"check":
// "curl … | sh"}) and have it run before anyone typed a word. So `hwctl
// loop start` also leaves a receipt outside every project, in the user's
// state folder, that names the project and what it armed;
// the runtime honours the armed settings only when the receipt matches
// (Honoured). The guard counts the receipts' folder as its own ground, so
// the model cannot forge one; `hwctl loop start --check CMD` it may run,
// and the guard judges CMD as if the model ran it.

// maxReceipt bounds a receipt read.
const maxReceipt = 4096

// ReceiptDir returns the folder of the receipts: $XDG_STATE_HOME/hookwright/loop
// when XDG_STATE_HOME is absolute, else $HOME/.local/state/hookwright/loop;
// "" when neither is known.
func ReceiptDir(getenv func(string) string) string {
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "hookwright", "loop")
	}
	if h := getenv("HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "hookwright", "loop")
	}
	return ""
}

// receipt is one project's receipt: the project and the settings armed,
// which must equal the state file's to the nanosecond of the start.
type receipt struct {
	Project string   `json:"project"`
	Armed   Settings `json:"armed"`
}

// projectKey returns the project's absolute path with symlinks resolved,
// the name its receipt is filed under.
func projectKey(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	return filepath.Clean(dir)
}

// receiptPath names the receipt by a hash of the project's path (the
// receipt holds the path itself, which is what is compared).
func receiptPath(rdir, project string) string {
	h := fnv.New128a()
	h.Write([]byte(project))
	return filepath.Join(rdir, hex.EncodeToString(h.Sum(nil))+".json")
}

// same reports whether two armings are one: every field, the start time
// included, so a receipt matches only the arming it was written for.
func (s Settings) same(o Settings) bool {
	return s.Check == o.Check && s.Promise == o.Promise && s.MaxRounds == o.MaxRounds && s.StallRounds == o.StallRounds &&
		s.Timeout == o.Timeout && s.Started.Equal(o.Started)
}

// Record writes the receipt for the settings s armed in the project at
// dir (see ReceiptDir). hwctl loop start calls it after Start.
func Record(dir string, s Settings, getenv func(string) string) error {
	rdir := ReceiptDir(getenv)
	if rdir == "" {
		return fmt.Errorf("loop receipt: neither XDG_STATE_HOME nor HOME is an absolute path")
	}
	if err := os.MkdirAll(rdir, 0o700); err != nil {
		return fmt.Errorf("loop receipt: %w", err)
	}
	project := projectKey(dir)
	data, err := json.Marshal(receipt{Project: project, Armed: s})
	if err != nil {
		return err
	}
	p := receiptPath(rdir, project)
	tmp, err := os.CreateTemp(rdir, ".receipt-*")
	if err != nil {
		return fmt.Errorf("loop receipt: %w", err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), p)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("loop receipt: %w", werr)
	}
	return nil
}

// Honoured returns st with its armed settings kept only when this user
// armed them for this project (a receipt in ReceiptDir matches them);
// dropped reports that st was armed and the arming was dropped (a state
// file that came with a clone or a copy, or was written by hand).
func (st State) Honoured(dir string, getenv func(string) string) (out State, dropped bool) {
	if st.Armed == nil || st.Cancelled {
		return st, false
	}
	if rdir := ReceiptDir(getenv); rdir != "" {
		project := projectKey(dir)
		data, err := safepath.ReadFileAt(receiptPath(rdir, project), maxReceipt)
		var r receipt
		if err == nil && json.Unmarshal(data, &r) == nil && r.Project == project && r.Armed.same(*st.Armed) {
			return st, false
		}
	}
	st.Armed = nil
	return st, true
}

// Arm arms the loop for the project at dir as Start does and records the
// receipt that lets the runtime honour it: what hwctl loop start runs.
func Arm(dir string, s Settings, getenv func(string) string) error {
	if err := Start(dir, s); err != nil {
		return err
	}
	return Record(dir, s, getenv)
}
