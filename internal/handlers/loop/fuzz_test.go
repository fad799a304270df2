package loop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzTranscriptAndOutput feeds hostile transcripts and check output: the
// readers never panic, the quoted tail stays within its bounds, and valid
// UTF-8 in means valid UTF-8 out.
func FuzzTranscriptAndOutput(f *testing.F) {
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"<promise>X</promise>"}]}}`+"\n"), "X", 1)
	f.Add([]byte("{\"type\":\"user\"}\n{\"type\":\"assistant\",\"message\":{\"content\":\"hi\"}}"), "", 0)
	f.Add([]byte("\xff\xfe<promise>\n"), "\xff", 3)
	f.Fuzz(func(t *testing.T, data []byte, promise string, rounds int) {
		path := filepath.Join(t.TempDir(), "t.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		text, _ := lastAssistant(path, rounds%10)
		HasPromise(text, promise)
		HasPromise(string(data), promise)
		out := tail(string(data), TailLines, TailBytes)
		if len(out) > TailBytes || strings.Count(out, "\n") >= TailLines {
			t.Fatalf("tail out of bounds: %d bytes, %d lines", len(out), strings.Count(out, "\n")+1)
		}
		if utf8.Valid(data) && !utf8.Valid([]byte(out)) {
			t.Fatalf("tail cut a rune: %q", out)
		}
	})
}
