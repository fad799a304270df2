package main

import (
	"bytes"
	"errors"
	"testing"
)

func TestDebugLog(t *testing.T) {
	var buf bytes.Buffer
	env := map[string]string{"HOOKWRIGHT_DEBUG": "1"}
	l := newLogger(&buf, func(k string) string { return env[k] })
	l.Debug("journal not written", "err", errors.New("no space left"), "event", "Stop", "n", 3, "empty", "")
	want := `hookwright: debug: journal not written err="no space left" event=Stop n=3 empty=""` + "\n"
	if buf.String() != want {
		t.Errorf("got  %q\nwant %q", buf.String(), want)
	}
	buf.Reset()
	newLogger(&buf, func(string) string { return "" }).Debug("x", "k", "v")
	if buf.Len() != 0 {
		t.Errorf("logged without HOOKWRIGHT_DEBUG: %q", buf.String())
	}
}
