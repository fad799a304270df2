package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/state/session"
	"github.com/hookwright/hookwright/internal/store"
	"github.com/hookwright/hookwright/internal/table"
)

// openStore opens the project's store and adds what the journal gained.
func (s streams) openStore(c *cli.Context) (*store.Store, error) {
	dir, err := s.journalProject(c)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(c.Context, dir)
	if err != nil {
		return nil, err
	}
	if _, err := st.Ingest(c.Context, 0); err != nil {
		st.Close()
		return nil, fmt.Errorf("ingest: %w", err)
	}
	return st, nil
}

func ingestCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "ingest",
		Usage: "add the journal's new lines to the store (.hookwright/hookwright.db)",
		Description: `Every query command ingests first; run this to fill the store ahead of time,
or with --rebuild to delete the database and rebuild it from the journal
(after a crash, a corrupt file or a schema from a newer hwctl). A run that is
killed loses nothing and a re-run adds nothing: the read offsets are stored
in the same transaction as the rows. Restart a running "hwctl serve" after a
rebuild: it keeps the database it opened.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "rebuild", Usage: "delete the database first and rebuild it from the journal"},
			&cli.IntFlag{Name: "batch", Value: store.DefaultBatch, Usage: "journal lines per transaction"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing on success"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("ingest takes no arguments, not %q", c.Args().First())
			}
			if c.Int("batch") < 1 || c.Int("batch") > 100000 {
				return usageError("--batch %d: want 1 to 100000", c.Int("batch"))
			}
			dir, err := s.journalProject(c)
			if err != nil {
				return err
			}
			if c.Bool("rebuild") {
				if err := store.Remove(dir); err != nil {
					return err
				}
			}
			st, err := store.Open(c.Context, dir)
			if err != nil {
				return err
			}
			defer st.Close()
			start := time.Now()
			stats, err := st.Ingest(c.Context, c.Int("batch"))
			if err != nil {
				return fmt.Errorf("ingest: %w", err)
			}
			if !c.Bool("quiet") {
				took := time.Since(start)
				fmt.Fprintf(s.Out, "%d new journal lines (%d did not parse) in %s; %s holds %d events\n",
					stats.Lines, stats.Bad, took.Round(time.Millisecond), st.Path(), stats.LastID)
			}
			return nil
		},
	}
}

func sessionsCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "sessions",
		Usage: "list sessions, most recently active first: fingerprint, calls, blocks",
		Flags: []cli.Flag{jsonFlag, wideFlag,
			&cli.StringFlag{Name: "since", Usage: "only sessions active since `WHEN` (24h, 7d, 2026-11-22)"},
			&cli.IntFlag{Name: "n", Value: 50, Usage: "at most `N` sessions (up to 1000)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("sessions takes no arguments, not %q", c.Args().First())
			}
			since, err := store.ParseSince(c.String("since"), time.Now())
			if err != nil {
				return usageError("--%v", err)
			}
			st, err := s.openStore(c)
			if err != nil {
				return err
			}
			defer st.Close()
			list, err := st.Sessions(c.Context, since, c.Int("n"))
			if err != nil {
				return err
			}
			totals := sessionTotals(s.projectDir(c))
			if c.Bool("json") {
				type withTotals struct {
					store.Session
					Totals *session.Totals `json:"totals,omitempty"`
				}
				out := make([]withTotals, len(list))
				for i, x := range list {
					out[i] = withTotals{x, totals[x.ID]}
				}
				return s.printJSON(out)
			}
			width := s.width(c)
			t := table.New(table.Column{Name: "SESSION"}, table.Column{Name: "STARTED", Drop: 5}, table.Column{Name: "LAST SEEN"},
				table.Column{Name: "ENDED", Drop: 9}, table.Column{Name: "CALLS", Right: true}, table.Column{Name: "BLOCKS", Right: true},
				table.Column{Name: "SOURCE", Drop: 7}, table.Column{Name: "CLAUDE"}, table.Column{Name: "GIT", Flex: true, Min: 10, Drop: 4},
				table.Column{Name: "HOOKWRIGHT", Flex: true, Drop: 10}, table.Column{Name: "TOOLS", Right: true, Drop: 6},
				table.Column{Name: "FAILS", Right: true, Drop: 3}, table.Column{Name: "HOOK MS", Right: true, Drop: 8},
				table.Column{Name: "TOP TOOLS", Flex: true, Min: 12, Drop: 11})
			for _, x := range list {
				head := x.GitHead[:min(len(x.GitHead), 10)]
				if x.GitBranch != "" {
					head = x.GitBranch + "@" + head
				}
				tools, fails, hookMS, top := "-", "-", "-", "-"
				if t := totals[x.ID]; t != nil {
					tools, fails, hookMS = fmt.Sprint(t.ToolCalls()), fmt.Sprint(t.Failures), fmt.Sprint(t.HookMillis)
					top = dash(strings.Join(t.TopTools(3), " "))
				}
				id := x.ID
				if width > 0 {
					id = short(id) // a unique prefix will do for --session
				}
				t.Row(cell(id), when(x.Started), when(x.LastSeen), when(x.Ended), fmt.Sprint(x.Calls), fmt.Sprint(x.Blocks),
					dash(cell(x.Source)), dash(cell(x.ClaudeVersion)), dash(cell(head)), dash(cell(x.HookwrightVersion)), tools, fails, hookMS, cell(top))
			}
			dropped, err := t.Render(s.Out, width)
			if err == nil {
				s.note(dropped, width)
			}
			return err
		},
	}
}

func eventsCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "events",
		Usage: "query the hook calls: by session, event, decision, tool, agent and time",
		Description: `Prints the newest matching calls (-n), oldest first, then with --follow each
