package otlpexport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Sender ships batches of records with one of the official OpenTelemetry
// Go log exporters (grpc, http/protobuf), or, for http/json, which those
// exporters do not offer, with [JSONExporter]. The exporters' own retries
// are off: [Export] retries, so that it can bound memory and give up.
type Sender struct {
	exp      sdklog.Exporter
	protocol string
	last     *lastAnswer // last HTTP answer seen, http/protobuf only
}

// NewSender makes the exporter cfg names. Nothing is dialled yet.
func NewSender(ctx context.Context, cfg Config) (*Sender, error) {
	s := &Sender{protocol: cfg.Protocol}
	var err error
	switch cfg.Protocol {
	case GRPC:
		s.exp, err = otlploggrpc.New(ctx,
			otlploggrpc.WithEndpointURL(cfg.Endpoint.String()),
			otlploggrpc.WithHeaders(cfg.Headers),
			otlploggrpc.WithTimeout(cfg.Timeout),
			otlploggrpc.WithRetry(otlploggrpc.RetryConfig{Enabled: false}))
	case HTTPProtobuf:
		s.last = &lastAnswer{}
		client := &http.Client{Timeout: cfg.Timeout, Transport: statusRecorder{base: http.DefaultTransport.(*http.Transport).Clone(), last: s.last}}
		s.exp, err = otlploghttp.New(ctx,
			otlploghttp.WithEndpointURL(cfg.Endpoint.String()),
			otlploghttp.WithHeaders(cfg.Headers),
			otlploghttp.WithTimeout(cfg.Timeout),
			otlploghttp.WithHTTPClient(client),
			otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false}))
	case HTTPJSON:
		s.exp = NewJSONExporter(cfg)
	default:
		err = fmt.Errorf("unknown OTLP protocol %q", cfg.Protocol)
	}
	if err != nil {
		return nil, fmt.Errorf("otlp %s exporter: %w", cfg.Protocol, err)
	}
	return s, nil
}

// Close shuts the exporter down.
func (s *Sender) Close(ctx context.Context) error { return s.exp.Shutdown(ctx) }

// Outcome is what became of a batch.
type Outcome int

// The outcomes of Send.
const (
	// Delivered: the collector accepted the batch (Partial of it may have
	// been rejected, see PartialError).
	Delivered Outcome = iota
	// Rejected: the collector refused the batch as bad (HTTP 4xx, grpc
	// InvalidArgument): sending it again cannot succeed.
	Rejected
	// Misconfigured: the request itself is wrong (auth, path, protocol:
	// HTTP 401, 403, 404, 405, 415; grpc Unauthenticated, PermissionDenied,
	// Unimplemented, NotFound); nothing is skipped, the user must act.
	Misconfigured
	// Retry: the collector is down, overloaded or failed (connection
	// errors, 5xx, 408, 429, grpc Unavailable, ...).
	Retry
)

// Send exports recs and classifies the result. err is nil only when
// Delivered without a partial rejection; on Delivered with err set, err is a
// *PartialError.
func (s *Sender) Send(ctx context.Context, recs []sdklog.Record) (Outcome, error) {
	if s.last != nil {
		s.last.set(nil)
	}
	err := s.exp.Export(ctx, recs)
	if err == nil {
		return Delivered, nil
	}
	if p := partial(err); p != nil {
		return Delivered, p
	}
	if ctx.Err() != nil {
		return Retry, ctx.Err()
	}
	var he *HTTPError
	switch {
	case errors.As(err, &he):
		return classifyHTTP(he.Code), err
	case s.last != nil && s.last.get() != nil:
		he := s.last.get()
		return classifyHTTP(he.Code), he
	case s.protocol == GRPC:
		st, _ := status.FromError(err)
		if st.Code() == codes.ResourceExhausted && strings.Contains(st.Message(), "larger than max") {
			return Rejected, err // too big: as HTTP 413, split the batch
		}
		return classifyGRPC(st.Code()), err
	}
	return Retry, err
}

// classifyHTTP follows the OTLP/HTTP specification: 429, 502, 503 and 504
// are retryable; any other 4xx is a rejection (except the ones that mean
// the request, not the data, is wrong); other 5xx are retried too, since
// skipping entries for a collector's internal error would lose them.
func classifyHTTP(code int) Outcome {
	switch {
	case code >= 200 && code < 300:
		return Delivered
	case code == 401, code == 403, code == 404, code == 405, code == 407, code == 415:
		return Misconfigured
	case code == 408, code == 429:
		return Retry
	case code >= 400 && code < 500:
		return Rejected
	}
	return Retry
}

// classifyGRPC mirrors classifyHTTP for grpc status codes.
func classifyGRPC(c codes.Code) Outcome {
	switch c {
	case codes.OK:
		return Delivered
	case codes.InvalidArgument, codes.FailedPrecondition, codes.AlreadyExists:
		return Rejected
	case codes.Unauthenticated, codes.PermissionDenied, codes.Unimplemented, codes.NotFound:
		return Misconfigured
	}
	return Retry
}

// lastAnswer holds the last HTTP error answer a statusRecorder saw.
type lastAnswer struct {
	mu sync.Mutex
	he *HTTPError
}

func (l *lastAnswer) set(he *HTTPError) { l.mu.Lock(); l.he = he; l.mu.Unlock() }

func (l *lastAnswer) get() *HTTPError { l.mu.Lock(); defer l.mu.Unlock(); return l.he }

// statusRecorder keeps the status and the message of the last HTTP error
// answer, which the official http exporter folds into an error string
// (with the protobuf body as raw bytes).
type statusRecorder struct {
	base http.RoundTripper
	last *lastAnswer
}

// RoundTrip sends req and records an error answer; the body stays
// readable for the exporter.
func (r statusRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	if resp != nil && (resp.StatusCode < 200 || resp.StatusCode > 299) {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		msg := strings.TrimSpace(protoAnswer(resp.Header.Get("Content-Type"), body))
		if msg == "" {
			msg = "(empty)"
		}
		r.last.set(&HTTPError{Code: resp.StatusCode, Status: resp.Status, Body: msg})
	}
	return resp, err
}

// PartialError reports records the collector accepted the batch of but
// rejected individually (OTLP partial success).
type PartialError struct {
	Rejected int64
	Message  string
}

// Error says how many records were rejected, and why.
func (p *PartialError) Error() string {
	return fmt.Sprintf("collector rejected %d records of the batch: %s", p.Rejected, p.Message)
}

// partialRe matches the official exporters' partial-success error text
// ("OTLP partial success: <msg> (<n> logs rejected)"); their error type is
// internal.
var partialRe = regexp.MustCompile(`OTLP partial success: (.*) \((\d+) logs? rejected\)`)

func partial(err error) *PartialError {
	var p *PartialError
	if errors.As(err, &p) {
		return p
	}
	m := partialRe.FindStringSubmatch(err.Error())
	if m == nil || strings.Contains(err.Error(), "\n") {
		// errors.Join puts a real failure on another line: not partial.
		return nil
	}
	n, _ := strconv.ParseInt(m[2], 10, 64)
	return &PartialError{Rejected: n, Message: m[1]}
}
