package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/store"
	"github.com/hookwright/hookwright/internal/termsafe"
)

// tailer follows a project's journal (journaltail): each poll reads only
// the lines appended since the last one, keeps the last `keep` entries and
// counts every entry by event and decision. Its memory is bounded by keep.
type tailer struct {
	dir    string
	keep   int
	cursor journaltail.Cursor

	last   []journal.Entry // ring, oldest first once full
	counts map[string]map[string]int
	total  int
	bad    int
}

func newTailer(dir string, keep int) *tailer {
	return &tailer{dir: dir, keep: max(keep, 1), counts: map[string]map[string]int{}}
}

// poll reads what was appended and calls fn for each new entry.
func (t *tailer) poll(fn func(journal.Entry)) error {
	next, err := journaltail.Read(t.dir, t.cursor, 0, func(l journaltail.Line) error {
		if l.Err != nil {
			t.bad++
			return nil
		}
		t.add(l.Entry)
		if fn != nil {
			fn(l.Entry)
		}
		return nil
	})
	t.cursor = next
	return err
}

func (t *tailer) add(e journal.Entry) {
	t.total++
	d := e.Decision
	if d == "" {
		d = "none"
	}
	if t.counts[e.Event] == nil {
		t.counts[e.Event] = map[string]int{}
	}
	t.counts[e.Event][d]++
	t.last = append(t.last, e)
	if len(t.last) > t.keep {
		t.last = t.last[len(t.last)-t.keep:]
	}
}

func logCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "log",
		Usage: "print the hook journal as a table",
		Flags: []cli.Flag{
			dirFlag,
			&cli.IntFlag{Name: "n", Value: 50, Usage: "show the last `N` entries (up to 1000), read from the journal's end"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep printing new entries"},
			&cli.DurationFlag{Name: "interval", Value: 500 * time.Millisecond, Usage: "poll interval with --follow"},
		},
		Action: func(c *cli.Context) error {
			dir, err := s.project(c)
			if err != nil {
				return err
			}
			if c.Int("n") < 0 || c.Int("n") > store.MaxLimit {
				return usageError("-n %d: want 0 to %d", c.Int("n"), store.MaxLimit)
			}
			// The last n lines, read backward from the journal's end: the
			// cost follows n, not the journal's size.
			lines, cur, err := journaltail.Tail(dir, c.Int("n"))
			if err != nil {
				return err
			}
			t := newTailer(dir, c.Int("n"))
			t.cursor = cur
			for _, l := range lines {
				if l.Err != nil {
					t.bad++
					continue
				}
				t.add(l.Entry)
			}
			if c.Int("n") == 0 {
				t.last = nil
			}
			tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, header)
			for _, e := range t.last {
				fmt.Fprintln(tw, row(e))
			}
			tw.Flush()
			if t.bad > 0 {
				fmt.Fprintf(s.Err, "hwctl: %d of the last %d journal lines did not parse\n", t.bad, len(lines))
			}
			if !c.Bool("follow") {
				return nil
			}
			return every(c.Context, c.Duration("interval"), func() error {
				err := t.poll(func(e journal.Entry) { fmt.Fprintln(tw, row(e)) })
				tw.Flush()
				return err
			})
		},
	}
}

func dashboardCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "dashboard",
		Usage: "live view of the journal: counts per event and decision, and the last calls",
		Flags: []cli.Flag{
			dirFlag,
			&cli.IntFlag{Name: "n", Value: 15, Usage: "show the last `N` calls"},
			&cli.DurationFlag{Name: "interval", Value: time.Second, Usage: "refresh interval"},
			&cli.BoolFlag{Name: "once", Usage: "draw once and exit (no screen clearing)"},
		},
		Description: `Reads the store (.hookwright/hookwright.db), adding what the journal gained
before each frame. On a terminal the screen is redrawn in place every
--interval. When stdout is not a terminal (a pipe, a file) each frame is
plain text, no escape codes, appended after the last.`,
		Action: func(c *cli.Context) error {
			dir := s.projectDir(c)
			st, err := s.openStore(c)
			if err != nil {
				return err
			}
			defer st.Close()
			draw := func(clear bool) error {
				if _, err := st.Ingest(c.Context, 0); err != nil {
					return err
				}
				t, err := fromStore(c.Context, st, c.Int("n"))
				if err != nil {
					return err
				}
				if clear {
					if _, err := io.WriteString(s.raw, "\x1b[H\x1b[2J"); err != nil {
						return err
					}
				}
				var b strings.Builder
				t.render(&b, dir, time.Now())
				_, err = io.WriteString(s.Out, b.String())
				return err
			}
			if c.Bool("once") {
				return draw(false)
			}
			tty := isTerminal(s.raw)
			if err := draw(tty); err != nil {
				return err
			}
			return every(c.Context, c.Duration("interval"), func() error {
				if !tty {
					io.WriteString(s.Out, "\n")
				}
				return draw(tty)
			})
		},
	}
}

