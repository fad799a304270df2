package otlpexport_test

import (
	"context"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/otel/attribute"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/otlpexport"
	"github.com/hookwright/hookwright/internal/otlpexport/otlptest"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

// readmeSection returns the "Hook events in OpenTelemetry" section of the
// docs page on observability (docs/observability.md), which the README
// links to.
func readmeSection(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../docs/observability.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "\n## Hook events in OpenTelemetry\n")
	if i < 0 {
		t.Fatal("docs/observability.md has no section \"Hook events in OpenTelemetry\"")
	}
	s = s[i+1:]
	if j := strings.Index(s[3:], "\n## "); j >= 0 {
		s = s[:j+3]
	}
	return s
}

// tableNames returns the backticked names in the first column of the
// table whose header starts with header.
func tableNames(t *testing.T, section, header string) []string {
	t.Helper()
	i := strings.Index(section, "| "+header+" |")
	if i < 0 {
		t.Fatalf("README: no table %q", header)
	}
	var names []string
	cell := regexp.MustCompile("`([^`]+)`")
	for _, line := range strings.Split(section[i:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		first := strings.Split(line, "|")[1]
		for _, m := range cell.FindAllStringSubmatch(first, -1) {
			names = append(names, m[1])
		}
	}
	slices.Sort(names)
	return names
}

// TestREADMEDocumentsEveryAttribute keeps the README's tables equal to the
// attribute names records really carry: a full entry and an unparsed line
// are mapped, and their attribute and resource keys compared.
func TestREADMEDocumentsEveryAttribute(t *testing.T) {
	dir := t.TempDir()
	writeFingerprint(t, dir, "s1", "2.1.330")
	full := journal.Entry{Time: day, Session: "s1", Event: "PreToolUse", Via: "PostToolUse", Target: "Bash", Tool: "Bash", Subject: "ls",
		Agent: "a", Team: "t", Band: "b", Decision: "block", Reason: "r", Handler: "guard", Rule: "git-force-push", Exit: 2, Micros: 3,
		ToolMillis: 4, Outcome: "failure", Error: "e", Faults: []string{"f"}}
	lines := []journaltail.Line{
		{File: "2026-11-22.jsonl", Offset: 0, Entry: full},
		{File: "2026-11-22.jsonl", Offset: 10, Raw: []byte("{bad"), Err: errors.New("bad JSON")},
	}
	m := otlpexport.NewMapper(dir, otlpexport.Config{}, "v")
	attrs, res := map[string]bool{}, map[string]bool{}
	for _, r := range m.Records(lines) {
		for _, kv := range r.Resource().Attributes() {
			res[string(kv.Key)] = true
		}
		r.WalkAttributes(func(kv attribute.KeyValue) bool {
			attrs[string(kv.Key)] = true
			return true
		})
	}
	section := readmeSection(t)
	if got, want := tableNames(t, section, "record attribute"), keys(attrs); !slices.Equal(got, want) {
		t.Errorf("README record attributes\n %v\nrecords carry\n %v", got, want)
	}
	if got, want := tableNames(t, section, "resource attribute"), keys(res); !slices.Equal(got, want) {
		t.Errorf("README resource attributes\n %v\nrecords carry\n %v", got, want)
	}
	for _, name := range []string{otlpexport.EventHookCall, otlpexport.EventUnparsed} {
		if !strings.Contains(section, "`"+name+"`") {
			t.Errorf("README does not name the event %s", name)
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestREADMECollectorConfig loads the README's collector configuration
// with the collector's own configuration code, checks that its logs
// pipeline takes the otlp receiver, starts that receiver (on free ports)
// and ships to it over grpc and http.
func TestREADMECollectorConfig(t *testing.T) {
	section := readmeSection(t)
	i := strings.Index(section, "```yaml\n")
	if i < 0 {
		t.Fatal("README section has no yaml block")
	}
	yaml := section[i+len("```yaml\n"):]
	yaml = yaml[:strings.Index(yaml, "```")]
	ret, err := confmap.NewRetrievedFromYAML([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	conf, err := ret.AsConf()
	if err != nil {
		t.Fatal(err)
	}
	if rs, _ := conf.Get("service::pipelines::logs::receivers").([]any); !slices.Contains(rs, any("otlp")) {
		t.Fatalf("the logs pipeline does not take the otlp receiver: %v", conf.Get("service::pipelines::logs"))
	}
	otlp, err := conf.Sub("receivers::otlp")
	if err != nil {
		t.Fatal(err)
	}
	grpcAddr, httpAddr := otlptest.FreeAddr(t), otlptest.FreeAddr(t)
	if otlp.Get("protocols::grpc::endpoint") != "127.0.0.1:4317" || otlp.Get("protocols::http::endpoint") != "127.0.0.1:4318" {
		t.Fatalf("README receiver endpoints changed: %v", otlp.ToStringMap())
	}
	if err := otlp.Merge(confmap.NewFromStringMap(map[string]any{"protocols": map[string]any{
		"grpc": map[string]any{"endpoint": grpcAddr}, "http": map[string]any{"endpoint": httpAddr},
	}})); err != nil {
		t.Fatal(err)
	}
	sink := &otlptest.Sink{}
	otlptest.StartConf(t, otlp, sink)
	dir := t.TempDir()
	writeJournal(t, dir, 0, 4)
	for n, tc := range []struct{ protocol, addr string }{{otlpexport.GRPC, grpcAddr}, {otlpexport.HTTPJSON, httpAddr}} {
		if err := os.RemoveAll(dir + "/.hookwright/export"); err != nil {
			t.Fatal(err)
		}
		st, err := otlpexport.Export(context.Background(), otlpexport.Options{Project: dir, Config: config(t, tc.protocol, "http://"+tc.addr, nil), RetryFor: 5 * time.Second})
		if err != nil || st.Shipped != 4 || sink.Len() != 4*(n+1) {
			t.Fatalf("%s to the README's receiver: %+v %v, received %d", tc.protocol, st, err, sink.Len())
		}
	}
}

// Every record names its kind: the line's own, else the one its fields
// give (a line written before lines carried kinds).
func TestRecordKind(t *testing.T) {
	m := otlpexport.NewMapper(t.TempDir(), otlpexport.Config{}, "v")
	lines := []journaltail.Line{
		{File: "2026-11-22.jsonl", Offset: 0, Entry: journal.Entry{Time: day, Event: "SubagentStart", Kind: "agent_started"}},
		{File: "2026-11-22.jsonl", Offset: 1, Entry: journal.Entry{Time: day, Event: "PreCompact", Target: "auto"}},
		{File: "2026-11-22.jsonl", Offset: 2, Entry: journal.Entry{Time: day, Event: "PostToolUse"}},
	}
	want := []string{"agent_started", "context_overflow", ""}
	for i, r := range m.Records(lines) {
		got := ""
		r.WalkAttributes(func(kv attribute.KeyValue) bool {
			if string(kv.Key) == otlpexport.AttrKind {
				got = kv.Value.AsString()
			}
			return true
		})
		if got != want[i] {
			t.Errorf("line %d: kind %q, want %q", i, got, want[i])
		}
	}
}
