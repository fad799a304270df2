package otlpexport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	collogspb "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// maxResponse bounds what is read of a collector's answer.
const maxResponse = 64 << 10

// JSONExporter is an sdklog.Exporter for OTLP/HTTP with JSON encoding
// (http/json), which the official Go log exporters do not offer: it builds
// the request with the official OTLP protobuf types and encodes it with
// protojson, as the OTLP specification asks (enums as numbers, lowerCamelCase
// field names).
type JSONExporter struct {
	client  *http.Client
	url     string
	headers map[string]string
}

// NewJSONExporter makes the http/json exporter for cfg.
func NewJSONExporter(cfg Config) *JSONExporter {
	return &JSONExporter{client: &http.Client{Timeout: cfg.Timeout}, url: cfg.Endpoint.String(), headers: cfg.Headers}
}

// HTTPError is a collector's non-2xx answer.
type HTTPError struct {
	Code   int
	Status string
	Body   string
}

// Error is the status and the collector's answer, on one line.
func (e *HTTPError) Error() string {
	return fmt.Sprintf("collector answered %s: %s", e.Status, e.Body)
}

// Export posts recs as one ExportLogsServiceRequest.
func (e *JSONExporter) Export(ctx context.Context, recs []sdklog.Record) error {
	if len(recs) == 0 {
		return nil
	}
	body, err := protojson.MarshalOptions{UseEnumNumbers: true}.Marshal(&collogspb.ExportLogsServiceRequest{ResourceLogs: ResourceLogs(recs)})
	if err != nil {
		return fmt.Errorf("encoding OTLP/JSON: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range e.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		text := strings.Join(strings.Fields(string(answer)), " ")
		if text == "" {
			text = "(empty)"
		}
		return &HTTPError{Code: resp.StatusCode, Status: resp.Status, Body: text}
	}
	var out collogspb.ExportLogsServiceResponse
	if len(answer) > 0 && (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(answer, &out) == nil {
		if ps := out.GetPartialSuccess(); ps != nil && (ps.GetRejectedLogRecords() != 0 || ps.GetErrorMessage() != "") {
			return &PartialError{Rejected: ps.GetRejectedLogRecords(), Message: ps.GetErrorMessage()}
		}
	}
	return nil
}

// Shutdown closes idle connections.
func (e *JSONExporter) Shutdown(context.Context) error {
	e.client.CloseIdleConnections()
	return nil
}

// ForceFlush has nothing to flush: Export is synchronous.
func (*JSONExporter) ForceFlush(context.Context) error { return nil }

// ResourceLogs groups records by resource and scope into OTLP messages.
func ResourceLogs(recs []sdklog.Record) []*logspb.ResourceLogs {
	type scopeKey struct {
		res   attribute.Distinct
		scope instrumentation.Scope
	}
	var out []*logspb.ResourceLogs
	byRes := map[attribute.Distinct]*logspb.ResourceLogs{}
	byScope := map[scopeKey]*logspb.ScopeLogs{}
	for i := range recs {
		r := &recs[i]
		res := r.Resource()
		rk := res.Equivalent()
		rl, ok := byRes[rk]
		if !ok {
			rl = &logspb.ResourceLogs{Resource: &resourcepb.Resource{Attributes: keyValues(res.Attributes())}, SchemaUrl: res.SchemaURL()}
			byRes[rk] = rl
			out = append(out, rl)
		}
		scope := r.InstrumentationScope()
		sk := scopeKey{rk, scope}
		sl, ok := byScope[sk]
		if !ok {
			sl = &logspb.ScopeLogs{
				Scope:     &commonpb.InstrumentationScope{Name: scope.Name, Version: scope.Version, Attributes: keyValues(scope.Attributes.ToSlice())},
				SchemaUrl: scope.SchemaURL,
			}
			byScope[sk] = sl
			rl.ScopeLogs = append(rl.ScopeLogs, sl)
		}
		sl.LogRecords = append(sl.LogRecords, logRecord(r))
	}
	return out
}

func logRecord(r *sdklog.Record) *logspb.LogRecord {
	lr := &logspb.LogRecord{
		TimeUnixNano:         unixNano(r.Timestamp()),
		ObservedTimeUnixNano: unixNano(r.ObservedTimestamp()),
		EventName:            r.EventName(),
		SeverityNumber:       logspb.SeverityNumber(r.Severity()), // the API's numbers are OTLP's
		SeverityText:         r.SeverityText(),
		Body:                 anyValue(r.Body()),
	}
	r.WalkAttributes(func(kv attribute.KeyValue) bool {
		lr.Attributes = append(lr.Attributes, &commonpb.KeyValue{Key: string(kv.Key), Value: anyValue(kv.Value)})
		return true
	})
	return lr
}

func unixNano(t time.Time) uint64 {
	if t.IsZero() || t.UnixNano() < 0 {
		return 0
	}
	return uint64(t.UnixNano())
}

func keyValues(kvs []attribute.KeyValue) []*commonpb.KeyValue {
	out := make([]*commonpb.KeyValue, 0, len(kvs))
	for _, kv := range kvs {
		out = append(out, &commonpb.KeyValue{Key: string(kv.Key), Value: anyValue(kv.Value)})
	}
	return out
}

// anyValue converts the value types records carry; others are sent as
// their string form.
func anyValue(v attribute.Value) *commonpb.AnyValue {
	switch v.Type() {
	case attribute.EMPTY:
		return nil
	case attribute.BOOL:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: v.AsBool()}}
	case attribute.INT64:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: v.AsInt64()}}
	case attribute.FLOAT64:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: v.AsFloat64()}}
	case attribute.STRING:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v.AsString()}}
	case attribute.STRINGSLICE:
		ss := v.AsStringSlice()
		arr := &commonpb.ArrayValue{Values: make([]*commonpb.AnyValue, len(ss))}
		for i, s := range ss {
			arr.Values[i] = &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: s}}
		}
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: arr}}
	}
	return &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v.String()}}
}
