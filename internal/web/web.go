// Package web is hwctl's dashboard: an HTTP server over a project's store
// with an embedded page (plain HTML, CSS and JavaScript; nothing fetched
// from elsewhere), a JSON API under /api/ with the CLI's filters, and
// GET /events, a server-sent event stream of each journal line as it is
// ingested that resumes after Last-Event-ID without gaps or duplicates.
// Its charts are drawn by uPlot (static/uplot, a pinned release, MIT).
package web

import (
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/hookwright/hookwright/internal/store"
)

//go:embed static
var static embed.FS

// Server serves one project's store.
type Server struct {
	// Store is the project's store; the server ingests into it.
	Store *store.Store
	// Token, when set, must come with every request: an
	// "Authorization: Bearer" header, a token query parameter (which also
	// sets a cookie for the page's own requests: HttpOnly, SameSite=Strict,
	// Path=/, named hwctl_token_<port> so that each server on a host has
	// its own) or that cookie.
	Token string
	// Loopback restricts the Host header to loopback names, so that a
	// web page elsewhere cannot reach the server through DNS rebinding.
	Loopback bool
	// Poll is how often the journal is ingested; 0 means 100 ms.
	Poll time.Duration
	// Now is the clock for --since; nil means time.Now.
	Now func() time.Time
	// OnError reports ingest errors; nil drops them.
	OnError func(error)

	mu     sync.Mutex
	last   int64         // highest event id ingested
	notify chan struct{} // closed and replaced when last grows
}

// IsLoopback reports whether addr's host is a loopback address or
// "localhost".
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Run ingests every Poll until ctx ends, waking the event streams when new
// events arrived. It returns ctx's error.
func (s *Server) Run(ctx context.Context) error {
	poll := s.Poll
	if poll <= 0 {
		poll = 100 * time.Millisecond
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		s.ingest(ctx)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

func (s *Server) ingest(ctx context.Context) {
	st, err := s.Store.Ingest(ctx, 0)
	if err != nil {
		if s.OnError != nil && ctx.Err() == nil {
			s.OnError(err)
		}
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.LastID > s.last {
		s.last = st.LastID
		if s.notify != nil {
			close(s.notify)
			s.notify = nil
		}
	}
}

// wait returns a channel closed once an event with an id above id exists.
func (s *Server) wait(id int64) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last > id {
		c := make(chan struct{})
		close(c)
		return c
	}
	if s.notify == nil {
		s.notify = make(chan struct{})
	}
	return s.notify
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Handler is the whole site.
func (s *Server) Handler() http.Handler {
	files, _ := fs.Sub(static, "static")
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(files))
	mux.HandleFunc("GET /events", s.stream)
	mux.HandleFunc("GET /api/events", func(w http.ResponseWriter, r *http.Request) {
		f, err := s.filter(r)
		if err != nil {
			badRequest(w, err)
			return
		}
		list, err := s.Store.Events(r.Context(), f)
		reply(w, map[string]any{"events": list}, err)
	})
	mux.HandleFunc("GET /api/sessions", func(w http.ResponseWriter, r *http.Request) {
		f, err := store.FilterFromQuery(r.URL.Query(), s.now())
		if err == nil && (f.Session != "" || f.Event != "" || f.Decision != "" || f.Tool != "" || f.Agent != "" || f.Kind != "" || f.Handler != "" || f.Rule != "" || f.Search != "" || !f.Until.IsZero() || f.Before != 0 || f.After != 0) {
			err = errors.New("sessions takes only since and limit")
		}
		if err != nil {
			badRequest(w, err)
			return
		}
		list, err := s.Store.Sessions(r.Context(), f.Since, f.Limit)
		reply(w, map[string]any{"sessions": list}, err)
	})
	mux.HandleFunc("GET /api/activity", func(w http.ResponseWriter, r *http.Request) {
		// since=fit: the range the store's calls of the last 30 days
		// take (store.Fit), so that a short history fills the chart.
		q := r.URL.Query()
		fit := q.Get("since") == "fit"
		if fit {
			q.Del("since")
		}
		f, err := store.FilterFromQuery(q, s.now())
		if err == nil {
			f, err = s.Store.Resolve(r.Context(), f)
		}
		if err == nil && (f.Event != "" || f.Decision != "" || f.Tool != "" || f.Agent != "" || f.Kind != "" || f.Handler != "" || f.Rule != "" || f.Search != "" || f.Before != 0 || f.After != 0 || f.Limit != 0) {
			err = errors.New("activity takes only since, until and session")
		}
		if err != nil {
			badRequest(w, err)
			return
		}
		if f.Until.IsZero() {
			f.Until = s.now()
		}
		if fit {
			since, until, ok, err := s.Store.Fit(r.Context(), f.Until, 30*24*time.Hour, f.Session)
			if err != nil {
				reply(w, nil, err)
				return
			}
			if ok {
				f.Since, f.Until = since, until
			}
		}
		if f.Since.IsZero() {
			f.Since = f.Until.Add(-24 * time.Hour)
		}
		a, err := s.Store.Activity(r.Context(), f.Since, f.Until, f.Session)
		if errors.Is(err, store.ErrBadFilter) {
			badRequest(w, err)
			return
		}
		reply(w, a, err)
	})
	for path, get := range map[string]func(context.Context) (any, error){
		"/api/pdca":   func(ctx context.Context) (any, error) { return s.Store.PDCA(ctx) },
		"/api/work":   func(ctx context.Context) (any, error) { return s.Store.Work(ctx) },
		"/api/team":   func(ctx context.Context) (any, error) { return s.Store.Teammates(ctx) },
		"/api/counts": func(ctx context.Context) (any, error) { return s.Store.Counts(ctx) },
	} {
		key := strings.TrimPrefix(path, "/api/")
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			if err := onlyToken(r); err != nil {
				badRequest(w, err)
				return
			}
			v, err := get(r.Context())
			reply(w, map[string]any{key: v}, err)
		})
	}
	return s.guard(mux)
}

