package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	hwcli "github.com/hookwright/hookwright/internal/cli"
	"github.com/hookwright/hookwright/internal/otlpexport"
)

// exportDescription is `hwctl export otlp --help`.
const exportDescription = `Ships the hook journal (.hookwright/journal/*.jsonl) to an OpenTelemetry
Collector as OTLP log records, one per journal line, next to Claude Code's own
telemetry: records carry session.id as Claude Code spells it, so the two join.

Where to: the standard variables, as Claude Code reads them.
   OTEL_EXPORTER_OTLP_PROTOCOL        grpc, http/protobuf (default) or http/json
   OTEL_EXPORTER_OTLP_ENDPOINT        base URL (default http://localhost:4318;
                                      4317 for grpc); http appends /v1/logs
   OTEL_EXPORTER_OTLP_LOGS_ENDPOINT   full logs URL; wins over the above
   OTEL_EXPORTER_OTLP_HEADERS         key=value,... (values percent-encoded)
   OTEL_EXPORTER_OTLP_LOGS_HEADERS    the same, for logs only; wins per key
   OTEL_RESOURCE_ATTRIBUTES           key=value,... added to every record's resource
   OTEL_SERVICE_NAME                  service.name (default hookwright)
   (also OTEL_EXPORTER_OTLP_LOGS_PROTOCOL, OTEL_EXPORTER_OTLP[_LOGS]_TIMEOUT)

Nothing lost, nothing twice: .hookwright/export/otlp.json remembers, per
journal file, how far the collector accepted; a run ships only what is new and
resumes where a crashed run stopped. While the collector is down the batch in
hand is retried with backoff (--follow: until it is back; otherwise for
--retry-for, which also caps each request's timeout, then exit 3 with the
reason in one line: a timeout, an HTTP status with the collector's message, or
a refused connection; --verbose adds one when the outage starts; the next run
ships everything). A batch the collector rejects (HTTP 400, 413 or another
4xx, grpc InvalidArgument) is split until the refused records are found; each
is written whole, with the collector's answer, to .hookwright/otlp-rejected.jsonl,
and the run ends with exit 3 saying how many were shipped and rejected. A
collector that refuses every record is a failure (3) that skips nothing: the
next run tries them again. Empty journal lines are skipped and counted. Each record carries hookwright.record_id
("<file>:<offset>") for a backend to drop duplicates. The attribute names are
in the README ("Hook events in OpenTelemetry"). A second exporter on the
same project refuses to start.

Examples:
   OTEL_EXPORTER_OTLP_PROTOCOL=grpc OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4317 hwctl export otlp
   hwctl export otlp --follow       keep shipping new calls until interrupted

A collector that stays unreachable or refuses the request is a failure (3); a
flag or an OTEL_* variable that does not parse is a usage error (2).

` + hwcli.ExitCodesHelp

func exportCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "ship the journal to other systems",
		Subcommands: []*cli.Command{{
			Name:        "otlp",
			Usage:       "ship journal entries as OTLP log records to an OpenTelemetry Collector",
			Description: exportDescription,
			Flags: []cli.Flag{
				dirFlag,
				&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep shipping new entries until interrupted, retrying through outages"},
				&cli.DurationFlag{Name: "retry-for", Value: 10 * time.Second, Usage: "without --follow: how long to retry an unreachable collector before failing"},
				&cli.IntFlag{Name: "batch", Value: 512, Usage: "journal lines per request"},
				&cli.BoolFlag{Name: "verbose", Usage: "without --follow: also say when an outage starts, before the final reason"},
			},
			Action: func(c *cli.Context) error {
				if c.NArg() > 0 {
					return usageError("export otlp takes no arguments")
				}
				if c.Int("batch") < 1 || c.Int("batch") > 10000 {
					return usageError("--batch must be between 1 and 10000")
				}
				cfg, err := otlpexport.ConfigFromEnv(s.Getenv)
				if err != nil {
					return usageError("%v", err)
				}
				project, err := s.journalProject(c)
				if err != nil {
					return err
				}
				return runExport(c, s, otlpexport.Options{
					Project: project, Config: cfg, Follow: c.Bool("follow"),
					RetryFor: c.Duration("retry-for"), Batch: c.Int("batch"), Verbose: c.Bool("verbose"),
					Version: hwcli.Version(version), Log: prefixWriter{s.Err, "hwctl export: "},
				})
			},
		}},
	}
}

func runExport(c *cli.Context, s streams, o otlpexport.Options) error {
	st, err := otlpexport.Export(c.Context, o)
	if errors.Is(err, c.Context.Err()) && c.Context.Err() != nil {
		err = nil // interrupted (--follow ends this way): the cursor is saved
	}
	where := fmt.Sprintf("%s (%s)", o.Config.Endpoint.Redacted(), o.Config.Protocol)
	switch {
	case st.Shipped+st.Rejected == 0 && err == nil:
		fmt.Fprintf(s.Out, "nothing new to ship to %s", where)
	case st.Shipped+st.Rejected > 0:
		fmt.Fprintf(s.Out, "shipped %d records to %s", st.Shipped, where)
		if st.Unparsed > 0 {
			fmt.Fprintf(s.Out, " (%d unparsable journal lines shipped as raw text)", st.Unparsed)
		}
	}
	if st.Shipped+st.Rejected > 0 || err == nil {
		if st.Empty > 0 {
			fmt.Fprintf(s.Out, "; %d empty journal lines skipped", st.Empty)
		}
		fmt.Fprintln(s.Out)
	}
	if err == nil && st.Rejected > 0 {
		msg := fmt.Sprintf("shipped %d records, the collector rejected %d", st.Shipped, st.Rejected)
		if st.Kept > 0 {
			msg += fmt.Sprintf(": %d are kept, with its answers, in %s", st.Kept, filepath.Join(o.Project, otlpexport.RejectedFile))
		}
		if d := st.Rejected - st.Kept; d > 0 {
			msg += fmt.Sprintf("; %d it accepted and then dropped (OTLP partial success, which does not say which; see above)", d)
		}
		err = errors.New(msg)
	}
	return err
}

// prefixWriter prefixes each write (one line) with a label.
type prefixWriter struct {
	w      io.Writer
	prefix string
}

// Write writes the prefix, then b.
func (p prefixWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
