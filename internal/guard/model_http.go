package guard

import (
	"fmt"
	"strings"

	"github.com/hookwright/hookwright/internal/shell"
)

// httpRequest is what the guard reads of an HTTP call on a command line.
type httpRequest struct {
	// method is upper case; the client's default when the line names
	// none (GET, or POST when it sends a body or fields).
	method string
	urls   []string
	// bodies are the request bodies given on the line (-d, --data,
	// --json, --body); fields are key=value fields (gh api -f, httpie's
	// key=value items).
	bodies, fields []string
}

// curlValueOptions are curl's options that take the next word.
func curlValueOption(t string) bool {
	switch t {
	case "-X", "--request", "-H", "--header", "-d", "--data", "--data-raw", "--data-binary", "--data-urlencode",
		"--data-ascii", "--json", "-F", "--form", "--form-string", "-u", "--user", "-o", "--output", "-A", "--user-agent",
		"-e", "--referer", "-b", "--cookie", "-c", "--cookie-jar", "-T", "--upload-file", "-K", "--config", "-w",
		"--write-out", "-m", "--max-time", "--connect-timeout", "--retry", "--retry-delay", "--retry-max-time", "-x",
		"--proxy", "--cacert", "--capath", "--cert", "-E", "--key", "--resolve", "--url", "-r", "--range", "-z",
		"--time-cond", "--limit-rate", "-Y", "-y", "-C", "--continue-at", "--unix-socket", "--abstract-unix-socket",
		"-U", "--proxy-user", "--oauth2-bearer", "--aws-sigv4", "--interface", "--local-port", "--max-filesize",
		"--max-redirs", "-Q", "--quote", "--stderr", "--trace", "--trace-ascii", "--dns-servers", "--connect-to",
		"--variable", "--expand-data", "--expand-url", "--hostpubmd5", "--pubkey", "--cert-type", "--key-type", "--pass":
		return true
	}
	return false
}

