package guard

import (
	"strings"

	"github.com/hookwright/hookwright/internal/packs"
	"github.com/hookwright/hookwright/internal/shell"
)

// maxScript bounds the statements read from one source.
const maxScript = 1 << 20

// sql reads the statements a database client gets, from every place it
// reads them, and records what they destroy.
func (pc *packCtx) sql(set *packs.Set, out map[string]string) {
	cl, ok := set.Client(pc.name)
	if !ok {
		return
	}
	var vf []string
	if p := set.Pack("database"); p != nil {
		vf = p.ValueFlags
	}
	var srcs []string
	args := pc.args
	for k := 0; k < len(args); k++ {
		t := args[k].Text
		for _, f := range cl.Code {
			switch {
			case t == f:
				srcs = append(srcs, wordAt(args, k+1))
			case strings.HasPrefix(t, f+"="):
				srcs = append(srcs, t[len(f)+1:])
			case len(f) == 2 && len(t) > 2 && strings.HasPrefix(t, f) && !strings.HasPrefix(t, "--"):
				srcs = append(srcs, t[2:]) // mysql -e"DROP …"
			}
		}
		for _, f := range cl.Files {
			v := ""
			switch {
			case t == f:
				v = wordAt(args, k+1)
			case strings.HasPrefix(t, f+"="):
				v = t[len(f)+1:]
			}
			if s, ok := pc.cc.writtenText(v); ok {
				srcs = append(srcs, s)
			}
		}
	}
	pos := positionals(args, vf, cl.Code, cl.Files)
	switch {
	case cl.Positional == "after-first" && len(pos) > 1:
		srcs = append(srcs, strings.Join(pos[1:], " "))
	case cl.Positional == "all":
		srcs = append(srcs, strings.Join(pos, " "))
	case strings.HasPrefix(cl.Positional, "after-verb:"):
		verb := strings.TrimPrefix(cl.Positional, "after-verb:")
		for i, p := range pos {
			if p == verb {
				srcs = append(srcs, strings.Join(rawPositionals(args, vf)[min(i+1, len(pos)):], " "))
				break
			}
		}
	case cl.Positional == "js-files":
		for _, p := range pos {
			if s, ok := pc.cc.writtenText(p); ok {
				srcs = append(srcs, s)
			}
		}
	}
	if cl.Positional == "after-first" && len(pos) > 1 {
		// keep the statements' case: positionals lower-cased them
		srcs[len(srcs)-1] = strings.Join(rawPositionals(args, vf, cl.Code, cl.Files)[1:], " ")
	}
	if cl.Stdin {
		c := pc.cc.c
		if c.HasStdin {
			srcs = append(srcs, c.Stdin)
		}
		if s, ok := pc.cc.pipedText(); ok {
			srcs = append(srcs, s)
		} else if from := c.PipeFrom; from >= 0 && from < len(pc.cc.all) && pc.cc.all[from].Name() == "cat" {
			for _, a := range pc.cc.all[from].Args[1:] {
				if s, ok := pc.cc.writtenText(a.Text); ok {
					srcs = append(srcs, s)
				}
			}
		}
		// mysql app < <(echo "DROP TABLE t"): what a process substitution
		// of this command prints
		for _, sub := range pc.cc.all {
			if sub.Via == "<(…)" && sub.Parent == pc.cc.i {
				if s, ok := shell.Output(sub); ok {
					srcs = append(srcs, s)
				}
			}
		}
		for _, r := range c.Redirects {
			if r.Op == "<" {
				if s, ok := pc.cc.writtenText(r.Target.Text); ok {
					srcs = append(srcs, s)
				}
			}
		}
	}
	for _, s := range srcs {
		if len(s) > maxScript {
			s = s[:maxScript]
		}
		switch cl.Dialect {
		case "sql":
			SQLKinds(s, out)
		case "mongo":
			mongoKinds(s, out)
		case "redis":
			redisKinds(s, pc.cc.c.MoreArgs, out)
		}
	}
}

// rawPositionals is positionals without lower-casing.
func rawPositionals(args []shell.Word, valueFlags ...[]string) []string {
	var out []string
	for k := 0; k < len(args) && len(out) < 32; k++ {
		t := args[k].Text
		if len(t) > 1 && t[0] == '-' {
			if !strings.Contains(t, "=") {
				for _, vf := range valueFlags {
					if contains(vf, t) {
						k++
						break
					}
				}
			}
			continue
		}
		out = append(out, t)
	}
	return out
}

// SQLKinds reads SQL text and records in out the destructive statements
// it holds: "drop" (DROP …, ALTER … DROP COLUMN/PARTITION/TABLE),
// "truncate", "delete-all" (DELETE or UPDATE without WHERE). Comments,
// string literals and quoted identifiers are skipped; psql and sqlite
// meta-commands (lines starting with \ or .) are not SQL.
func SQLKinds(text string, out map[string]string) {
	var stmt []string // upper-case words at paren depth 0, and "(" / ")"
	depth := 0
	flush := func() {
		sqlStatement(stmt, out)
		stmt = stmt[:0]
	}
	lineStart := true
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case lineStart && (c == '\\' || c == '.'):
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		}
		lineStart = false
		switch {
		case c == '-' && i+1 < len(text) && text[i+1] == '-', c == '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return
			}
			i += end + 4
		case c == '\'' || c == '"' || c == '`':
			i++
			for i < len(text) {
				if text[i] == c {
					if i+1 < len(text) && text[i+1] == c {
						i += 2
						continue
					}
					break
				}
				if text[i] == '\\' && c == '\'' {
					i++
				}
				i++
			}
			i++
			if depth == 0 {
				stmt = append(stmt, "?")
			}
		case c == ';':
			flush()
			depth = 0
			i++
		case c == '(':
			depth++
			i++
		case c == ')':
			if depth > 0 {
				depth--
			}
			i++
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
			j := i
			for j < len(text) && (text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9' || text[j] == '_' || text[j] == '$') {
				j++
			}
			if depth == 0 && len(stmt) < 4096 {
				stmt = append(stmt, strings.ToUpper(text[i:j]))
			}
			i = j
		default:
			i++
		}
	}
	flush()
}