// fromStore fills a tailer's view from the store: the counts of every
// call and the last n calls.
func fromStore(ctx context.Context, st *store.Store, n int) (*tailer, error) {
	t := newTailer("", n)
	counts, err := st.Counts(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range counts {
		if c.Event == "" { // lines that did not parse
			t.bad += int(c.N)
			continue
		}
		d := c.Decision
		if d == "" {
			d = "none"
		}
		if t.counts[c.Event] == nil {
			t.counts[c.Event] = map[string]int{}
		}
		t.counts[c.Event][d] += int(c.N)
		t.total += int(c.N)
	}
	last, err := st.Events(ctx, store.Filter{Limit: min(max(n, 1), store.MaxLimit)})
	if err != nil {
		return nil, err
	}
	for i := len(last) - 1; i >= 0; i-- {
		e := last[i]
		if e.Bad != "" {
			continue
		}
		t.last = append(t.last, journal.Entry{Time: e.Time, Session: e.Session, Event: e.Event, Via: e.Via, Target: e.Target, Tool: e.Tool,
			Agent: e.Agent, Team: e.Team, Band: e.Band, Decision: e.Decision, Reason: e.Reason, Handler: e.Handler, Exit: e.Exit, Micros: e.Micros})
	}
	return t, nil
}

// render writes the dashboard screen.
func (t *tailer) render(w io.Writer, dir string, now time.Time) {
	fmt.Fprintf(w, "hookwright dashboard  %s  %s\n", dir, now.Format(time.TimeOnly))
	fmt.Fprintf(w, "%d calls", t.total)
	if t.bad > 0 {
		fmt.Fprintf(w, ", %d unreadable lines", t.bad)
	}
	fmt.Fprint(w, "\n\n")
	decisions := []string{"none", "allow", "ask", "block"}
	events := make([]string, 0, len(t.counts))
	for e := range t.counts {
		events = append(events, e)
	}
	sort.Strings(events)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "EVENT\tTOTAL\t"+strings.ToUpper(strings.Join(decisions, "\t"))+"\t")
	for _, e := range events {
		total, cells := 0, make([]string, len(decisions))
		for i, d := range decisions {
			n := t.counts[e][d]
			total += n
			cells[i] = fmt.Sprint(n)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", cell(e), total, strings.Join(cells, "\t"))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nlast %d calls\n", len(t.last))
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, e := range t.last {
		fmt.Fprintln(tw, row(e))
	}
	tw.Flush()
}

const header = "TIME\tSESSION\tEVENT\tTARGET\tDECISION\tEXIT\tMS\tREASON"

func row(e journal.Entry) string {
	ev := e.Event
	if e.Via != "" {
		ev += " (via " + e.Via + ")"
	}
	reason := strings.ReplaceAll(e.Reason, "\n", " ")
	if len(reason) > 80 {
		reason = reason[:77] + "..."
	}
	sess := e.Session
	if len(sess) > 8 {
		sess = sess[:8]
	}
	return fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%d\t%.1f\t%s", e.Time.Local().Format(time.DateTime), dash(cell(sess)), cell(ev),
		dash(cell(e.Target)), dash(cell(e.Decision)), e.Exit, float64(e.Micros)/1000, cell(reason))
}

// cell is s for one table cell: control characters, newlines and tabs
// made visible (the journal's text comes from the model and the project).
func cell(s string) string { return termsafe.Line(s) }

// every calls fn each interval until ctx ends.
func every(ctx context.Context, interval time.Duration, fn func() error) error {
	tick := time.NewTicker(max(interval, 50*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			if err := fn(); err != nil {
				return err
			}
		}
	}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