// readHTTP reads an HTTP call of curl, wget, httpie, xh, gh api, glab api
// or az rest; ok is false for another program.
func readHTTP(name string, args []shell.Word) (httpRequest, bool) {
	var r httpRequest
	data, upload, head := false, false, false
	switch name {
	case "curl", "curlie":
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			next := wordAt(args, k+1)
			switch {
			case t == "-X" || t == "--request":
				r.method = next
				k++
			case strings.HasPrefix(t, "--request="):
				r.method = strings.TrimPrefix(t, "--request=")
			case t == "--url":
				r.urls = append(r.urls, next)
				k++
			case t == "-d" || strings.HasPrefix(t, "--data") || t == "--json" || t == "-F" || t == "--form" || t == "--form-string":
				data = true
				if strings.Contains(t, "=") {
					_, v, _ := strings.Cut(t, "=")
					r.bodies = append(r.bodies, v)
				} else {
					r.bodies = append(r.bodies, next)
					k++
				}
			case t == "-T" || t == "--upload-file":
				upload = true
				k++
			case t == "-I" || t == "--head":
				head = true
			case t == "-G" || t == "--get":
				r.method = "GET"
			case curlValueOption(t):
				k++
			case len(t) > 2 && t[0] == '-' && t[1] != '-':
				// a cluster: -sX DELETE, -XDELETE, -sSd @f
				for j := 1; j < len(t); j++ {
					switch t[j] {
					case 'X':
						if j == len(t)-1 {
							r.method = next
							k++
						} else {
							r.method = t[j+1:]
						}
						j = len(t)
					case 'd', 'F':
						data = true
						if j == len(t)-1 {
							r.bodies = append(r.bodies, next)
							k++
						}
						j = len(t)
					case 'I':
						head = true
					case 'H', 'o', 'u', 'A', 'e', 'b', 'c', 'T', 'K', 'w', 'm', 'x', 'E', 'r', 'z', 'Y', 'y', 'C', 'U', 'Q':
						if j == len(t)-1 {
							k++
						}
						j = len(t)
					}
				}
			case strings.HasPrefix(t, "-"):
			default:
				r.urls = append(r.urls, t)
			}
		}
	case "wget":
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			switch {
			case t == "--method":
				r.method = wordAt(args, k+1)
				k++
			case strings.HasPrefix(t, "--method="):
				r.method = strings.TrimPrefix(t, "--method=")
			case strings.HasPrefix(t, "--post-data=") || strings.HasPrefix(t, "--body-data="):
				data = true
				_, v, _ := strings.Cut(t, "=")
				r.bodies = append(r.bodies, v)
			case strings.HasPrefix(t, "--post-file=") || strings.HasPrefix(t, "--body-file="):
				data = true
			case t == "-O" || t == "-o" || t == "-P" || t == "--header" || t == "-U" || t == "-e" || t == "--user" ||
				t == "--password" || t == "-t" || t == "-T" || t == "-w" || t == "-a" || t == "-i" || t == "-Q" || t == "-l":
				k++
			case strings.HasPrefix(t, "-"):
			default:
				r.urls = append(r.urls, t)
			}
		}
	case "http", "https", "httpie", "xh", "xhs":
		pos := 0
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			switch {
			case t == "-a" || t == "--auth" || t == "--session" || t == "-o" || t == "--output" || t == "--verify" ||
				t == "--cert" || t == "--cert-key" || t == "-A" || t == "--auth-type" || t == "--timeout" || t == "--proxy":
				k++
			case strings.HasPrefix(t, "-"):
				if t == "-f" || t == "--form" || t == "-j" || t == "--json" {
					data = true
				}
			case pos == 0 && httpMethod(t):
				r.method = t
				pos++
			case len(r.urls) == 0:
				r.urls = append(r.urls, t)
				pos++
			default:
				// items: key=value and key:=json are data, Header:value a
				// header, key==value a query parameter
				if i := strings.IndexAny(t, "=:"); i > 0 {
					if t[i] == '=' && !strings.HasPrefix(t[i:], "==") || strings.HasPrefix(t[i:], ":=") {
						data = true
						r.fields = append(r.fields, t)
					}
				} else if strings.HasPrefix(t, "@") {
					data = true
				}
			}
		}
	case "gh", "glab":
		sub := ""
		for k := 0; k < len(args); k++ {
			t := args[k].Text
			switch {
			case sub == "" && !strings.HasPrefix(t, "-"):
				sub = t
				if sub != "api" {
					return r, false
				}
			case t == "-X" || t == "--method":
				r.method = wordAt(args, k+1)
				k++
			case strings.HasPrefix(t, "-X") && len(t) > 2:
				r.method = t[2:]
			case strings.HasPrefix(t, "--method="):
				r.method = strings.TrimPrefix(t, "--method=")
			case t == "-f" || t == "-F" || t == "--field" || t == "--raw-field":
				data = true
				r.fields = append(r.fields, wordAt(args, k+1))
				k++
			case strings.HasPrefix(t, "--field=") || strings.HasPrefix(t, "--raw-field="):
				data = true
				_, v, _ := strings.Cut(t, "=")
				r.fields = append(r.fields, v)
			case t == "--input":
				data = true
				k++
			case t == "-H" || t == "--header" || t == "-q" || t == "--jq" || t == "-t" || t == "--template" || t == "--hostname" || t == "-R" || t == "--repo" || t == "--cache" || t == "-p" || t == "--preview":
				k++
			case strings.HasPrefix(t, "-"):
			case sub == "api" && len(r.urls) == 0:
				r.urls = append(r.urls, t)
			}
		}
		if sub != "api" {
			return r, false
		}
	case "az":
		if wordAt(args, 0) != "rest" {
			return r, false
		}
		for k := 1; k < len(args); k++ {
			t := args[k].Text
			switch {
			case t == "--method" || t == "-m":
				r.method = wordAt(args, k+1)
				k++
			case t == "--uri" || t == "--url" || t == "-u":
				r.urls = append(r.urls, wordAt(args, k+1))
				k++
			case t == "--body" || t == "-b":
				data = true
				r.bodies = append(r.bodies, wordAt(args, k+1))
				k++
			}
		}
	default:
		return r, false
	}
	r.method = strings.ToUpper(strings.TrimSpace(r.method))
	if r.method == "" {
		switch {
		case head:
			r.method = "HEAD"
		case upload:
			r.method = "PUT"
		case data:
			r.method = "POST"
		default:
			r.method = "GET"
		}
	}
	return r, true
}

