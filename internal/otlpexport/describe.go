package otlpexport

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"syscall"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// TimeoutError is a request that got no answer in time.
type TimeoutError struct{ After string }

// Error says how long the request waited.
func (e *TimeoutError) Error() string { return "timed out after " + e.After }

// describe names a failed request for the user: its status ("HTTP 400 Bad
// Request", "grpc Unavailable", "timed out after 2s", "connection
// refused") and the collector's own message, if any.
func describe(err error) (status_, answer string) {
	var he *HTTPError
	var te *TimeoutError
	switch {
	case err == nil:
		return "ok", ""
	case errors.As(err, &te):
		return te.Error(), ""
	case errors.As(err, &he):
		return "HTTP " + he.Status, answerText(he.Body)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", oneLine(err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out", ""
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out", oneLine(err.Error())
	}
	if st, ok := status.FromError(err); ok && st.Code() != codes.Unknown {
		msg := st.Message()
		switch {
		case st.Code() == codes.Unavailable && strings.Contains(msg, "connection refused"):
			return "connection refused", oneLine(msg)
		case st.Code() == codes.DeadlineExceeded:
			return "timed out", oneLine(msg)
		}
		return "grpc " + st.Code().String(), oneLine(msg)
	}
	if strings.Contains(err.Error(), "connection refused") {
		return "connection refused", oneLine(err.Error())
	}
	return "failed", oneLine(err.Error())
}

// name is describe's answer on one line.
func name(err error) string {
	s, a := describe(err)
	if a == "" {
		return s
	}
	return s + ": " + a
}

// answerText is the message of a collector's error body: the "message" of
// an OTLP/JSON google.rpc.Status, else the text itself.
func answerText(body string) string {
	var st struct {
		Message string `json:"message"`
	}
	if json.Unmarshal([]byte(body), &st) == nil && st.Message != "" {
		return oneLine(st.Message)
	}
	return oneLine(body)
}

// protoAnswer is the message of an OTLP/HTTP protobuf error body (a
// google.rpc.Status), else the body as text.
func protoAnswer(contentType string, body []byte) string {
	if strings.Contains(contentType, "protobuf") {
		var st spb.Status
		if proto.Unmarshal(body, &st) == nil {
			return st.GetMessage()
		}
	}
	return string(body)
}
