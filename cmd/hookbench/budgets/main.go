// Command budgets prints `go test -bench` results beside the budgets of
// MoAI's SPEC-HOOK-001 (section 4.7): JSON parse, serialize and the
// contract check under 1 ms each, one handler under 100 ms, the whole
// dispatch of an event under 200 ms. `make bench` pipes the benchmarks of
// internal/handlers/builtin into it. It exits 1 when a result is over its
// budget, 2 when the input holds no benchmark it knows.
//
//	go test -run '^$' -bench . ./internal/handlers/builtin | go run ./cmd/hookbench/budgets
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// budgets maps a benchmark's top-level name to the design's budget.
var budgets = map[string]time.Duration{
	"Parse":     time.Millisecond,
	"Serialize": time.Millisecond,
	"Contract":  time.Millisecond,
	"Handler":   100 * time.Millisecond,
	"Dispatch":  200 * time.Millisecond,
}

func main() { os.Exit(run(os.Stdin, os.Stdout)) }

// run reads benchmark lines from r and writes the table to w.
func run(r io.Reader, w io.Writer) int {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "benchmark\tmeasured\tbudget (SPEC-HOOK-001)\t")
	n, over := 0, 0
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		name, per, ok := parse(sc.Text())
		if !ok {
			continue
		}
		top, _, _ := strings.Cut(name, "/")
		budget, known := budgets[top]
		if !known {
			continue
		}
		n++
		verdict := "ok"
		if per > budget {
			verdict, over = "OVER", over+1
		}
		fmt.Fprintf(tw, "%s\t%v\t< %v\t%s\n", name, per.Round(time.Microsecond/10), budget, verdict)
	}
	tw.Flush()
	switch {
	case n == 0:
		fmt.Fprintln(w, "budgets: no Parse, Serialize, Contract, Handler or Dispatch benchmark in the input")
		return 2
	case over > 0:
		fmt.Fprintf(w, "budgets: %d of %d over budget\n", over, n)
		return 1
	}
	fmt.Fprintf(w, "budgets: all %d within budget (memory: see hookbench's peak RSS, budget 10 MB)\n", n)
	return 0
}

// parse reads "BenchmarkHandler/Stop/loop-2   200   7970 ns/op ..." as
// ("Handler/Stop/loop", 7.97µs).
func parse(line string) (name string, per time.Duration, ok bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return "", 0, false
	}
	name = strings.TrimPrefix(f[0], "Benchmark")
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i] // the GOMAXPROCS suffix
		}
	}
	for i := 2; i+1 < len(f); i++ {
		if f[i+1] == "ns/op" {
			ns, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return "", 0, false
			}
			return name, time.Duration(ns), true
		}
	}
	return "", 0, false
}