// filter reads r's query into a Filter in the store's spelling; an
// unknown parameter or a value that names nothing is an error (a 400).
func (s *Server) filter(r *http.Request) (store.Filter, error) {
	f, err := store.FilterFromQuery(r.URL.Query(), s.now())
	if err != nil {
		return f, err
	}
	return s.Store.Resolve(r.Context(), f)
}

// onlyToken rejects query parameters on endpoints that take none.
func onlyToken(r *http.Request) error {
	for k := range r.URL.Query() {
		if k != "token" {
			return fmt.Errorf("unknown parameter %q (this endpoint takes none)", k)
		}
	}
	return nil
}

// cookieName is the token cookie's name for the server that got r: the
// prefix and the port the connection came in on. Browsers keep cookies per
// host, not per port; with the port in its name a second dashboard on the
// same host neither replaces this one's cookie nor receives it as its own.
func cookieName(r *http.Request) string {
	name := "hwctl_token"
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if _, port, err := net.SplitHostPort(a.String()); err == nil {
			name += "_" + port
		}
	}
	return name
}

// guard checks the Host header and the token, and sets the headers every
// answer carries.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		if s.Loopback && !IsLoopback(r.Host) {
			http.Error(w, "hwctl serve: this server answers only to a loopback host name (127.0.0.1, localhost)", http.StatusForbidden)
			return
		}
		if s.Token != "" {
			given := ""
			if a, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
				given = a
			} else if q := r.URL.Query().Get("token"); q != "" {
				given = q
			} else if c, err := r.Cookie(cookieName(r)); err == nil {
				given = c.Value
			}
			if subtle.ConstantTimeCompare([]byte(given), []byte(s.Token)) != 1 {
				http.Error(w, "hwctl serve: a token is required (Authorization: Bearer TOKEN, or ?token=TOKEN)", http.StatusUnauthorized)
				return
			}
			if r.URL.Query().Get("token") != "" {
				http.SetCookie(w, &http.Cookie{Name: cookieName(r), Value: s.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			}
		}
		next.ServeHTTP(w, r)
	})
}

