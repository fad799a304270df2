package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookwright/hookwright/internal/journaltail"
	"github.com/hookwright/hookwright/internal/runtime/journal"
	"github.com/hookwright/hookwright/internal/store"
	"github.com/hookwright/hookwright/internal/table"
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
			dirFlag, wideFlag,
			&cli.IntFlag{Name: "n", Value: 50, Usage: "show the last `N` entries (up to 1000), read from the journal's end"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep printing new entries"},
			&cli.DurationFlag{Name: "interval", Value: 500 * time.Millisecond, Usage: "poll interval with --follow"},
		},
		Action: func(c *cli.Context) error {
			dir, err := s.journalProject(c)
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
			width := s.width(c)
			tb := logColumns()
			for _, e := range t.last {
				tb.Row(row(e)...)
			}
			dropped, err := tb.Render(s.Out, width)
			if err != nil {
				return err
			}
			s.note(dropped, width)
			if t.bad > 0 {
				fmt.Fprintf(s.Err, "hwctl: %d of the last %d journal lines did not parse\n", t.bad, len(lines))
			}
			if !c.Bool("follow") {
				return nil
			}
			return every(c.Context, c.Duration("interval"), func() error {
				more := logColumns()
				more.NoHeader = true
				err := t.poll(func(e journal.Entry) { more.Row(row(e)...) })
				if _, werr := more.Render(s.Out, width); err == nil {
					err = werr
				}
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
			dirFlag, wideFlag,
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
				t.render(&b, dir, time.Now(), s.width(c))
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
			Agent: e.Agent, Team: e.Team, Band: e.Band, Decision: e.Decision, Reason: e.Reason, Handler: e.Handler, Rule: e.Rule, Exit: e.Exit, Micros: e.Micros})
	}
	return t, nil
}

// render writes the dashboard screen, its last calls fitted to width
// (table.Width; 0 is no limit).
func (t *tailer) render(w io.Writer, dir string, now time.Time, width int) {
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
	counts := table.New(table.Column{Name: "EVENT", Flex: true}, table.Column{Name: "TOTAL", Right: true})
	for _, d := range decisions {
		counts.Cols = append(counts.Cols, table.Column{Name: strings.ToUpper(d), Right: true})
	}
	for _, e := range events {
		total, cells := 0, make([]string, len(decisions))
		for i, d := range decisions {
			n := t.counts[e][d]
			total += n
			cells[i] = fmt.Sprint(n)
		}
		counts.Row(append([]string{cell(e), fmt.Sprint(total)}, cells...)...)
	}
	counts.Render(w, width)
	fmt.Fprintf(w, "\nlast %d calls\n", len(t.last))
	last := logColumns()
	for _, e := range t.last {
		last.Row(row(e)...)
	}
	if dropped, _ := last.Render(w, width); len(dropped) > 0 {
		fmt.Fprintln(w, table.Note(dropped, width))
	}
}

// logColumns are the columns of hwctl log and the dashboard's last calls.
func logColumns() *table.Table {
	return table.New(table.Column{Name: "TIME"}, table.Column{Name: "SESSION", Drop: 4}, table.Column{Name: "EVENT", Flex: true, Min: 10, Keep: 18},
		table.Column{Name: "TARGET", Flex: true, Keep: 12, Drop: 1}, table.Column{Name: "DECISION"}, table.Column{Name: "EXIT", Right: true, Drop: 3},
		table.Column{Name: "MS", Right: true, Drop: 2}, table.Column{Name: "RULE", Flex: true, Min: 10, Keep: 32}, table.Column{Name: "REASON", Flex: true, Min: 12, Keep: 30})
}

func row(e journal.Entry) []string {
	ev := e.Event
	if e.Via != "" {
		ev += " (via " + e.Via + ")"
	}
	reason := strings.Join(strings.Fields(e.Reason), " ")
	return []string{e.Time.Local().Format(time.DateTime), dash(cell(short(e.Session))), cell(ev),
		dash(cell(e.Target)), dash(cell(e.Decision)), fmt.Sprint(e.Exit), fmt.Sprintf("%.1f", float64(e.Micros)/1000),
		dash(cell(journal.RuleOf(e))), dash(cell(reason))}
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
