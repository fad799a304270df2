package otlpexport

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The protocols OTEL_EXPORTER_OTLP_PROTOCOL names.
const (
	GRPC         = "grpc"
	HTTPProtobuf = "http/protobuf"
	HTTPJSON     = "http/json"
)

// Config is where and how the logs go, as the standard OTLP exporter
// variables describe it.
type Config struct {
	// Protocol is GRPC, HTTPProtobuf or HTTPJSON.
	Protocol string
	// Endpoint is the URL the logs are sent to: for grpc the collector's
	// http(s)://host:port, for http the full URL of the logs path.
	Endpoint *url.URL
	// Headers go with every request (metadata on grpc).
	Headers map[string]string
	// Resource holds OTEL_RESOURCE_ATTRIBUTES, in the order given, with
	// OTEL_SERVICE_NAME applied as service.name.
	Resource []KeyValue
	// Timeout bounds one export request.
	Timeout time.Duration
}

// KeyValue is one resource attribute from the environment.
type KeyValue struct{ Key, Value string }

// Insecure reports whether the endpoint is plain text (http://).
func (c Config) Insecure() bool { return c.Endpoint.Scheme == "http" }

// defaultTimeout is the OTLP exporters' default request timeout.
const defaultTimeout = 10 * time.Second

// ConfigFromEnv reads the OTLP exporter variables the way the OpenTelemetry
// specification (and Claude Code) reads them: a signal-specific variable
// (OTEL_EXPORTER_OTLP_LOGS_*) wins over the general one. A value that does
// not parse is an error naming the variable; nothing is silently dropped.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	var c Config
	c.Protocol = strings.TrimSpace(first(getenv, "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"))
	switch c.Protocol {
	case "":
		c.Protocol = HTTPProtobuf // the specification's default
	case GRPC, HTTPProtobuf, HTTPJSON:
	default:
		return c, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%q: want grpc, http/protobuf or http/json", c.Protocol)
	}
	ep, err := endpoint(getenv, c.Protocol)
	if err != nil {
		return c, err
	}
	c.Endpoint = ep
	c.Headers = map[string]string{}
	for _, name := range []string{"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_LOGS_HEADERS"} {
		kvs, err := parseList(name, getenv(name))
		if err != nil {
			return c, err
		}
		for _, kv := range kvs {
			c.Headers[kv.Key] = kv.Value
		}
	}
	c.Resource, err = parseList("OTEL_RESOURCE_ATTRIBUTES", getenv("OTEL_RESOURCE_ATTRIBUTES"))
	if err != nil {
		return c, err
	}
	if name := strings.TrimSpace(getenv("OTEL_SERVICE_NAME")); name != "" {
		c.Resource = append(c.Resource, KeyValue{"service.name", name})
	}
	c.Timeout = defaultTimeout
	if v := first(getenv, "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"); v != "" {
		ms, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || ms <= 0 {
			return c, fmt.Errorf("OTEL_EXPORTER_OTLP_TIMEOUT=%q: want a positive number of milliseconds", v)
		}
		c.Timeout = time.Duration(ms) * time.Millisecond
	}
	return c, nil
}

// first returns the first non-empty variable of names.
func first(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// endpoint resolves the logs endpoint. OTEL_EXPORTER_OTLP_LOGS_ENDPOINT is
// used as given; OTEL_EXPORTER_OTLP_ENDPOINT is a base URL to which http
// appends v1/logs. Without either, the local collector's default port.
func endpoint(getenv func(string) string, protocol string) (*url.URL, error) {
	name, raw := "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", getenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")
	signal := raw != ""
	if !signal {
		name, raw = "OTEL_EXPORTER_OTLP_ENDPOINT", getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	}
	if raw == "" {
		name, raw = "the default endpoint", "http://localhost:4318"
		if protocol == GRPC {
			raw = "http://localhost:4317"
		}
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s=%q: want a URL such as http://localhost:4318", name, raw)
	}
	if protocol != GRPC && !signal {
		u = u.JoinPath("v1/logs")
	}
	return u, nil
}

// parseList parses the "key=value,key=value" lists of OTEL_*_HEADERS and
// OTEL_RESOURCE_ATTRIBUTES; keys and values are percent-decoded (W3C
// Baggage style) and trimmed.
func parseList(name, s string) ([]KeyValue, error) {
	var out []KeyValue
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for item := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		key, kerr := url.PathUnescape(strings.TrimSpace(k))
		val, verr := url.PathUnescape(strings.TrimSpace(v))
		if !ok || key == "" || kerr != nil || verr != nil {
			return nil, fmt.Errorf("%s: %q is not key=value (percent-encode ',' and '=' in values)", name, strings.TrimSpace(item))
		}
		out = append(out, KeyValue{key, val})
	}
	return out, nil
}
