// Package otlpexport ships a project's hook journal to an OpenTelemetry
// Collector as OTLP log records, next to Claude Code's own telemetry. It
// runs in hwctl (`hwctl export otlp`), never in the hook path.
//
// Each journal line becomes one log record (see [Record] for the names it
// carries), made with the OpenTelemetry Go SDK and sent with the official
// OTLP log exporters (grpc, http/protobuf) or, for http/json, which they do
// not offer, with [JSONExporter]. The destination comes from the standard
// OTEL_EXPORTER_OTLP_* variables ([ConfigFromEnv]).
//
// Delivery is at least once and nothing is lost: a cursor under
// .hookwright/export/ remembers, per journal file, the offset up to which
// the collector accepted the lines, and is saved after every batch. While
// the collector is down the batch in hand is retried with backoff; only
// that batch is held in memory, however long the outage, and the rest
// waits in the journal. Each request's timeout is capped by what is left
// of the retry budget, so a run ends when the budget says. A batch the
// collector rejects as bad (HTTP 400, 413 and other 4xx, grpc
// InvalidArgument) is split until the refused records are isolated; those
// are written whole, with the collector's answer, to [RejectedFile] before
// the cursor moves past them, and counted. A collector that refuses every
// record of a batch is not believed: the run fails and the cursor stays.
// Every record carries the line's stable id ("<file>:<offset>") so a
// backend can drop the duplicates a crash between sending and saving the
// cursor may cause. Empty journal lines are skipped and counted.
package otlpexport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	sdklog "go.opentelemetry.io/otel/sdk/log"

	"github.com/hookwright/hookwright/internal/journaltail"
)

// maxBatchBytes bounds the journal bytes in one batch, so that a request
// stays well below the 4 MiB a collector's grpc receiver takes by default,
// and memory stays bounded whatever the lines hold.
const maxBatchBytes = 2 << 20

// errBatchFull ends a journal read when the batch holds maxBatchBytes.
var errBatchFull = errors.New("batch full")

// Options configure [Export].
type Options struct {
	// Project is the project folder.
	Project string
	// Config is the destination (see ConfigFromEnv).
	Config Config
	// Follow keeps shipping new lines until ctx ends, retrying through any
	// outage; otherwise Export returns once the journal is shipped.
	Follow bool
	// RetryFor bounds how long a run without Follow retries an unreachable
	// collector before it fails (0: one attempt).
	RetryFor time.Duration
	// Batch is the number of lines per request (default 512).
	Batch int
	// Poll is how often Follow looks for new lines (default 1s).
	Poll time.Duration
	// MinBackoff and MaxBackoff bound the retry delay (default 250ms, 30s);
	// it doubles after each failure, with jitter.
	MinBackoff, MaxBackoff time.Duration
	// Version is hookwright's version, for sessions whose fingerprint does
	// not name one.
	Version string
	// Log receives one line per notable event: rejected records, an outage
	// starting and ending (with Follow or Verbose). Nil discards them.
	Log io.Writer
	// Verbose also reports an outage as it starts in a run without Follow,
	// whose failure otherwise says all in one error once RetryFor is spent.
	Verbose bool
}

// Stats count what a run did.
type Stats struct {
	// Shipped records were accepted by the collector.
	Shipped int
	// Rejected records were refused by the collector and written to
	// RejectedFile (or, for an OTLP partial success, only counted: the
	// collector does not say which).
	Rejected int
	// Kept of the Rejected records are in RejectedFile (the others were
	// dropped on a partial success).
	Kept int
	// Empty lines of the journal were skipped.
	Empty int
	// Unparsed lines did not parse; they were shipped as records with
	// the raw text (and counted in Shipped too).
	Unparsed int
}

