package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/store"
	"github.com/hookwright/hookwright/internal/web"
)

// minToken is the shortest --token serve takes.
const minToken = 16

func serveCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "web dashboard: live feed, sessions and timelines, PDCA board, work units, team status",
		Description: `Serves the dashboard and its API from the project's store, ingesting the
journal every --poll. Pages: live feed of hook calls (blocks highlighted, with
reason and duration; search and filters kept in the URL; older calls paged
back to the first), sessions with each one's timeline, charts of calls,
blocks and hook time (uPlot, embedded), the PDCA board, work units and team
status. Everything is in the binary; the page loads nothing from elsewhere.

   GET /events            text/event-stream, one "hook" message per new call;
                          reconnecting with Last-Event-ID resumes after it
   GET /api/events        ?session= &event= &decision= &kind= &tool= &agent= &rule= &handler= &q=TEXT &since=24h &until= &limit= &before=ID &after=ID
   GET /api/sessions      ?since= &limit=
   GET /api/activity      ?since=24h &until= &session=   calls and blocks over time, hook p50/p95 per event
   GET /api/pdca  /api/work  /api/team  /api/counts

It binds to loopback. Another address needs a token: --token (or
$HWCTL_TOKEN), at least 16 characters; without one hwctl generates a random
one and prints it once, with the URL. Every request must then send
"Authorization: Bearer TOKEN" or ?token=TOKEN (which sets a cookie,
hwctl_token_<port>, HttpOnly, SameSite=Strict, for this server only).
--addr 127.0.0.1:0 picks a free port. The URL is printed on stdout.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:7466", Usage: "listen on `HOST:PORT`"},
			&cli.StringFlag{Name: "token", EnvVars: []string{"HWCTL_TOKEN"}, Usage: "require this `TOKEN` on every request"},
			&cli.DurationFlag{Name: "poll", Value: 100 * time.Millisecond, Usage: "how often to ingest the journal"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("serve takes no arguments, not %q", c.Args().First())
			}
			addr, token := c.String("addr"), c.String("token")
			if _, _, err := net.SplitHostPort(addr); err != nil {
				return usageError("--addr %q: want HOST:PORT, e.g. 127.0.0.1:7466", addr)
			}
			loopback := web.IsLoopback(addr)
			if token != "" && len(token) < minToken {
				return usageError("--token (or HWCTL_TOKEN) has %d characters: want at least %d, e.g. from: openssl rand -hex 16", len(token), minToken)
			}
			generated := false
			if !loopback && token == "" {
				// Anyone who reaches the address could read the journal:
				// a random token, printed once, with the URL.
				token, generated = rand.Text(), true
			}
			dir, err := s.journalProject(c)
			if err != nil {
				return err
			}
			st, err := store.Open(c.Context, dir)
			if err != nil {
				return err
			}
			defer st.Close()
			srv := &web.Server{Store: st, Token: token, Loopback: loopback, Poll: c.Duration("poll"),
				OnError: func(err error) { fmt.Fprintln(s.Err, "hwctl serve: ingest:", err) }}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			url := "http://" + ln.Addr().String() + "/"
			if token != "" {
				url += "?token=" + token
			}
			fmt.Fprintf(s.Out, "hwctl: dashboard for %s at %s\n", dir, url)
			if generated {
				fmt.Fprintf(s.Out, "hwctl: %s is not loopback: every request needs this generated token, shown only now: %s\n", addr, token)
			}
			ctx, cancel := context.WithCancel(c.Context)
			defer cancel()
			go srv.Run(ctx)
			hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second,
				BaseContext: func(net.Listener) context.Context { return ctx }}
			done := make(chan error, 1)
			go func() { done <- hs.Serve(ln) }()
			select {
			case err := <-done:
				return err
			case <-ctx.Done():
				shut, stop := context.WithTimeout(context.Background(), 2*time.Second)
				defer stop()
				hs.Shutdown(shut)
				if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
					return err
				}
				return nil
			}
		},
	}
}