new one as the hooks write it. A value that names nothing (an unknown event,
decision or tool, a session prefix that matches no session or several) is a
usage error (exit 2) that lists the accepted values. Examples:
   hwctl events --decision block --since 7d
   hwctl events --session 3f2a... --json
   hwctl events --event PreToolUse --tool Bash --follow
   hwctl events --kind context_overflow --since 7d
   hwctl events --rule git-force-push          the calls that rule blocked (the id a block names)
   hwctl events --search "git push" --decision block`,
		Flags: []cli.Flag{jsonFlag, wideFlag,
			&cli.StringFlag{Name: "session", Usage: "only this session `ID`, or a prefix of one (the 8 characters the tables print)"},
			&cli.StringFlag{Name: "event", Usage: "only this `EVENT` (PreToolUse, pre-tool-use, TaskCompleted, ...)"},
			&cli.StringFlag{Name: "decision", Usage: "only this `DECISION`: allow, ask, block or none"},
			&cli.StringFlag{Name: "kind", Usage: "only this `KIND`: " + strings.Join(journal.Kinds, ", ")},
			&cli.StringFlag{Name: "tool", Usage: "only this `TOOL` (Bash, Edit, ...; any letter case)"},
			&cli.StringFlag{Name: "agent", Usage: "only this teammate or subagent `NAME`"},
			&cli.StringFlag{Name: "search", Aliases: []string{"q"}, Usage: "only calls whose command, path, URL, target or reason holds every word of `TEXT` (or words starting so; any letter case)"},
			&cli.StringFlag{Name: "rule", Usage: "only calls this guard `RULE` decided: the id a block names, \"(rule git-force-push; ...)\" (hwctl explain --rules lists them)"},
			&cli.StringFlag{Name: "handler", Usage: "only calls this handler `NAME` decided (guard, work-gate, ...)"},
			&cli.StringFlag{Name: "since", Usage: "only calls since `WHEN` (90m, 24h, 7d, 2026-11-22)"},
			&cli.StringFlag{Name: "until", Usage: "only calls before `WHEN` (same forms as --since)"},
			&cli.IntFlag{Name: "n", Value: 50, Usage: "the newest `N` matches (up to 1000)"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "then print each new match as it is written"},
			&cli.DurationFlag{Name: "interval", Value: 250 * time.Millisecond, Usage: "how often --follow looks"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("events takes no arguments, not %q", c.Args().First())
			}
			f := store.Filter{Session: c.String("session"), Event: c.String("event"), Decision: c.String("decision"),
				Tool: c.String("tool"), Agent: c.String("agent"), Limit: c.Int("n"), Kind: c.String("kind"), Search: c.String("search"), Handler: c.String("handler"), Rule: c.String("rule")}
			if f.Kind != "" && !slices.Contains(journal.Kinds, f.Kind) {
				return usageError("--kind %q: want one of %s", f.Kind, strings.Join(journal.Kinds, ", "))
			}
			var err error
			if f.Since, err = store.ParseSince(c.String("since"), time.Now()); err != nil {
				return usageError("--%v", err)
			}
			if f.Until, err = store.ParseSince(c.String("until"), time.Now()); err != nil {
				return usageError("--until: %v", err)
			}
			if f.Limit < 0 || f.Limit > store.MaxLimit {
				return usageError("-n %d: want 0 to %d", f.Limit, store.MaxLimit)
			}
			st, err := s.openStore(c)
			if err != nil {
				return err
			}
			defer st.Close()
			if f, err = st.Resolve(c.Context, f); errors.Is(err, store.ErrBadFilter) {
				return usageError("%v", err)
			} else if err != nil {
				return err
			}
			page, err := st.Events(c.Context, f)
			if err != nil {
				return err
			}
			slices.Reverse(page)
			p := s.eventPrinter(c.Bool("json"), s.width(c))
			p.print(page)
			if !c.Bool("follow") {
				return nil
			}
			after, _ := lastID(c.Context, st, page)
			return every(c.Context, c.Duration("interval"), func() error {
				if _, err := st.Ingest(c.Context, 0); err != nil {
					return err
				}
				for {
					g := f
					g.Limit, g.After = store.MaxLimit, max(after, 0)
					if after == 0 {
						g.After = -1 // from the first event on
					}
					next, err := st.Events(c.Context, g)
					if err != nil {
						return err
					}
					p.print(next)
					if len(next) == 0 {
						return nil
					}
					after = next[len(next)-1].ID
				}
			})
		},
	}
}

// lastID is where --follow starts: after the page shown, or after every
// event stored when the page is empty.
func lastID(ctx context.Context, st *store.Store, page []store.Event) (int64, error) {
	if len(page) > 0 {
		return page[len(page)-1].ID, nil
	}
	var id int64
	err := st.DB().QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM events").Scan(&id)
	return id, err
}

type eventPrinter struct {
	s      streams
	json   bool
	width  int
	header bool
	noted  bool
}

func (s streams) eventPrinter(asJSON bool, width int) *eventPrinter {
	return &eventPrinter{s: s, json: asJSON, width: width}
}

// eventColumns are hwctl events' columns. Fitted to a narrow terminal,
// the command and the reason are cut first, then the agent, the hook
// time, the handler, the session and the command are left out; the
// time, the event, the decision, the rule and the reason stay.
func eventColumns() *table.Table {
	return table.New(table.Column{Name: "TIME"}, table.Column{Name: "SESSION", Drop: 4}, table.Column{Name: "EVENT", Flex: true, Min: 10, Keep: 18},
		table.Column{Name: "TOOL/TARGET", Flex: true, Keep: 12, Drop: 1}, table.Column{Name: "WHAT", Flex: true, Min: 12, Keep: 24, Drop: 3},
		table.Column{Name: "AGENT", Flex: true, Drop: 7}, table.Column{Name: "DECISION"}, table.Column{Name: "MS", Right: true, Drop: 6},
		table.Column{Name: "HANDLER", Drop: 5}, table.Column{Name: "RULE", Flex: true, Min: 10, Keep: 32}, table.Column{Name: "REASON", Flex: true, Min: 12, Keep: 30})
}

// print writes events as JSON lines or as table rows (the header once).
func (p *eventPrinter) print(events []store.Event) {
	if p.json {
		for _, e := range events {
			enc := jsonLine(e)
			p.s.Out.Write(enc)
		}
		return
	}
	t := eventColumns()
	t.NoHeader = p.header
	p.header = true
	for _, e := range events {
		t.Row(eventRow(e)...)
	}
	dropped, _ := t.Render(p.s.Out, p.width)
	if len(dropped) > 0 && !p.noted {
		p.s.note(dropped, p.width)
		p.noted = true
	}
}

func eventRow(e store.Event) []string {
	if e.Bad != "" {
		return []string{"-", "-", "(unreadable line " + cell(e.Line) + ")", "-", "-", "-", "-", "-", "-", "-", cell(e.Bad)}
	}
	ev := e.Event
	if e.Via != "" {
		ev += " (via " + e.Via + ")"
	}
	target := e.Tool
	if target == "" {
		target = e.Target
	}
	// The guard's reasons start with its name, which the handler column
	// shows: the table gives the width to what follows.
	reason := strings.TrimPrefix(strings.Join(strings.Fields(e.Reason), " "), "hookwright guard: ")
	return []string{e.Time.Local().Format(time.DateTime), dash(cell(short(e.Session))), cell(ev),
		dash(cell(target)), dash(cell(e.Subject)), dash(cell(e.Agent)), dash(cell(e.Decision)), fmt.Sprintf("%.1f", float64(e.Micros)/1000),
		dash(cell(e.Handler)), dash(cell(e.Rule)), dash(cell(reason))}
}

func short(s string) string { return s[:min(len(s), 8)] }

func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format(time.DateTime)
}

// jsonLine is v as one line of JSON.
func jsonLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(fmt.Sprintf(`{"error":%q}`, err.Error()))
	}
	return append(b, '\n')
}

// sessionTotals returns the totals each session's fingerprint got at its
// SessionEnd (calls per event and tool, failures, hook time), by session
// id. A session still running, or a fingerprint that cannot be read, has
// none.
func sessionTotals(dir string) map[string]*session.Totals {
	out := map[string]*session.Totals{}
	list, _ := session.List(dir, 0)
	for _, fp := range list {
		if fp.Totals != nil {
			out[fp.SessionID] = fp.Totals
		}
	}
	return out
}
