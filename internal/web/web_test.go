package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"regexp"
	"sort"
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
	if err := journal.Append(p, journal.Entry{Time: time.Now(), Session: "web1", Event: "PreToolUse", Tool: "Bash", Decision: "block", Handler: "guard", Rule: "git-force-push",
		Reason: "hookwright guard: no (rule git-force-push; `hwctl explain` shows how the guard read the call)"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	for q, want := range map[string]int{"rule=git-force-push": 1, "rule=Git-Force-Push&handler=guard": 1, "handler=guard": 1, "rule=database.drop": 0} {
		code, body = get(t, url+"/api/events?"+q)
		if code != 200 || json.Unmarshal([]byte(body), &page) != nil || len(page.Events) != want || want == 1 && page.Events[0].Rule != "git-force-push" {
			t.Errorf("api/events?%s: %d %s, want %d events", q, code, body, want)
		}
	}
	for _, q := range []string{"/api/events?rule=guard", "/api/events?rule=nope", "/api/events?kind=nope", "/api/events?limit=x", "/api/events?since=soon", "/api/events?nope=1", "/api/events?limit=5000",
		"/api/events?event=a&event=b", "/api/events?handler=nope", "/api/events?until=soon", "/api/sessions?decision=block", "/api/sessions?q=x", "/api/team?x=1", "/events?limit=3", "/events?before=x"} {
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
	msgs chan [3]string // event, id, data
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
	t.Cleanup(func() { resp.Body.Close() })
	s := &sse{resp: resp, msgs: make(chan [3]string, 1000)}
	go func() {
		sc := bufio.NewScanner(resp.Body)
		var ev, id, data string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev = line[7:]
			case strings.HasPrefix(line, "id: "):
				id = line[4:]
			case strings.HasPrefix(line, "data: "):
				data = line[6:]
			case line == "" && data != "":
				s.msgs <- [3]string{ev, id, data}
				ev, id, data = "", "", ""
			}
		}
		close(s.msgs)
	}()
	return s
}

// message returns the next message of any kind: its event name, id and
// data.
func (s *sse) message(t *testing.T, within time.Duration) (ev, id, data string) {
	t.Helper()
	select {
	case m, ok := <-s.msgs:
		if !ok {
			t.Fatal("stream ended")
		}
		return m[0], m[1], m[2]
	case <-time.After(within):
		t.Fatalf("no message within %s", within)
	}
	return
}

// store reads the stream's first message, which names the store.
func (s *sse) store(t *testing.T) string {
	t.Helper()
	ev, _, data := s.message(t, 30*time.Second)
	var m struct{ Store string }
	if ev != "store" || json.Unmarshal([]byte(data), &m) != nil || m.Store == "" {
		t.Fatalf("first message %q %q; want the store's identity", ev, data)
	}
	return m.Store
}

// next returns the next hook message.
func (s *sse) next(t *testing.T, within time.Duration) (string, store.Event) {
	t.Helper()
	ev, id, data := s.message(t, within)
	if ev != "hook" {
		t.Fatalf("message %q %q, want a hook", ev, data)
	}
	var e store.Event
	if err := json.Unmarshal([]byte(data), &e); err != nil {
		t.Fatal(err)
	}
	return id, e
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
	waitEvents(t, url, 1)
	// A new stream names its store, sends the backlog, then each new event.
	s := openSSE(t, url+"/events", "")
	sid := s.store(t)
	if _, e := s.next(t, 30*time.Second); e.Event != "SessionStart" {
		t.Fatalf("backlog: %+v", e)
	}
	s.quiet(t)
	hook(t, p, "PreToolUse", "block")
	id1, e := s.next(t, 30*time.Second)
	if e.Event != "PreToolUse" || e.Decision != "block" || id1 != sid+"/"+e.Line {
		t.Fatalf("first message: %s %+v", id1, e)
	}
	s.resp.Body.Close()
	// Missed while disconnected: two events; resuming gets exactly those.
	hook(t, p, "PostToolUse", "")
	hook(t, p, "Stop", "")
	r := openSSE(t, url+"/events", id1)
	r.store(t)
	_, a := r.next(t, 30*time.Second)
	_, b := r.next(t, 30*time.Second)
	if a.Event != "PostToolUse" || b.Event != "Stop" {
		t.Fatalf("resumed with %s, %s", a.Event, b.Event)
	}
	r.quiet(t)
	// A filtered stream from the start: after=0.
	f := openSSE(t, url+"/events?event=PreToolUse&after=0", "")
	f.store(t)
	if _, e := f.next(t, 30*time.Second); e.Event != "PreToolUse" {
		t.Fatalf("filtered: %+v", e)
	}
	f.quiet(t)
	if code, body := get(t, url+"/events", "Last-Event-ID", sid+"/2026-01-01.jsonl:999"); code != 400 || !strings.Contains(body, "Last-Event-ID") {
		t.Fatalf("unknown Last-Event-ID: %d %q", code, body)
	}
}

