package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hookwright/hookwright/hooks"
	"github.com/hookwright/hookwright/internal/guard"
)

// ErrBadFilter is wrapped by every error of [Store.Resolve]: a filter
// value that names nothing the store can hold. The API answers it with
// 400, the CLI with a usage error.
var ErrBadFilter = errors.New("bad filter")

// Decisions are the values a decision filter takes; "none" selects the
// calls without a decision.
var Decisions = []string{"allow", "ask", "block", "none"}

// maxListed caps the values an error lists.
const maxListed = 40

// Resolve checks f's event, decision, tool, handler, rule and session against what the
// store and the runtime know and returns f in the store's spelling:
//   - event: any spelling the runtime takes ("pre-tool-use", "PreToolUse",
//     "pretooluse", "post_tool_use"), or a name the store holds;
//   - decision: one of Decisions;
//   - tool: a tool name the store holds, case-insensitively;
//   - handler: a handler name the store holds ("guard"), likewise;
//   - rule: a rule the guard has (guard.RuleIDs) or the store holds,
//     likewise; a rule no call met yet matches nothing, not an error;
//   - session: a whole id, or a prefix of exactly one (an ambiguous prefix
//     lists the candidates).
//
// Anything else is an error wrapping ErrBadFilter, with the accepted
// values, on one line.
func (s *Store) Resolve(ctx context.Context, f Filter) (Filter, error) {
	if f.Event != "" {
		ev, err := s.resolveEvent(ctx, f.Event)
		if err != nil {
			return f, err
		}
		f.Event = ev
	}
	if f.Decision != "" {
		d := strings.ToLower(f.Decision)
		if !slices.Contains(Decisions, d) {
			return f, fmt.Errorf("%w: decision %q: want one of %s", ErrBadFilter, f.Decision, strings.Join(Decisions, ", "))
		}
		f.Decision = d
	}
	if f.Tool != "" {
		tools, err := s.distinct(ctx, "tool")
		if err != nil {
			return f, err
		}
		t, ok := pick(tools, f.Tool)
		if !ok {
			return f, fmt.Errorf("%w: tool %q: the store has %s", ErrBadFilter, f.Tool, listed(tools))
		}
		f.Tool = t
	}
	if f.Handler != "" {
		handlers, err := s.distinct(ctx, "handler")
		if err != nil {
			return f, err
		}
		h, ok := pick(handlers, f.Handler)
		if !ok {
			return f, fmt.Errorf("%w: handler %q: the store has %s", ErrBadFilter, f.Handler, listed(handlers))
		}
		f.Handler = h
	}
	if f.Rule != "" {
		held, err := s.distinct(ctx, "rule")
		if err != nil {
			return f, err
		}
		known := guard.RuleIDs()
		for _, r := range held {
			if !slices.Contains(known, r) {
				known = append(known, r)
			}
		}
		r, ok := pick(known, f.Rule)
		if !ok {
			return f, fmt.Errorf("%w: rule %q is not a guard rule (hwctl explain --rules lists them); the store has %s", ErrBadFilter, f.Rule, listed(held))
		}
		f.Rule = r
	}
	if f.Session != "" {
		id, err := s.resolveSession(ctx, f.Session)
		if err != nil {
			return f, err
		}
		f.Session = id
	}
	return f, nil
}

// resolveEvent is the canonical name of ev.
func (s *Store) resolveEvent(ctx context.Context, ev string) (string, error) {
	if e, err := hooks.ParseEvent(ev); err == nil {
		return string(e), nil
	}
	var known []string
	for _, e := range hooks.Events() {
		known = append(known, string(e))
	}
	rows, err := s.db.QueryContext(ctx, "SELECT DISTINCT event FROM counts WHERE event <> ''")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			return "", err
		}
		if !slices.Contains(known, e) {
			known = append(known, e)
		}
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if e, ok := pick(known, ev); ok {
		return e, nil
	}
	return "", fmt.Errorf("%w: event %q: want one of %s (kebab-case and any letter case also do: pre-tool-use)", ErrBadFilter, ev, listed(known))
}

// resolveSession is the one session id that is id or starts with it.
func (s *Store) resolveSession(ctx context.Context, id string) (string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM sessions WHERE id >= ? ORDER BY id LIMIT ?", id, maxListed+1)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var x string
		if err := rows.Scan(&x); err != nil {
			return "", err
		}
		if !strings.HasPrefix(x, id) {
			break
		}
		if x == id {
			return x, nil
		}
		found = append(found, x)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("%w: no session id starts with %q (hwctl sessions lists them)", ErrBadFilter, id)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%w: session %q is ambiguous: it starts %s; give more of the id", ErrBadFilter, id, listed(found))
}

// distinct returns the non-empty values of col (tool), one index seek
// each rather than a walk over every row.
func (s *Store) distinct(ctx context.Context, col string) ([]string, error) {
	q := fmt.Sprintf(`WITH RECURSIVE v(x) AS (
		SELECT (SELECT min(%[1]s) FROM events WHERE %[1]s <> '')
		UNION ALL
		SELECT (SELECT min(%[1]s) FROM events WHERE %[1]s <> '' AND %[1]s > v.x) FROM v WHERE v.x IS NOT NULL
	) SELECT x FROM v WHERE x IS NOT NULL LIMIT 10000`, col)
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var x string
		if err := rows.Scan(&x); err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

// pick returns the value of known that v names: itself, else the one that
// equals it ignoring case, "-" and "_".
func pick(known []string, v string) (string, bool) {
	if slices.Contains(known, v) {
		return v, true
	}
	fold := func(s string) string {
		return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s))
	}
	var match []string
	for _, k := range known {
		if fold(k) == fold(v) {
			match = append(match, k)
		}
	}
	if len(match) == 1 {
		return match[0], true
	}
	return "", false
}

// listed joins values for an error, at most maxListed of them.
func listed(values []string) string {
	if len(values) == 0 {
		return "none yet"
	}
	if len(values) > maxListed {
		return strings.Join(values[:maxListed], ", ") + fmt.Sprintf(", ... (%d in all)", len(values))
	}
	return strings.Join(values, ", ")
}
