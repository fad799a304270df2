// Package otlptest runs the OpenTelemetry Collector's own OTLP receiver
// (go.opentelemetry.io/collector/receiver/otlpreceiver) in a test binary,
// with a sink that keeps what it received. It is for tests only: the
// receiver's modules must stay out of every shipped binary but hwctl's
// tests.
package otlptest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/client"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/config/configgrpc"
	"go.opentelemetry.io/collector/config/configoptional"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/receiver/receivertest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Record is one log record as the receiver handed it to the pipeline,
// flattened for assertions.
type Record struct {
	EventName string
	Severity  int32
	SevText   string
	Body      string
	Time      time.Time
	Attrs     map[string]any // string, int64 or []any
	Resource  map[string]any
	Scope     string
	Header    string // the X-Test-Header metadata of the request, if any
}

// Str returns a string attribute ("" when absent).
func (r Record) Str(key string) string { s, _ := r.Attrs[key].(string); return s }

// Sink is the consumer behind the receiver.
type Sink struct {
	mu      sync.Mutex
	records []Record
	// Reject, when set, refuses a whole request (as a backend that finds
	// it bad would) if it returns true for any record in it: the receiver
	// answers grpc InvalidArgument / HTTP 400.
	Reject func(Record) bool
	// Delay, when set, slows each request down, so that a test can stop
	// the receiver while a stream of batches is under way.
	Delay time.Duration
	// Unavailable, when set, fails every request as a collector whose
	// pipeline is down: grpc Unavailable / HTTP 503.
	Unavailable bool
}

// Records returns a copy of what was received so far.
func (s *Sink) Records() []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Record(nil), s.records...)
}

// Len is how many records were received so far.
func (s *Sink) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.records)
}

func (s *Sink) consume(ctx context.Context, ld plog.Logs) error {
	time.Sleep(s.Delay)
	var got []Record
	header := strings.Join(client.FromContext(ctx).Metadata.Get("x-test-header"), ",")
	for i := 0; i < ld.ResourceLogs().Len(); i++ {
		rl := ld.ResourceLogs().At(i)
		res := rl.Resource().Attributes().AsRaw()
		for j := 0; j < rl.ScopeLogs().Len(); j++ {
			sl := rl.ScopeLogs().At(j)
			for k := 0; k < sl.LogRecords().Len(); k++ {
				lr := sl.LogRecords().At(k)
				got = append(got, Record{
					EventName: lr.EventName(), Severity: int32(lr.SeverityNumber()), SevText: lr.SeverityText(),
					Body: lr.Body().AsString(), Time: lr.Timestamp().AsTime(), Attrs: lr.Attributes().AsRaw(),
					Resource: res, Scope: sl.Scope().Name(), Header: header,
				})
			}
		}
	}
	if s.Unavailable {
		return status.Error(codes.Unavailable, "test sink is unavailable")
	}
	if s.Reject != nil {
		for _, r := range got {
			if s.Reject(r) {
				return status.Error(codes.InvalidArgument, "test sink rejects record "+r.Str("hookwright.record_id"))
			}
		}
	}
	s.mu.Lock()
	s.records = append(s.records, got...)
	s.mu.Unlock()
	return nil
}

// Receiver is a running OTLP receiver.
type Receiver struct {
	Protocol string // "grpc" or "http"
	Addr     string // host:port
	Sink     *Sink
	r        receiver.Logs
}

// FreeAddr returns a 127.0.0.1 address with a port free right now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Start runs the collector's OTLP receiver for protocol ("grpc" or "http",
// which takes both http/protobuf and http/json) on addr, feeding sink. It
// is stopped when the test ends, or earlier with Stop.
func Start(t testing.TB, protocol, addr string, sink *Sink) *Receiver {
	t.Helper()
	f := otlpreceiver.NewFactory()
	cfg := f.CreateDefaultConfig().(*otlpreceiver.Config)
	switch protocol {
	case "grpc":
		g := cfg.Protocols.GRPC.GetOrInsertDefault()
		g.NetAddr.Endpoint = addr
		g.IncludeMetadata = true
		cfg.Protocols.HTTP = configoptional.None[otlpreceiver.HTTPConfig]()
	case "http":
		h := cfg.Protocols.HTTP.GetOrInsertDefault()
		h.ServerConfig.NetAddr.Endpoint = addr
		h.ServerConfig.IncludeMetadata = true
		cfg.Protocols.GRPC = configoptional.None[configgrpc.ServerConfig]()
	default:
		t.Fatalf("otlptest: unknown protocol %q", protocol)
	}
	return start(t, f, cfg, protocol, addr, sink)
}

// StartConf runs the receiver configured by c, the "receivers::otlp"
// section of a collector configuration, as the collector would load it.
func StartConf(t testing.TB, c *confmap.Conf, sink *Sink) *Receiver {
	t.Helper()
	f := otlpreceiver.NewFactory()
	cfg := f.CreateDefaultConfig().(*otlpreceiver.Config)
	if err := c.Unmarshal(cfg); err != nil {
		t.Fatalf("otlptest: the receiver configuration does not load: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("otlptest: the receiver configuration is invalid: %v", err)
	}
	return start(t, f, cfg, "", "", sink)
}

func start(t testing.TB, f receiver.Factory, cfg *otlpreceiver.Config, protocol, addr string, sink *Sink) *Receiver {
	t.Helper()
	next, err := consumer.NewLogs(sink.consume)
	if err != nil {
		t.Fatal(err)
	}
	// The port may still be held by a receiver just stopped: retry briefly.
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := f.CreateLogs(context.Background(), receivertest.NewNopSettings(f.Type()), cfg, next)
		if err != nil {
			t.Fatal(err)
		}
		err = r.Start(context.Background(), componenttest.NewNopHost())
		if err == nil {
			rec := &Receiver{Protocol: protocol, Addr: addr, Sink: sink, r: r}
			t.Cleanup(rec.Stop)
			return rec
		}
		r.Shutdown(context.Background())
		if time.Now().After(deadline) {
			t.Fatalf("otlptest: starting the receiver (%s %s): %v", protocol, addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop shuts the receiver down; further calls do nothing.
func (r *Receiver) Stop() {
	if r.r == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.r.Shutdown(ctx); err != nil {
		panic(fmt.Sprintf("otlptest: stopping the receiver: %v", err))
	}
	r.r = nil
}

// URL is the receiver's base URL, for OTEL_EXPORTER_OTLP_ENDPOINT.
func (r *Receiver) URL() string { return "http://" + r.Addr }

// IDs returns the record ids (hookwright.record_id) in records, in order.
func IDs(records []Record) []string {
	out := make([]string, 0, len(records))
	for _, r := range records {
		out = append(out, r.Str("hookwright.record_id"))
	}
	return out
}

// Limit runs an HTTP front for rcv (an "http" receiver) on a free port of
// its own: a request whose body is larger than maxBody is answered 413
// with a message, as a collector behind a proxy with a body limit does;
// every other request goes to the receiver unchanged. It returns the
// front's base URL, for OTEL_EXPORTER_OTLP_ENDPOINT.
func Limit(t testing.TB, rcv *Receiver, maxBody int64) string {
	t.Helper()
	target, err := url.Parse(rcv.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if int64(len(body)) > maxBody {
			http.Error(w, fmt.Sprintf("test front takes at most %d bytes per request", maxBody), http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