// TestStreamBacklogIsBounded: a stream without a position sends the newest
// Backlog events, then live ones; a position far behind (after=0, an old
// Last-Event-ID) is bounded the same way, with a gap message saying what
// the paged API holds.
func TestStreamBacklogIsBounded(t *testing.T) {
	p := t.TempDir()
	total := Backlog + 150
	t0 := time.Now().Add(-time.Hour)
	for i := range total {
		if err := journal.Append(p, journal.Entry{Time: t0.Add(time.Duration(i) * time.Millisecond), Session: "big", Event: "PreToolUse", Tool: "Bash"}); err != nil {
			t.Fatal(err)
		}
	}
	url := serve(t, p, "")
	waitEvents(t, url, total)
	var firstLine string
	for _, c := range []struct{ path, lastID string }{{"/events", ""}, {"/events?after=0", ""}, {"/events", "first"}} {
		s := openSSE(t, url+c.path, strings.ReplaceAll(c.lastID, "first", firstLine))
		sid := s.store(t)
		if c.path == "/events" && c.lastID == "" {
			// learn the oldest line's id for the resume case
			code, body := get(t, url+"/api/events?before=2&limit=1")
			var page struct{ Events []store.Event }
			if code != 200 || json.Unmarshal([]byte(body), &page) != nil || len(page.Events) != 1 || page.Events[0].ID != 1 {
				t.Fatalf("first event: %d %s", code, body)
			}
			firstLine = sid + "/" + page.Events[0].Line
		}
		if c.path != "/events" || c.lastID != "" {
			ev, _, data := s.message(t, 30*time.Second)
			if ev != "gap" || !strings.Contains(data, `"skipped":`) {
				t.Fatalf("%s %s: %q %q, want a gap first", c.path, c.lastID, ev, data)
			}
		}
		for i := range Backlog {
			_, e := s.next(t, 30*time.Second)
			if want := int64(total - Backlog + 1 + i); e.ID != want {
				t.Fatalf("%s %s: backlog message %d is event %d, want %d", c.path, c.lastID, i, e.ID, want)
			}
		}
		s.quiet(t)
		s.resp.Body.Close()
	}
}

// TestStreamStartsOverOnARebuiltStore: a client that reconnects, with its
// Last-Event-ID, to a server on a rebuilt store (new identity, new row
// ids) is told the new identity and gets the backlog from the new store,
// not a resume in ids of the old one.
func TestStreamStartsOverOnARebuiltStore(t *testing.T) {
	p := t.TempDir()
	hook(t, p, "SessionStart", "")
	hook(t, p, "PreToolUse", "block")
	url := serve(t, p, "")
	waitEvents(t, url, 2)
	s := openSSE(t, url+"/events", "")
	old := s.store(t)
	s.next(t, 30*time.Second)
	last, _ := s.next(t, 30*time.Second)
	s.resp.Body.Close()

	p2 := t.TempDir() // the rebuilt store: another database, the same journal lines
	hook(t, p2, "SessionStart", "")
	hook(t, p2, "PreToolUse", "block")
	url2 := serve(t, p2, "")
	waitEvents(t, url2, 2)
	r := openSSE(t, url2+"/events?after=99", last)
	if sid := r.store(t); sid == old {
		t.Fatalf("same store id %q", sid)
	}
	if _, e := r.next(t, 30*time.Second); e.Event != "SessionStart" || e.ID != 1 {
		t.Fatalf("did not start over: %+v", e)
	}
}

// TestTokenCookiePerServer: a browser (one cookie jar, which ignores ports)
// opens two token dashboards on the same host; the second does not log the
// first out, and neither's cookie unlocks the other. The cookie is
// HttpOnly, SameSite=Strict, for Path=/, and named with its server's port.
func TestTokenCookiePerServer(t *testing.T) {
	a := serve(t, t.TempDir(), "token-of-server-a-0123")
	b := serve(t, t.TempDir(), "token-of-server-b-4567")
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	status := func(url string) int {
		t.Helper()
		resp, err := browser.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	resp, err := browser.Get(a + "/?token=token-of-server-a-0123")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(a, "http://"))
	var set *http.Cookie
	for _, c := range resp.Cookies() {
		set = c
	}
	if set == nil || set.Name != "hwctl_token_"+port || set.Path != "/" || !set.HttpOnly || set.SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v; want hwctl_token_%s, Path=/, HttpOnly, SameSite=Strict", set, port)
	}
	if code := status(a + "/api/counts"); code != 200 {
		t.Fatalf("a with its cookie: %d", code)
	}
	if code := status(b + "/api/counts"); code != 401 {
		t.Fatalf("b with a's cookie: %d", code)
	}
	if code := status(b + "/?token=token-of-server-b-4567"); code != 200 {
		t.Fatalf("b with its token: %d", code)
	}
	if code := status(a + "/api/counts"); code != 200 {
		t.Fatalf("a after b's login: %d (logged out)", code)
	}
	if code := status(b + "/api/counts"); code != 200 {
		t.Fatalf("b with its cookie: %d", code)
	}
}

