package otlpexport

import (
	"encoding/json"
	"fmt"

	"github.com/hookwright/hookwright/internal/atomicfile"
	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/project"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
	"github.com/hookwright/hookwright/internal/runtime/statefile"
)

// CursorFile is where the exporter remembers what it shipped, relative to
// the project.
const CursorFile = config.Dir + "/export/otlp.json"

// cursorDoc is the cursor file's content.
type cursorDoc struct {
	// Files maps a journal file's base name to the offset up to which its
	// lines were shipped (or rejected and skipped).
	Files journaltail.Cursor `json:"files"`
}

// cursorPath is CursorFile under dir, confined to the project.
func cursorPath(dir string) (safepath.Path, error) {
	p, err := project.Path(dir, CursorFile)
	if err != nil {
		return p, err
	}
	// The cursor and the lock are written by name (atomicfile, os): check
	// that no symlinked folder leads out of the project.
	return p, safepath.Within(dir, p.String())
}

// LoadCursor reads the project's export cursor; none yet is an empty one.
// A damaged file is an error, not a fresh start: starting over would ship
// everything again.
func LoadCursor(dir string) (journaltail.Cursor, error) {
	path, err := cursorPath(dir)
	if err != nil {
		return nil, err
	}
	data, err := statefile.Read(path)
	if err != nil {
		return nil, fmt.Errorf("export cursor: %w", err)
	}
	var doc cursorDoc
	if data != nil {
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("export cursor %s does not parse (%v); delete it to ship the whole journal again", path, err)
		}
	}
	if doc.Files == nil {
		doc.Files = journaltail.Cursor{}
	}
	return doc.Files, nil
}

// SaveCursor replaces the project's export cursor atomically.
func SaveCursor(dir string, c journaltail.Cursor) error {
	path, err := cursorPath(dir)
	if err != nil {
		return err
	}
	if err := safepath.MkdirAllIn(path.Root, path.Dir().Rel, 0o755); err != nil {
		return fmt.Errorf("export cursor: %w", err)
	}
	data, err := json.MarshalIndent(cursorDoc{Files: c}, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path.String(), append(data, '\n'))
}
