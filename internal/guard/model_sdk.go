package guard

import (
	"fmt"
	"strings"
)

// The model's "sdk" part: inline code (python -c, node -e, ruby -e, …) or
// an SDK call given as the command that calls an API client's
// destructive method. A call is an API client's when its receiver is a
// chain (stripe.Customer.delete, es.indices.delete,
// boto3.client('s3').delete_bucket) or a known client (requests, axios,
// client, stripe, …); a method of a local value (m.delete(k), xs.remove(x))
// is not, nor are the file calls (os.remove, fs.rmSync), which the file
// rules judge.

// fileRoot reports whether a receiver is a file-system module, whose
// deletes the file rules judge.
func fileRoot(r string) bool {
	switch r {
	case "os", "shutil", "fs", "path", "Path", "pathlib", "File", "FileUtils", "Dir", "Deno", "Bun", "io", "tempfile",
		"glob", "fsPromises", "fse", "fsp", "Pathname", "Files", "sys", "self", "this", "document", "window", "console":
		return true
	}
	return false
}

// apiRoot reports whether a receiver names an API client.
func apiRoot(r string) bool {
	switch strings.ToLower(r) {
	case "client", "api", "sdk", "stripe", "braintree", "gateway", "algolia", "algoliasearch", "index", "es", "elastic",
		"elasticsearch", "opensearch", "s3", "sqs", "sns", "ec2", "rds", "dynamodb", "boto3", "redis", "r", "rdb", "mongo",
		"collection", "coll", "bucket", "session", "requests", "httpx", "axios", "got", "ky", "superagent", "http", "https",
		"octokit", "github", "gitlab", "firebase", "admin", "supabase", "prisma", "knex", "sequelize", "mongoose", "db",
		"square", "paypal", "adyen", "twilio", "sendgrid", "mailgun", "pagerduty", "datadog", "meili", "meilisearch",
		"typesense", "pinecone", "qdrant", "weaviate", "cloudflare", "cf", "vercel", "heroku", "k8s", "kube", "v1", "apps",
		"batch", "core", "storage", "gcs", "bigquery", "bq", "firestore", "pubsub", "kafka", "producer", "conn", "cursor":
		return true
	}
	return false
}

// sdkVerb returns the destructive verb of an SDK method name, and
// whether it needs a known client (weak verbs: remove, clear, reset).
func sdkVerb(method string) (verb string, weak bool) {
	var buf [16]string
	toks := wordTokens(method, buf[:0])
	if len(toks) == 0 {
		return "", false
	}
	switch toks[0] {
	case "delete", "del", "destroy", "drop", "truncate", "purge", "flush", "flushall", "flushdb", "cancel", "void", "refund",
		"terminate", "revoke", "deactivate", "detach", "deregister", "wipe", "erase", "deleteall", "permanent":
		if toks[0] == "permanent" && (len(toks) < 2 || !harmVerb(toks[1])) {
			return "", false
		}
		return toks[0], false
	case "remove", "clear", "reset", "archive", "disable", "unpublish", "expire":
		return toks[0], true
	}
	return "", false
}

// receiverChain returns the receiver of the call whose dot is at code[i]
// ("stripe.Customer" for stripe.Customer.delete), its first name, and
// how many dots, :: or calls it chains.
func receiverChain(code string, dot int) (chain, root string, links int) {
	j := dot
	depth := 0
	for j > 0 && dot-j < 160 {
		c := code[j-1]
		switch {
		case c == ')' || c == ']':
			depth++
		case (c == '(' || c == '[') && depth > 0:
			depth--
		case depth > 0:
		case isNameByte(c) || c == '.' || c == ':' && j >= 2 && code[j-2] == ':' || c == ':' && j < len(code) && code[j] == ':':
		default:
			goto done
		}
		j--
	}
done:
	chain = code[j:dot]
	k := 0
	for k < len(chain) && isNameByte(chain[k]) {
		k++
	}
	root = chain[:k]
	links = strings.Count(chain, ".") + strings.Count(chain, "::") + strings.Count(chain, ")")
	return chain, root, links
}

// sdkCalls finds an API client's destructive calls in code.
func (cc *cmdCtx) sdkCalls(lang, code string) {
	if cc.noSDK {
		return
	}
	if len(code) > 1<<20 {
		code = code[:1<<20]
	}
	found := func(what string) {
		cc.modelFind("sdk", fmt.Sprintf("the %s code %s", lang, what))
	}
	// fetch(url, {method: 'DELETE'}), http.request({method: "DELETE"})
	lower := strings.ToLower(code)
	for off, n := 0, 0; n < 64; n++ {
		i := strings.Index(lower[off:], "method")
		if i < 0 {
			break
		}
		at := off + i + len("method")
		rest := strings.TrimLeft(lower[at:min(len(lower), at+24)], " \t:='\">")
		if strings.HasPrefix(rest, "delete") || strings.HasPrefix(rest, "purge") {
			found("sends an HTTP DELETE")
			return
		}
		off = at
	}
	for i := 0; i < len(code); i++ {
		if code[i] != '.' && !(code[i] == ':' && i+1 < len(code) && code[i+1] == ':') {
			// new DeleteBucketCommand(…): the AWS SDK v3's commands
			if i+4 < len(code) && code[i:i+4] == "new " {
				j := i + 4
				k := j
				for k < len(code) && isNameByte(code[k]) {
					k++
				}
				name := code[j:k]
				if strings.HasSuffix(name, "Command") {
					if v, _ := sdkVerb(strings.TrimSuffix(name, "Command")); v != "" {
						found(fmt.Sprintf("sends %s, an API call that deletes", name))
						return
					}
				}
			}
			continue
		}
		start := i + 1
		if code[i] == ':' {
			start = i + 2
		}
		k := start
		for k < len(code) && isNameByte(code[k]) {
			k++
		}
		if k == start || k >= len(code) {
			continue
		}
		p := k
		for p < len(code) && code[p] == ' ' {
			p++
		}
		if p >= len(code) || code[p] != '(' {
			continue
		}
		method := code[start:k]
		chain, root, links := receiverChain(code, i)
		if root == "" || fileRoot(root) {
			continue
		}
		last := chain
		if d := strings.LastIndexAny(chain, ".:"); d >= 0 {
			last = chain[d+1:]
		}
		if method == "create" && (strings.EqualFold(last, "refunds") || strings.EqualFold(last, "refund")) {
			found(fmt.Sprintf("calls %s.create: a refund moves money back and cannot be undone", chain))
			return
		}
		verb, weak := sdkVerb(method)
		if verb == "" {
			continue
		}
		if weak && !apiRoot(root) || !weak && links < 1 && !apiRoot(root) {
			continue
		}
		found(fmt.Sprintf("calls %s.%s(…), an API client's %s", chain, method, verb))
		return
	}
}

// sdkCommand judges a command line that is an SDK call itself
// (gateway.customer.delete('x')), which no shell parses.
func (cc *cmdCtx) sdkCommand(cmd string) {
	t := strings.TrimSpace(cmd)
	if len(t) > 4096 || !strings.Contains(t, "(") || !strings.Contains(t, ".") {
		return
	}
	cc.sdkCalls("SDK", t)
}