// TestAPIFiltersSayNo: a value that names nothing is a 400 listing the
// accepted values; event spellings and session prefixes resolve.
func TestAPIFiltersSayNo(t *testing.T) {
	p := t.TempDir()
	hook(t, p, "PreToolUse", "block")
	hook(t, p, "PostToolUse", "")
	url := serve(t, p, "")
	waitEvents(t, url, 2)
	for q, want := range map[string]string{
		"/api/events?decision=maybe": "allow, ask, block, none",
		"/api/events?event=Nope":     "PreToolUse",
		"/api/events?tool=Bsh":       "Bash",
		"/api/events?session=zz":     "zz",
		"/events?decision=maybe":     "allow, ask, block, none",
	} {
		code, body := get(t, url+q)
		if code != 400 || !strings.Contains(body, want) {
			t.Errorf("%s: %d %q; want 400 naming %q", q, code, body, want)
		}
	}
	for q, n := range map[string]int{
		"/api/events?event=pre-tool-use": 1, "/api/events?session=web": 2, "/api/events?decision=none": 1, "/api/events?tool=bash": 2,
	} {
		code, body := get(t, url+q)
		var page struct{ Events []store.Event }
		if code != 200 || json.Unmarshal([]byte(body), &page) != nil || len(page.Events) != n {
			t.Errorf("%s: %d %s; want %d events", q, code, body, n)
		}
	}
}

