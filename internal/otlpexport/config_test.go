package otlpexport

import (
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/runtime/journal"
)

func TestConfigFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		protocol string
		endpoint string
		headers  string
		resource string
		timeout  time.Duration
		err      string
	}{
		{name: "defaults", env: nil, protocol: HTTPProtobuf, endpoint: "http://localhost:4318/v1/logs", timeout: 10 * time.Second},
		{name: "grpc default port", env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, protocol: GRPC, endpoint: "http://localhost:4317"},
		{name: "base URL gets v1/logs", env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_EXPORTER_OTLP_ENDPOINT": "https://c.example:4318/otlp/"},
			protocol: HTTPJSON, endpoint: "https://c.example:4318/otlp/v1/logs"},
		{name: "grpc keeps the base URL", env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:5317"},
			protocol: GRPC, endpoint: "http://127.0.0.1:5317"},
		{name: "logs endpoint as given, wins", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:1", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "http://b:2/custom"},
			protocol: HTTPProtobuf, endpoint: "http://b:2/custom"},
		{name: "logs protocol wins", env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL": "http/json"},
			protocol: HTTPJSON, endpoint: "http://localhost:4318/v1/logs"},
		{name: "headers merge, logs win, percent-decoded", env: map[string]string{
			"OTEL_EXPORTER_OTLP_HEADERS":      "a=1, authorization=Bearer%20tok ,b=x%2Cy",
			"OTEL_EXPORTER_OTLP_LOGS_HEADERS": "a=2"},
			protocol: HTTPProtobuf, endpoint: "http://localhost:4318/v1/logs", headers: "a=2 authorization=Bearer tok b=x,y"},
		{name: "resource and service name", env: map[string]string{
			"OTEL_RESOURCE_ATTRIBUTES": "service.name=x,deployment.environment=prod", "OTEL_SERVICE_NAME": "hooks"},
			protocol: HTTPProtobuf, endpoint: "http://localhost:4318/v1/logs", resource: "service.name=x deployment.environment=prod service.name=hooks"},
		{name: "timeout", env: map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "2500"}, protocol: HTTPProtobuf, endpoint: "http://localhost:4318/v1/logs", timeout: 2500 * time.Millisecond},
		{name: "bad protocol", env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http"}, err: `OTEL_EXPORTER_OTLP_PROTOCOL="http"`},
		{name: "no scheme", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "localhost:4317"}, err: "OTEL_EXPORTER_OTLP_ENDPOINT"},
		{name: "ftp", env: map[string]string{"OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "ftp://x/"}, err: "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"},
		{name: "bad header", env: map[string]string{"OTEL_EXPORTER_OTLP_LOGS_HEADERS": "a"}, err: "OTEL_EXPORTER_OTLP_LOGS_HEADERS"},
		{name: "bad escape", env: map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "a=%zz"}, err: "OTEL_RESOURCE_ATTRIBUTES"},
		{name: "bad timeout", env: map[string]string{"OTEL_EXPORTER_OTLP_LOGS_TIMEOUT": "soon"}, err: "TIMEOUT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ConfigFromEnv(func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("err = %v, want one line naming %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Protocol != tc.protocol || c.Endpoint.String() != tc.endpoint {
				t.Errorf("protocol %s endpoint %s", c.Protocol, c.Endpoint)
			}
			if tc.timeout != 0 && c.Timeout != tc.timeout {
				t.Errorf("timeout %v", c.Timeout)
			}
			var hs []string
			for _, k := range []string{"a", "authorization", "b"} {
				if v, ok := c.Headers[k]; ok {
					hs = append(hs, k+"="+v)
				}
			}
			if strings.Join(hs, " ") != tc.headers {
				t.Errorf("headers %v", c.Headers)
			}
			var rs []string
			for _, kv := range c.Resource {
				rs = append(rs, kv.Key+"="+kv.Value)
			}
			if strings.Join(rs, " ") != tc.resource {
				t.Errorf("resource %v", c.Resource)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	for code, want := range map[int]Outcome{200: Delivered, 400: Rejected, 413: Rejected, 422: Rejected, 401: Misconfigured,
		403: Misconfigured, 404: Misconfigured, 415: Misconfigured, 408: Retry, 429: Retry, 500: Retry, 502: Retry, 503: Retry} {
		if got := classifyHTTP(code); got != want {
			t.Errorf("HTTP %d: %v, want %v", code, got, want)
		}
	}
	if p := partial(errString("OTLP partial success: too old (3 logs rejected)")); p == nil || p.Rejected != 3 || p.Message != "too old" {
		t.Errorf("partial = %+v", p)
	}
	if p := partial(errString("OTLP partial success: x (3 logs rejected)\nconnection reset")); p != nil {
		t.Errorf("a joined failure was taken for a partial success: %+v", p)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// FuzzParseList: any input parses or fails with a one-line error naming
// the variable; what parses has non-empty keys and valid-UTF-8-preserving
// values.
func FuzzParseList(f *testing.F) {
	for _, s := range []string{"", "a=b", "a=b,c=d", " a = b , ,", "a", "=b", "a=%20", "a=%zz", "k=v=w", "a=\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		kvs, err := parseList("OTEL_X", s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "OTEL_X: ") || strings.Count(err.Error(), "\n") > strings.Count(s, "\n") {
				t.Fatalf("error %q", err)
			}
			return
		}
		for _, kv := range kvs {
			if kv.Key == "" {
				t.Fatalf("empty key from %q", s)
			}
			if utf8.ValidString(s) && !utf8.ValidString(kv.Key) && !strings.Contains(s, "%") {
				t.Fatalf("key %q from %q", kv.Key, s)
			}
		}
	})
}

func TestProjectIsAbsolute(t *testing.T) {
	t.Chdir(t.TempDir())
	m := NewMapper(".", Config{}, "v")
	recs := m.Records([]journaltail.Line{{File: "f.jsonl", Entry: journal.Entry{Event: "Stop"}}})
	wd, _ := os.Getwd()
	got, _ := recs[0].Resource().Set().Value(ResProject)
	if got.AsString() != wd {
		t.Fatalf("hookwright.project = %q, want %q", got.AsString(), wd)
	}
}
