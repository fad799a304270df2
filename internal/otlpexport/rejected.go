package otlpexport

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"time"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/runtime/config"
	"github.com/hookwright/hookwright/internal/runtime/safepath"
)

// RejectedFile is where the records a collector refused are kept, relative
// to the project: one JSON object ([RejectedRecord]) per line, appended.
const RejectedFile = config.Dir + "/otlp-rejected.jsonl"

// RejectedRecord is one line of [RejectedFile].
type RejectedRecord struct {
	// ID is the journal line's id ("<file>:<offset>").
	ID string `json:"id"`
	// Time is when the collector refused it (RFC 3339, UTC).
	Time string `json:"rejected_at"`
	// Status is the collector's answer: "HTTP 400 Bad Request", "grpc
	// InvalidArgument", ...
	Status string `json:"status"`
	// Answer is the collector's message, as it gave it.
	Answer string `json:"answer"`
	// Line is the whole journal line.
	Line string `json:"line"`
}

// appendRejected appends recs to the project's RejectedFile. The file must
// be a regular file inside the project: a symlink, a FIFO or a folder
// there is an error, as is a folder on the way that leads out.
func appendRejected(project string, recs []RejectedRecord) error {
	if len(recs) == 0 {
		return nil
	}
	var data []byte
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		data = append(append(data, b...), '\n')
	}
	shown := path.Join(project, RejectedFile)
	root, err := safepath.OpenRoot(project)
	if err != nil {
		return fmt.Errorf("rejected records: %w", err)
	}
	defer root.Close()
	if err := safepath.MkdirAll(root, config.Dir, 0o755); err != nil {
		return fmt.Errorf("rejected records %s: %w", shown, err)
	}
	if err := safepath.Plain(project, RejectedFile); err != nil {
		return fmt.Errorf("rejected records: %w", err)
	}
	f, err := root.OpenFile(RejectedFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("rejected records %s: %w", shown, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("rejected records %s: %w", shown, safepath.ErrNotRegular)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		return fmt.Errorf("rejected records %s: %w", shown, err)
	}
	return nil
}

// newRejected is the RejectedRecord of line l refused with err.
func newRejected(l journaltail.Line, err error, now time.Time) RejectedRecord {
	status, answer := describe(err)
	return RejectedRecord{ID: l.ID(), Time: now.UTC().Format(time.RFC3339), Status: status, Answer: answer, Line: string(l.Raw)}
}