// waitEvents waits until the server's store holds n events.
func waitEvents(t *testing.T, url string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, body := get(t, url+"/api/events?limit=1")
		var page struct{ Events []store.Event }
		if json.Unmarshal([]byte(body), &page) == nil && len(page.Events) == 1 && page.Events[0].ID >= int64(n) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the store never held %d events: %s", n, body)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAPIShowsTheSubjectRedacted: the API serves each call's subject with
// the same redaction as the journal and the OTLP export.
func TestAPIShowsTheSubjectRedacted(t *testing.T) {
	p := t.TempDir()
	if err := journal.Append(p, journal.Entry{Time: time.Now(), Session: "w", Event: "PreToolUse", Tool: "Bash", Subject: "DB_PASSWORD=hunter2 ./migrate"}); err != nil {
		t.Fatal(err)
	}
	url := serve(t, p, "")
	waitEvents(t, url, 1)
	code, body := get(t, url+"/api/events")
	if code != 200 || !strings.Contains(body, `"subject":"DB_PASSWORD=… ./migrate"`) || strings.Contains(body, "hunter2") {
		t.Fatalf("%d %s", code, body)
	}
}

// /api/events?q= searches the command, path and reason; FTS5 syntax in
// it is words, never an error.
func TestAPISearch(t *testing.T) {
	p := t.TempDir()
	for _, s := range []string{"git push --force", "/etc/passwd", `NEAR("x" *`} {
		if err := journal.Append(p, journal.Entry{Time: time.Now(), Session: "w", Event: "PreToolUse", Tool: "Bash", Subject: s}); err != nil {
			t.Fatal(err)
		}
	}
	url := serve(t, p, "")
	for q, want := range map[string]int{"git": 1, "passwd": 1, "near": 1, "%22": 0, "NEAR%28": 1, "%2A": 0, "git%20passwd": 0, "%22git%22%20OR%20%22passwd%22": 0} {
		var code int
		var page struct{ Events []store.Event }
		for deadline := time.Now().Add(10 * time.Second); ; {
			var body string
			code, body = get(t, url+"/api/events?q="+q)
			json.Unmarshal([]byte(body), &page)
			if code != 200 || len(page.Events) >= want || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if code != 200 || len(page.Events) != want {
			t.Errorf("q=%s: %d, %d events, want %d", q, code, len(page.Events), want)
		}
	}
}

// /api/activity: calls and blocks over time and hook durations per event,
// for the charts; it takes only since, until and session.
func TestAPIActivity(t *testing.T) {
	p := t.TempDir()
	hook(t, p, "PreToolUse", "block")
	hook(t, p, "PreToolUse", "")
	hook(t, p, "Stop", "")
	url := serve(t, p, "")
	var a store.Activity
	for deadline := time.Now().Add(10 * time.Second); ; {
		code, body := get(t, url+"/api/activity?since=1h")
		if code != 200 || json.Unmarshal([]byte(body), &a) != nil {
			t.Fatalf("%d %s", code, body)
		}
		if len(a.Durations) == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	var calls, blocks int64
	for _, b := range a.Buckets {
		calls += b.Calls
		blocks += b.Blocks
	}
	if calls != 3 || blocks != 1 || a.Step != 30 || len(a.Durations) != 2 || a.Durations[0].Event != "PreToolUse" || a.Durations[0].N != 2 {
		t.Fatalf("%+v", a)
	}
	for _, q := range []string{"?decision=block", "?q=x", "?since=soon", "?session=nope", "?since=1h&until=2h", "?limit=3"} {
		if code, body := get(t, url+"/api/activity"+q); code != 400 || body == "" {
			t.Errorf("%s: %d %q, want 400", q, code, body)
		}
	}
}

// The chart library is vendored unmodified at the version its note names,
// with its license, and the page loads it from the binary.
func TestVendoredUPlot(t *testing.T) {
	note, err := static.ReadFile("static/uplot/VERSION")
	if err != nil {
		t.Fatal(err)
	}
	js, _ := static.ReadFile("static/uplot/uPlot.iife.min.js")
	license, _ := static.ReadFile("static/uplot/LICENSE")
	css, _ := static.ReadFile("static/uplot/uPlot.min.css")
	version := strings.Fields(string(note))[1]
	if !strings.HasPrefix(string(js), "/*! https://github.com/leeoniya/uPlot (v"+version+") */") || !strings.Contains(string(license), "MIT License") || len(css) == 0 {
		t.Fatalf("uplot: note names %q; the script starts %q", version, js[:min(len(js), 60)])
	}
	url := serve(t, t.TempDir(), "")
	_, page := get(t, url+"/")
	for _, path := range []string{"uplot/uPlot.iife.min.js", "uplot/uPlot.min.css"} {
		if !strings.Contains(page, `"`+path+`"`) {
			t.Errorf("the page does not load %s", path)
		}
		if code, body := get(t, url+"/"+path); code != 200 || len(body) < 1000 {
			t.Errorf("%s: %d, %d bytes", path, code, len(body))
		}
	}
}

// /api/activity?since=fit: the range fits the calls, so that a short
// history fills the chart instead of one bar of a day's; asks are counted
// beside blocks.
func TestAPIActivityFitsTheCalls(t *testing.T) {
	p := t.TempDir()
	hook(t, p, "PreToolUse", "block")
	hook(t, p, "PreToolUse", "ask")
	hook(t, p, "Stop", "")
	url := serve(t, p, "")
	var a store.Activity
	for deadline := time.Now().Add(10 * time.Second); ; {
		code, body := get(t, url+"/api/activity?since=fit")
		if code != 200 || json.Unmarshal([]byte(body), &a) != nil {
			t.Fatalf("%d %s", code, body)
		}
		if len(a.Durations) == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	var calls, blocks, asks, busy int64
	for _, b := range a.Buckets {
		calls, blocks, asks = calls+b.Calls, blocks+b.Blocks, asks+b.Asks
		if b.Calls > 0 {
			busy++
		}
	}
	span := a.Until.Sub(a.Since)
	if calls != 3 || blocks != 1 || asks != 1 || span > 5*time.Minute || a.Step > 5 || len(a.Buckets) < 10 {
		t.Fatalf("fit: %d calls, %d blocks, %d asks over %s in %d buckets of %d s; want the three calls in a range of minutes", calls, blocks, asks, span, len(a.Buckets), a.Step)
	}
	// With no calls in the window, fit is the last 24 hours.
	code, body := get(t, serve(t, t.TempDir(), "")+"/api/activity?since=fit")
	if code != 200 || json.Unmarshal([]byte(body), &a) != nil || a.Until.Sub(a.Since) < 23*time.Hour {
		t.Errorf("fit with no calls: %d %s", code, body)
	}
}

// The page's kind menu lists every journal kind, no more: one truth,
// journal.Kinds, and a new kind cannot be left out of the dashboard.
func TestKindMenuListsEveryKind(t *testing.T) {
	page, err := static.ReadFile("static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	_, sel, ok := strings.Cut(string(page), `id="f-kind"`)
	sel, _, _ = strings.Cut(sel, "</select>")
	if !ok {
		t.Fatal("no kind menu")
	}
	var got []string
	for _, m := range regexp.MustCompile(`<option>([a-z_]+)</option>`).FindAllStringSubmatch(sel, -1) {
		got = append(got, m[1])
	}
	want := append([]string(nil), journal.Kinds...)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("kind menu %q, journal.Kinds %q", got, want)
	}
}