// sqlStatement judges one statement's top-level words.
func sqlStatement(w []string, out map[string]string) {
	if len(w) == 0 {
		return
	}
	has := func(s string) bool {
		for _, x := range w {
			if x == s {
				return true
			}
		}
		return false
	}
	verb := w[0]
	if verb == "WITH" {
		for _, x := range w[1:] {
			if x == "SELECT" || x == "INSERT" || x == "UPDATE" || x == "DELETE" || x == "MERGE" {
				verb = x
				break
			}
		}
	}
	short := strings.Join(w[:min(len(w), 4)], " ")
	switch verb {
	case "DROP":
		out["drop"] = "the SQL `" + short + "` drops it with its data"
	case "TRUNCATE":
		out["truncate"] = "the SQL `" + short + "` empties the table"
	case "ALTER":
		for k := 1; k+1 < len(w); k++ {
			if w[k] == "DROP" && (w[k+1] == "COLUMN" || w[k+1] == "PARTITION" || w[k+1] == "TABLE" || w[k+1] == "SCHEMA") {
				out["drop"] = "the SQL `ALTER … DROP " + w[k+1] + "` drops data"
				return
			}
		}
	case "DELETE", "UPDATE":
		if !has("WHERE") && !has("CURRENT") {
			out["delete-all"] = "the SQL `" + short + "` has no WHERE: it changes every row"
		}
	}
}

// mongoKinds reads mongo shell code.
func mongoKinds(text string, out map[string]string) {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '/' && i+1 < len(text) && text[i+1] == '/' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\n' || text[i-1] == ';') {
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	s := b.String()
	switch {
	case strings.Contains(s, ".dropdatabase("), strings.Contains(s, ".drop()"), strings.Contains(s, "dropcollection("):
		out["drop"] = "the mongo code drops a database or collection"
	}
	for _, p := range []string{"deletemany({})", "deletemany({},", "remove({})", "remove({},", "updatemany({},"} {
		if strings.Contains(s, p) {
			out["delete-all"] = "the mongo code " + strings.TrimSuffix(p, ",") + " changes every document"
		}
	}
}

// redisKinds reads redis commands (words or lines).
func redisKinds(text string, bulk bool, out map[string]string) {
	for i, f := range strings.Fields(text) {
		switch strings.ToUpper(f) {
		case "FLUSHALL", "FLUSHDB":
			out["flush"] = "redis " + strings.ToUpper(f) + " deletes every key"
			return
		case "DEL", "UNLINK":
			if i == 0 && bulk {
				out["flush"] = "redis " + strings.ToUpper(f) + " of every key a scan finds"
				return
			}
		}
	}
}

// writtenText returns what the command line wrote to the file arg before
// (cat > f <<EOF, echo … > f, printf … | tee f), if the guard saw it.
func (cc *cmdCtx) writtenText(arg string) (string, bool) {
	if arg == "" || len(cc.ck.written) == 0 {
		return "", false
	}
	p, ok := cc.ck.env.expand(arg, cc.cwd)
	if !ok {
		return "", false
	}
	s, ok := cc.ck.written[p]
	return s, ok
}

// envMarker stands for the environment in the text written to a file.
const envMarker = "\x00environment\x00"

// recordWrites remembers the text a command writes to files, so that a
// later command of the same line that reads the file (psql -f) is judged
// on it.
func (cc *cmdCtx) recordWrites() {
	c := cc.c
	var text string
	var known bool
	switch {
	case c.HasStdin && (c.Name() == "cat" || c.Name() == "tee"):
		text, known = c.Stdin, true
	default:
		text, known = shell.Output(*c)
	}
	if !known && c.Name() == "tee" {
		text, known = cc.pipedText()
	}
	if !known && envDumper(c.Name(), cc.args()) {
		text, known = envMarker, true // env > /tmp/e; curl -F f=@/tmp/e
	}
	if from := c.PipeFrom; !known && c.Name() == "tee" && from >= 0 && from < len(cc.all) {
		if src := cc.all[from]; len(src.Args) > 0 && envDumper(src.Name(), src.Args[1:]) {
			text, known = envMarker, true // env | tee /tmp/e
		}
	}
	if !known {
		return
	}
	put := func(arg string, add bool) {
		p, ok := cc.ck.env.expand(arg, cc.cwd)
		if !ok {
			return
		}
		if kind := hookFile(p); kind != "" {
			t := text
			if add {
				t = cc.ck.written[p] + text
			}
			defer cc.judgeLaterFile(p, kind, t, true)
		}
		if cc.ck.written == nil {
			cc.ck.written = map[string]string{}
		}
		if len(cc.ck.written) > 64 {
			return
		}
		if add {
			text = cc.ck.written[p] + text
		}
		if len(text) > maxScript {
			text = text[:maxScript]
		}
		cc.ck.written[p] = text
	}
	for _, r := range c.Redirects {
		if r.Op == ">" || r.Op == ">|" || r.Op == ">>" {
			put(r.Target.Text, r.Op == ">>")
		}
	}
	if c.Name() == "tee" {
		for _, a := range cc.args() {
			if !strings.HasPrefix(a.Text, "-") {
				put(a.Text, false)
			}
		}
	}
}