// Export ships the journal lines not yet shipped; see the package comment.
// The error is one line, fit to show the user.
func Export(ctx context.Context, o Options) (Stats, error) {
	o.defaults()
	var st Stats
	if o.Config.Endpoint == nil {
		return st, errors.New("otlp export: no endpoint (use ConfigFromEnv)")
	}
	if fi, err := os.Stat(o.Project); err != nil || !fi.IsDir() {
		return st, fmt.Errorf("otlp export: no project folder at %s", o.Project)
	}
	unlock, err := lock(o.Project)
	if err != nil {
		return st, err
	}
	defer unlock()
	cur, err := LoadCursor(o.Project)
	if err != nil {
		return st, err
	}
	sender, err := NewSender(ctx, o.Config)
	if err != nil {
		return st, err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		sender.Close(sctx)
	}()
	x := &run{o: o, sender: sender, mapper: NewMapper(o.Project, o.Config, o.Version), st: &st}
	for {
		var lines []journaltail.Line
		size := 0
		next, err := journaltail.Read(o.Project, cur, o.Batch, func(l journaltail.Line) error {
			if size += len(l.Raw); size > maxBatchBytes && len(lines) > 0 {
				return errBatchFull // this line starts the next batch
			}
			l.Raw = append([]byte(nil), l.Raw...)
			lines = append(lines, l)
			return nil
		})
		if err != nil && !errors.Is(err, errBatchFull) {
			return st, err
		}
		if len(lines) == 0 {
			if !o.Follow {
				return st, nil
			}
			if err := sleep(ctx, o.Poll); err != nil {
				return st, err
			}
			continue
		}
		kept := lines[:0]
		for _, l := range lines {
			switch {
			case l.Err != nil && !errors.Is(l.Err, journaltail.ErrTooLong) && len(bytes.TrimSpace(l.Raw)) == 0:
				st.Empty++
				continue
			case l.Err != nil:
				st.Unparsed++
			}
			kept = append(kept, l)
		}
		if err := x.batch(ctx, kept); err != nil {
			return st, err
		}
		if err := SaveCursor(o.Project, next); err != nil {
			return st, err
		}
		cur = next
	}
}