// httpMethod reports whether a word is an HTTP method (httpie's first
// positional).
func httpMethod(w string) bool {
	switch strings.ToUpper(w) {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PURGE", "BAN", "TRACE":
		return true
	}
	return false
}

// urlPath returns the path and query of a URL or host:port/path word.
func urlPath(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexByte(u, '/'); i >= 0 {
		return u[i:]
	}
	return ""
}

// harmfulPath returns what in an HTTP path names a destructive action:
// a segment whose first or last word is a destructive verb
// (_delete_by_query, purge_cache, users/42/deactivate, doDelete), or an
// index closed; or "".
func harmfulPath(p string) string {
	if q := strings.IndexAny(p, "?#"); q >= 0 {
		p = p[:q]
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || len(seg) > 64 {
			continue
		}
		if seg == "_close" || seg == "_cluster" && strings.Contains(p, "_cluster/settings") {
			return seg
		}
		if harmWord(seg) != "" {
			return seg
		}
	}
	return ""
}

// graphQLHarm returns the destructive mutation a GraphQL body asks for,
// or "".
func graphQLHarm(body string) string {
	i := strings.Index(strings.ToLower(body), "mutation")
	if i < 0 {
		return ""
	}
	rest := body[i+len("mutation"):]
	for j := 0; j < len(rest) && j < 4096; {
		for j < len(rest) && !isNameByte(rest[j]) {
			j++
		}
		k := j
		for k < len(rest) && isNameByte(rest[k]) {
			k++
		}
		if k > j {
			var buf [16]string
			if toks := wordTokens(rest[j:k], buf[:0]); len(toks) > 1 && harmVerb(toks[0]) {
				return rest[j:k]
			}
		}
		j = k + 1
	}
	return ""
}

// harmHTTP is the model's HTTP part: a destructive method (DELETE where
// the http pack does not judge it, PURGE, BAN), a write to a path that
// names a destructive action, a GraphQL delete mutation.
func (pc *packCtx) harmHTTP(out map[string]string) {
	r, ok := readHTTP(pc.name, pc.args)
	if !ok {
		return
	}
	target := strings.Join(r.urls, " ")
	switch r.method {
	case "GET", "HEAD", "OPTIONS", "TRACE":
		return
	case "DELETE":
		if pc.name == "az" {
			out["http"] = fmt.Sprintf("`az rest --method delete %s` deletes what the URL names", target)
		}
		return // curl, wget, httpie, xh, gh api: the http and platforms packs judge DELETE
	case "PURGE", "BAN":
		out["http"] = fmt.Sprintf("`%s` sends an HTTP %s to %s, which empties a cache for everyone", pc.name, r.method, target)
		return
	}
	for _, u := range r.urls {
		if seg := harmfulPath(urlPath(u)); seg != "" {
			out["http"] = fmt.Sprintf("`%s` sends an HTTP %s to %s, whose path names a destructive action (%s)", pc.name, r.method, u, seg)
			return
		}
		if pc.name == "gh" || pc.name == "glab" {
			if seg := harmfulPath(u); seg != "" {
				out["http"] = fmt.Sprintf("`%s api -X %s %s`: the endpoint names a destructive action (%s)", pc.name, r.method, u, seg)
				return
			}
		}
	}
	for _, b := range r.bodies {
		if m := graphQLHarm(b); m != "" {
			out["http"] = fmt.Sprintf("`%s` sends a GraphQL mutation %s to %s", pc.name, m, target)
			return
		}
	}
}
