package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/store"
)

// serve starts a Server on a fresh project and returns its URL.
func serve(t *testing.T, project, token string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := store.Open(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Store: st, Token: token, Loopback: true, Poll: 10 * time.Millisecond}
	go s.Run(ctx)
	ts := httptest.NewUnstartedServer(s.Handler())
	ts.Config.BaseContext = func(net.Listener) context.Context { return ctx } // ends open streams
	ts.Start()
	t.Cleanup(func() { cancel(); ts.Close(); st.Close() })
	return ts.URL
}

func get(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	if len(header) == 1 {
		req.Host = header[0]
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func hook(t *testing.T, project, event, decision string) {
	t.Helper()
	if err := journal.Append(project, journal.Entry{Time: time.Now(), Session: "web1", Event: event, Tool: "Bash", Decision: decision, Reason: "r-" + event}); err != nil {
		t.Fatal(err)
	}
}

func TestAPIAndBadParameters(t *testing.T) {
	p := t.TempDir()
	hook(t, p, "PreToolUse", "block")
	hook(t, p, "PostToolUse", "")
	url := serve(t, p, "")
	time.Sleep(50 * time.Millisecond)
	code, body := get(t, url+"/api/events?decision=block&since=24h")
	var page struct{ Events []store.Event }
	if code != 200 || json.Unmarshal([]byte(body), &page) != nil || len(page.Events) != 1 || page.Events[0].Reason != "r-PreToolUse" {
		t.Fatalf("api/events: %d %s", code, body)
	}
	code, body = get(t, url+"/api/events?kind=block")
	if code != 200 || json.Unmarshal([]byte(body), &page) != nil || len(page.Events) != 1 || page.Events[0].Kind != "block" {
		t.Fatalf("api/events?kind=block: %d %s", code, body)
	}
	for _, q := range []string{"/api/events?kind=nope", "/api/events?limit=x", "/api/events?since=soon", "/api/events?nope=1", "/api/events?limit=5000",
		"/api/events?event=a&event=b", "/api/sessions?decision=block", "/api/team?x=1", "/events?limit=3", "/events?before=x"} {
		code, body := get(t, url+q)
		if code != 400 || strings.Count(strings.TrimSpace(body), "\n") != 0 || body == "" {
			t.Errorf("%s: %d %q, want 400 and one line", q, code, body)
		}
	}
	for _, path := range []string{"/", "/app.js", "/style.css", "/api/sessions", "/api/pdca", "/api/work", "/api/team", "/api/counts"} {
		if code, body := get(t, url+path); code != 200 || body == "" {
			t.Errorf("%s: %d", path, code)
		}
	}
	if code, _ := get(t, url+"/api/events", "evil.example:80"); code != 403 {
		t.Errorf("a foreign Host header: %d, want 403", code)
	}
}

func TestToken(t *testing.T) {
	url := serve(t, t.TempDir(), "s3cret")
	if code, body := get(t, url+"/api/team"); code != 401 || !strings.Contains(body, "token") {
		t.Fatalf("no token: %d %q", code, body)
	}
	if code, _ := get(t, url+"/api/team", "Authorization", "Bearer wrong"); code != 401 {
		t.Fatalf("wrong token: %d", code)
	}
	if code, _ := get(t, url+"/api/team", "Authorization", "Bearer s3cret"); code != 200 {
		t.Fatalf("bearer: %d", code)
	}
	if code, _ := get(t, url+"/?token=s3cret"); code != 200 {
		t.Fatalf("query token: %d", code)
	}
}

// sse reads one stream's messages into a channel.
type sse struct {
	resp *http.Response
	msgs chan [2]string // id, data
}

func openSSE(t *testing.T, url, lastID string) *sse {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &sse{resp: resp, msgs: make(chan [2]string, 100)}
	go func() {
		sc := bufio.NewScanner(resp.Body)
		var id, data string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				id = line[4:]
			case strings.HasPrefix(line, "data: "):
				data = line[6:]
			case line == "" && data != "":
				s.msgs <- [2]string{id, data}
				id, data = "", ""
			}
		}
		close(s.msgs)
	}()
	return s
}

func (s *sse) next(t *testing.T, within time.Duration) (string, store.Event) {
	t.Helper()
	select {
	case m, ok := <-s.msgs:
		if !ok {
			t.Fatal("stream ended")
		}
		var e store.Event
		if err := json.Unmarshal([]byte(m[1]), &e); err != nil {
			t.Fatal(err)
		}
		return m[0], e
	case <-time.After(within):
		t.Fatalf("no message within %s", within)
	}
	return "", store.Event{}
}

func (s *sse) quiet(t *testing.T) {
	t.Helper()
	select {
	case m := <-s.msgs:
		t.Fatalf("unexpected message %v", m)
	case <-time.After(200 * time.Millisecond):
	}
}

func TestEventStreamLiveAndResume(t *testing.T) {
	p := t.TempDir()
	hook(t, p, "SessionStart", "")
	url := serve(t, p, "")
	time.Sleep(50 * time.Millisecond)
	// A new stream starts with the next new event.
	s := openSSE(t, url+"/events", "")
	s.quiet(t)
	hook(t, p, "PreToolUse", "block")
	id1, e := s.next(t, time.Second)
	if e.Event != "PreToolUse" || e.Decision != "block" || id1 != e.Line {
		t.Fatalf("first message: %s %+v", id1, e)
	}
	s.resp.Body.Close()
	// Missed while disconnected: two events; resuming gets exactly those.
	hook(t, p, "PostToolUse", "")
	hook(t, p, "Stop", "")
	r := openSSE(t, url+"/events", id1)
	_, a := r.next(t, time.Second)
	_, b := r.next(t, time.Second)
	if a.Event != "PostToolUse" || b.Event != "Stop" {
		t.Fatalf("resumed with %s, %s", a.Event, b.Event)
	}
	r.quiet(t)
	// A filtered stream from the start: after=0.
	f := openSSE(t, url+"/events?event=PreToolUse&after=0", "")
	if _, e := f.next(t, time.Second); e.Event != "PreToolUse" {
		t.Fatalf("filtered: %+v", e)
	}
	f.quiet(t)
	if code, body := get(t, url+"/events", "Last-Event-ID", "2026-01-01.jsonl:999"); code != 400 || !strings.Contains(body, "Last-Event-ID") {
		t.Fatalf("unknown Last-Event-ID: %d %q", code, body)
	}
}
