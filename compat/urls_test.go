package compat

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// validURL applies the URL patterns as the oracle and the schemas do.
func validURL(s string) bool {
	if regexp.MustCompile(URLSpecialScheme).MatchString(s) {
		return regexp.MustCompile(URLSpecial).MatchString(s)
	}
	return regexp.MustCompile(URLGeneric).MatchString(s)
}

// readURLs reads compat/testdata/urls.json: each URL and whether Node's
// new URL() takes it.
func readURLs(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "urls.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ URLs map[string]bool }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.URLs
}

// TestURLPatternsAgreeWithNode: the patterns take exactly the URLs Node's
// new URL() took (the recorded answers).
func TestURLPatternsAgreeWithNode(t *testing.T) {
	for u, want := range readURLs(t) {
		if got := validURL(u); got != want {
			t.Errorf("%q: the patterns say %v, new URL() said %v", u, got, want)
		}
	}
}

// TestURLAnswersAreNodes asks the node on PATH again, where there is one:
// the recorded answers are what new URL() says.
func TestURLAnswersAreNodes(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	urls := readURLs(t)
	var list []string
	for u := range urls {
		list = append(list, u)
	}
	in, _ := json.Marshal(list)
	cmd := exec.Command(node, "-e", `let d="";process.stdin.on("data",c=>d+=c).on("end",()=>{const o={};for(const u of JSON.parse(d)){try{new URL(u);o[u]=true}catch{o[u]=false}}console.log(JSON.stringify(o))})`)
	cmd.Stdin = bytesReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]bool
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for u, want := range urls {
		if got[u] != want {
			t.Errorf("%q: node says %v, the record %v", u, got[u], want)
		}
	}
}

// bytesReader wraps b for a command's stdin.
func bytesReader(b []byte) *bytesReaderT { return &bytesReaderT{b: b} }

// bytesReaderT is an io.Reader over a byte slice.
type bytesReaderT struct{ b []byte }

func (r *bytesReaderT) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}