func badRequest(w http.ResponseWriter, err error) {
	http.Error(w, strings.ReplaceAll(err.Error(), "\n", " "), http.StatusBadRequest)
}

func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		http.Error(w, strings.ReplaceAll(err.Error(), "\n", " "), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

// Backlog is how many events a stream sends before the live ones when
// it starts without a position, or with one further behind: the newest
// Backlog matching events. Older history comes from the paged API.
const Backlog = 300

// stream is GET /events: each event matching the query's filters, as it
// is ingested. The first message, "store", names the store (its identity
// and newest id); each "hook" message's id is "<store id>/<journal line
// id>". A client that reconnects with a Last-Event-ID of this store gets
// the events after that line; with one of another store (rebuilt since)
// or none, it starts over: the newest Backlog events, then live ones.
// ?after=ID starts after that event instead. A position more than Backlog
// events behind skips to the newest Backlog, after a "gap" message that
// says how many were skipped and below which id they are.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	f, err := s.filter(r)
	if err != nil {
		badRequest(w, err)
		return
	}
	if f.Before != 0 || f.Limit != 0 {
		badRequest(w, errors.New("/events takes no before or limit"))
		return
	}
	ctx := r.Context()
	sid := s.Store.ID()
	after, positioned := f.After, false
	if _, given := r.URL.Query()["after"]; given {
		positioned = true
	}
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		if store, line, ok := strings.Cut(id, "/"); ok && store == sid {
			if after, err = s.Store.IDOfLine(ctx, line); err != nil {
				badRequest(w, fmt.Errorf("Last-Event-ID: %v", err))
				return
			}
			positioned = true
		} else {
			// Another store's position (rebuilt since): start over.
			after, positioned = 0, false
		}
	}
	var newest int64
	if err := s.Store.DB().QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM events").Scan(&newest); err != nil {
		reply(w, nil, err)
		return
	}
	// The backlog: the newest Backlog matching events.
	g := f
	g.After, g.Before, g.Limit = 0, 0, Backlog
	recent, err := s.Store.Events(ctx, g)
	if err != nil {
		reply(w, nil, err)
		return
	}
	skipped := int64(0)
	switch {
	case len(recent) < Backlog:
		if !positioned {
			after = 0
		}
	default:
		floor := recent[len(recent)-1].ID - 1 // the backlog starts above it
		if !positioned {
			after = floor
		} else if after < floor {
			h := f
			h.After, h.Before, h.Limit = max(after, 0), floor+1, 1
			if after == 0 {
				h.After = -1
			}
			if first, err := s.Store.Events(ctx, h); err == nil && len(first) > 0 {
				skipped = floor - after
			}
			after = floor
		}
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 1000\n\n")
	hello, _ := json.Marshal(map[string]any{"store": sid, "newest": newest, "backlog": Backlog})
	fmt.Fprintf(w, "event: store\ndata: %s\n\n", hello)
	if skipped > 0 {
		gap, _ := json.Marshal(map[string]any{"skipped": skipped, "before": after + 1})
		fmt.Fprintf(w, "event: gap\ndata: %s\n\n", gap)
	}
	rc.Flush()
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		// Every event up to seen is in the store before the query runs:
		// once the query's matches are sent, wait for ids past seen.
		s.mu.Lock()
		seen := s.last
		s.mu.Unlock()
		g := f
		g.After, g.Limit = after, store.MaxLimit
		if after == 0 {
			g.After = -1 // from the first event on
		}
		list, err := s.Store.Events(ctx, g)
		if err != nil {
			return
		}
		for _, e := range list {
			data, _ := json.Marshal(e)
			fmt.Fprintf(w, "id: %s/%s\nevent: hook\ndata: %s\n\n", sid, e.Line, data)
			after = e.ID
		}
		if len(list) > 0 && rc.Flush() != nil {
			return
		}
		if len(list) == store.MaxLimit {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-s.wait(max(seen, after)):
		case <-ping.C:
			fmt.Fprint(w, ": ping\n\n")
			if rc.Flush() != nil {
				return
			}
		}
	}
}
