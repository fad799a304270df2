package modelapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// DoneText is the answer of a lane whose scripted turns have run out.
const DoneText = "done."

// WaitText is the answer of a lane whose next turn waits for a text no
// request has carried yet (see [Turn.WaitFor]).
const WaitText = "waiting."

// SideText is the answer to every side request.
const SideText = "Scripted session"

// maxBody caps the request bodies the server reads.
const maxBody = 64 << 20

// Server is a running scripted stand-in. Create it with [New], set LogDir if
// wanted, then call [Server.Start]. It is safe for concurrent requests.
type Server struct {
	// LogDir, when set before Start, receives every request body as
	// NNNN-<kind>.json (kind is main, side, lane-<n>, count_tokens or other).
	LogDir string

	script  Script
	markers []string
	srv     *httptest.Server

	mu       sync.Mutex
	lanes    map[string]*lane
	requests []Request
	results  []ToolResult
	seen     map[string]bool
}

// Request is the record of one request the server received.
type Request struct {
	// Seq is the 1-based arrival number over all requests.
	Seq int
	// Path is the URL path.
	Path string
	// Kind is "main" for a main-conversation request, "lane" for a marked
	// lane, "side" for a side request, and "other" for anything else.
	Kind string
	// Marker is the lane marker, "" for the main lane.
	Marker string
	// Model is the requested model.
	Model string
	// Turn is the script index of the turn served, -1 for none (side
	// requests, "done." answers and other paths).
	Turn int
	// Body is the raw request body.
	Body []byte
}

// ToolResult is one tool_result block Claude Code sent back to the model.
type ToolResult struct {
	// ToolUseID is the id of the tool_use it answers.
	ToolUseID string
	// Turn is the script index of the turn that issued the tool_use, -1 if
	// the id is not one the server issued.
	Turn int
	// Content is the text of the result.
	Content string
	// IsError reports the block's is_error flag; a blocking hook's reason
	// arrives with it set.
	IsError bool
}

// New returns a server for script. It does not listen until Start.
func New(script Script) *Server {
	return &Server{script: script, markers: script.markers(), lanes: map[string]*lane{}, seen: map[string]bool{}}
}

// Start listens on 127.0.0.1 on a free port.
func (s *Server) Start() {
	if s.LogDir != "" {
		_ = os.MkdirAll(s.LogDir, 0o755) // a failed mkdir shows up as missing logs
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
}

// URL returns the base URL, e.g. http://127.0.0.1:41234, for
// ANTHROPIC_BASE_URL.
func (s *Server) URL() string { return s.srv.URL }

// Close shuts the server down and blocks until in-flight requests finish.
func (s *Server) Close() {
	if s.srv != nil {
		s.srv.CloseClientConnections()
		s.srv.Close()
	}
}

// Requests returns a copy of every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ToolResults returns every distinct tool_result (by tool_use id) seen in
// conversation requests, in arrival order.
func (s *Server) ToolResults() []ToolResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ToolResult(nil), s.results...)
}

// Finished reports whether every lane of the script has served all its
// turns. A lane no request reached yet is not finished. An interactive
// session never exits by itself; a driver polls this to know when the
// script has played out.
func (s *Server) Finished() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range append([]string{""}, s.markers...) {
		turns, _ := s.script.lane(m)
		if len(turns) == 0 {
			continue
		}
		l, ok := s.lanes[m]
		if !ok || l.pos < len(l.turns) {
			return false
		}
	}
	return true
}

// ToolResultFor returns the tool_result answering the tool call of script
// turn i.
func (s *Server) ToolResultFor(i int) (ToolResult, bool) {
	for _, r := range s.ToolResults() {
		if r.Turn == i {
			return r, true
		}
	}
	return ToolResult{}, false
}

// serveHTTP routes one request.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.serveMessages(w, body)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		s.record(Request{Path: r.URL.Path, Kind: "count_tokens", Turn: -1, Body: body})
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": 1 + len(body)/4})
	default:
		s.record(Request{Path: r.URL.Path, Kind: "other", Turn: -1, Body: body})
		writeError(w, http.StatusNotFound, "not_found_error", "modelapi: no scripted answer for "+r.Method+" "+r.URL.Path)
	}
}

// serveMessages answers POST /v1/messages.
func (s *Server) serveMessages(w http.ResponseWriter, body []byte) {
	req, err := parseRequest(body)
	if err != nil {
		s.record(Request{Path: "/v1/messages", Kind: "other", Turn: -1, Body: body})
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	msg, rec := s.answer(req)
	rec.Path, rec.Model, rec.Body = "/v1/messages", req.Model, body
	s.record(rec)
	if !req.Stream {
		data, err := msg.JSON()
		if err != nil {
			writeError(w, http.StatusInternalServerError, "api_error", err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(data) // the client went away; nothing to do
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_ = msg.writeSSE(w) // the client went away; nothing to do
}

// answer picks the reply for req and returns it with a partial record.
func (s *Server) answer(req request) (reply, Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.isSide() {
		return reply{ID: s.msgID(), Model: req.Model, Text: SideText, StopReason: "end_turn"}, Request{Kind: "side", Turn: -1}
	}
	marker := req.lane(s.markers)
	s.collect(req)
	l := s.lane(marker)
	msg, turn := l.next(req)
	msg.ID, msg.Model = s.msgID(), req.Model
	kind := "main"
	if marker != "" {
		kind = "lane"
	}
	return msg, Request{Kind: kind, Marker: marker, Turn: turn}
}

// lane returns the lane for marker, creating it on first use.
func (s *Server) lane(marker string) *lane {
	if l, ok := s.lanes[marker]; ok {
		return l
	}
	turns, index := s.script.lane(marker)
	l := &lane{turns: turns, index: index, served: -1}
	s.lanes[marker] = l
	return l
}

// collect records the tool_result blocks of req not seen before.
func (s *Server) collect(req request) {
	for _, tr := range req.toolResults() {
		if s.seen[tr.ToolUseID] {
			continue
		}
		s.seen[tr.ToolUseID] = true
		tr.Turn = turnOfID(tr.ToolUseID)
		s.results = append(s.results, tr)
	}
}

// msgID returns a fresh message id. Callers hold s.mu.
func (s *Server) msgID() string { return fmt.Sprintf("msg_hw_%04d", len(s.requests)+1) }

// record appends rec and logs its body. It numbers rec.
func (s *Server) record(rec Request) {
	s.mu.Lock()
	rec.Seq = len(s.requests) + 1
	s.requests = append(s.requests, rec)
	s.mu.Unlock()
	if s.LogDir == "" {
		return
	}
	kind := rec.Kind
	if rec.Marker != "" {
		kind = "lane-" + sanitize(rec.Marker)
	}
	name := filepath.Join(s.LogDir, fmt.Sprintf("%04d-%s.json", rec.Seq, kind))
	_ = os.WriteFile(name, rec.Body, 0o644) // debugging aid only
}

// sanitize keeps a marker usable in a file name.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// writeJSON writes v as a JSON response.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v) // the client went away; nothing to do
}

// writeError writes an API-shaped error response.
func writeError(w http.ResponseWriter, code int, typ, msg string) {
	writeJSON(w, code, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}
