package compat

// ValueKind is what the releases' hooks.json validator requires of one
// handler key's value. The oracle (hookgen validate) and the JSON Schemas
// both read [HandlerValues], so the rule is written once.
type ValueKind string

// The value kinds of handler keys (zod, the same in 2.0.30, 2.1.33,
// 2.1.100, 2.1.252 and 2.1.330's code where the key exists).
const (
	// ValueString: string().
	ValueString ValueKind = "string"
	// ValueNonEmptyString: string().min(1).
	ValueNonEmptyString ValueKind = "non-empty string"
	// ValuePositiveNumber: number().positive(), no upper bound, fractions
	// load.
	ValuePositiveNumber ValueKind = "positive number"
	// ValueBool: boolean().
	ValueBool ValueKind = "boolean"
	// ValueShell: enum(["bash", "powershell"]).
	ValueShell ValueKind = "shell"
	// ValueURL: string().url(), which is `new URL(s)`.
	ValueURL ValueKind = "URL"
	// ValueStringMap: record(string()).
	ValueStringMap ValueKind = "object of strings"
	// ValueObject: any object.
	ValueObject ValueKind = "object"
	// ValueStringList: array(string()).
	ValueStringList ValueKind = "list of strings"
	// ValueAny: read whatever it is (an unknown "cloud" or "onFailure"
	// reads as the safe default; 2.1.330's schema).
	ValueAny ValueKind = "any"
)

// ShellValues are the values a handler's "shell" takes.
var ShellValues = []string{"bash", "powershell"}

// HandlerValues is the value kind of every handler key the matrix names;
// a key not listed takes a string.
var HandlerValues = map[string]ValueKind{
	"command": ValueString, "prompt": ValueString, "server": ValueString, "tool": ValueString,
	"statusMessage": ValueString, "model": ValueString, "if": ValueString,
	"rewakeMessage": ValueNonEmptyString, "rewakeSummary": ValueNonEmptyString,
	"timeout": ValuePositiveNumber,
	"once":    ValueBool, "async": ValueBool, "asyncRewake": ValueBool, "continueOnBlock": ValueBool, "holdsTools": ValueBool,
	"shell":   ValueShell,
	"url":     ValueURL,
	"headers": ValueStringMap,
	"input":   ValueObject,
	"args":    ValueStringList, "allowedEnvVars": ValueStringList,
	"cloud": ValueAny, "onFailure": ValueAny,
}

// HandlerValue returns the value kind of a handler key.
func HandlerValue(key string) ValueKind {
	if k, ok := HandlerValues[key]; ok {
		return k
	}
	return ValueString
}

// HandlerRequired lists each handler type's required keys (zod, every
// release that has the type).
var HandlerRequired = map[string][]string{
	"command":  {"command"},
	"prompt":   {"prompt"},
	"agent":    {"prompt"},
	"http":     {"url"},
	"mcp_tool": {"server", "tool"},
}

// LongTimeout is the timeout, in seconds, above which the oracle says a
// value looks like milliseconds (a lint: no release bounds it).
const LongTimeout = 3600

// A handler's "url" is zod's string().url(), which is `new URL(s)` (the
// WHATWG URL parser): around the URL, white space is dropped; a special
// scheme (http, https, ws, wss, ftp) needs a host free of the forbidden
// code points and a port of at most 65535; a path, query or fragment may
// hold anything (spaces are encoded); any other scheme takes anything
// after its colon. Node v20.20.2's answers for the cases of
// compat/testdata/urls.json agree (TestURLPatternsAgreeWithNode). Tabs
// and line breaks inside a URL, which the parser deletes, are not
// modelled. The oracle and the JSON Schemas both apply these patterns the
// same way: a URL that matches URLSpecialScheme must match URLSpecial, any
// other must match URLGeneric. They are RE2 and ECMA-262 alike, so an
// editor reading the schemas applies them too.
const (
	URLSpecialScheme = `^[\x00-\x20]*(?:[Hh][Tt][Tt][Pp][Ss]?|[Ww][Ss][Ss]?|[Ff][Tt][Pp]):`
	URLSpecial       = `^[\x00-\x20]*(?:[Hh][Tt][Tt][Pp][Ss]?|[Ww][Ss][Ss]?|[Ff][Tt][Pp]):[/\\]*(?:[^/\\?#]*@)?(?:\[[0-9A-Fa-f:.]+\]|[^\x00-\x20#/:<>?@\[\\\]^|%]+)(?::0*(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})?)?(?:[/\\?#].*)?[\x00-\x20]*$`
	URLGeneric       = `^[\x00-\x20]*[A-Za-z][A-Za-z0-9+.\-]*:.*$`
)