func (o *Options) defaults() {
	if o.Config.Timeout <= 0 {
		o.Config.Timeout = defaultTimeout
	}
	if o.Batch <= 0 {
		o.Batch = 512
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 250 * time.Millisecond
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(30*time.Second, o.MinBackoff)
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// run is one Export's state.
type run struct {
	o      Options
	sender *Sender
	mapper *Mapper
	st     *Stats
	down   bool // an outage was reported and has not ended yet

	// Per batch: how many records the collector took, and the ones it
	// refused.
	accepted int
	refused  []RejectedRecord
}

// refuseLimit is how many records refused one by one, with none of the
// batch taken, make the exporter conclude that the collector refuses
// everything rather than probe every record (a batch of 512 would cost
// 1023 requests). The run then fails and skips nothing; a journal whose
// next 32 records are each refused on their own needs a look anyway.
const refuseLimit = 32

// errRefusesAll ends a batch whose records the collector all refuses.
var errRefusesAll = errors.New("collector refuses every record")

// batch ships lines; records refused alone go to RejectedFile, unless the
// collector refused them all, which fails the run.
func (x *run) batch(ctx context.Context, lines []journaltail.Line) error {
	if len(lines) == 0 {
		return nil
	}
	x.accepted, x.refused = 0, nil
	recs := x.mapper.Records(lines)
	err := x.ship(ctx, recs, lines)
	if err == nil && x.accepted == 0 && len(x.refused) > 0 {
		err = errRefusesAll
	}
	if errors.Is(err, errRefusesAll) {
		r := x.refused[0]
		return fmt.Errorf("collector at %s (%s) refused every record it was sent, the first (%s) with %s: %s; nothing skipped: the next run ships from %s",
			x.o.Config.Endpoint.Redacted(), x.o.Config.Protocol, r.ID, r.Status, oneLine(r.Answer), lines[0].ID())
	}
	if err != nil {
		return err
	}
	if err := appendRejected(x.o.Project, x.refused); err != nil {
		return err
	}
	for _, r := range x.refused {
		fmt.Fprintf(x.o.Log, "collector refused record %s (%s: %s); kept in %s\n", r.ID, r.Status, oneLine(r.Answer), RejectedFile)
	}
	x.st.Rejected += len(x.refused)
	x.st.Kept += len(x.refused)
	return nil
}

// ship delivers recs (made from lines, index for index): retries while the
// collector is unreachable, splits a rejected batch to skip only the bad
// records.
func (x *run) ship(ctx context.Context, recs []sdklog.Record, lines []journaltail.Line) error {
	delay := x.o.MinBackoff
	// The retry budget runs from the first try: a try's timeout is capped
	// by what is left of it, so that the run ends when the budget says.
	deadline := time.Now().Add(x.o.RetryFor)
	for {
		timeout := x.o.Config.Timeout
		if !x.o.Follow && x.o.RetryFor > 0 {
			timeout = min(timeout, max(time.Until(deadline), 100*time.Millisecond))
		}
		actx, cancel := context.WithTimeout(ctx, timeout)
		out, err := x.sender.Send(actx, recs)
		timedOut := actx.Err() != nil
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if out == Retry && timedOut {
			err = &TimeoutError{After: timeout.Round(time.Millisecond).String()}
		}
		switch out {
		case Delivered:
			if x.down {
				x.down = false
				fmt.Fprintf(x.o.Log, "collector at %s reachable again; shipping\n", x.o.Config.Endpoint.Redacted())
			}
			n := len(recs)
			var p *PartialError
			if errors.As(err, &p) {
				rej := int(min(max(p.Rejected, 0), int64(n)))
				n -= rej
				x.st.Rejected += rej
				fmt.Fprintf(x.o.Log, "collector accepted a batch of %d records from %s but rejected %d of them: %s\n",
					len(recs), lines[0].ID(), rej, oneLine(p.Message))
			}
			x.st.Shipped += n
			x.accepted += len(recs)
			return nil
		case Rejected:
			if len(recs) > 1 {
				mid := len(recs) / 2
				if err := x.ship(ctx, recs[:mid], lines[:mid]); err != nil {
					return err
				}
				return x.ship(ctx, recs[mid:], lines[mid:])
			}
			x.refused = append(x.refused, newRejected(lines[0], err, time.Now()))
			if x.accepted == 0 && len(x.refused) >= refuseLimit {
				return errRefusesAll
			}
			return nil
		case Misconfigured:
			return fmt.Errorf("collector at %s refused the request (check OTEL_EXPORTER_OTLP_* endpoint, protocol and headers): %s",
				x.o.Config.Endpoint.Redacted(), name(err))
		}
		// Retry.
		left := time.Until(deadline)
		if !x.o.Follow && left <= 0 {
			retried := ""
			if x.o.RetryFor > 0 {
				retried = "; retried for " + x.o.RetryFor.String()
			}
			return fmt.Errorf("collector at %s (%s) unreachable: %s%s; nothing lost: the next run ships from %s",
				x.o.Config.Endpoint.Redacted(), x.o.Config.Protocol, name(err), retried, lines[0].ID())
		}
		if !x.down && (x.o.Follow || x.o.Verbose) {
			x.down = true
			fmt.Fprintf(x.o.Log, "collector at %s unreachable: %s; retrying with backoff from %s\n",
				x.o.Config.Endpoint.Redacted(), name(err), lines[0].ID())
		}
		wait := delay/2 + rand.N(delay/2+1)
		if !x.o.Follow {
			wait = min(wait, left) // the last try falls at the end of the budget, not before it
		}
		if err := sleep(ctx, wait); err != nil {
			return err
		}
		delay = min(delay*2, x.o.MaxBackoff)
	}
}

// oneLine flattens an error text to one bounded line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
