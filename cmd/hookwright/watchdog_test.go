package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwright/hookwright/hooks"
)

// syncBuffer is a bytes.Buffer safe for the watchdog's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestWatchdogFailsOpenOnAHungHandler(t *testing.T) {
	m := new(hooks.Mux)
	release := make(chan struct{})
	m.Handle(hooks.EventStop, "", hooks.Named("stuck", hooks.HandlerFunc(func(context.Context, hooks.Input) (hooks.Result, error) {
		<-release // ignores its context
		return hooks.Blocked("too late"), nil
	})))
	var stdout, stderr syncBuffer
	exited := make(chan int, 1)
	dog := arm(10*time.Millisecond, m, &stdout, &stderr, func(code int) { exited <- code; close(release) })
	go m.Dispatch(context.Background(), &hooks.Stop{Common: hooks.Common{HookEventName: hooks.EventStop}})
	if code := <-exited; code != hooks.ExitOK {
		t.Fatalf("exit %d, want 0 (fail open)", code)
	}
	if dog.disarm() {
		t.Fatal("disarm after the watchdog fired let the caller write a second answer")
	}
	want := "hookwright: stuck did not return within 10ms (failed open)"
	if !strings.Contains(stderr.String(), want) || !strings.Contains(stdout.String(), `{"systemMessage":"`+want+`"}`) {
		t.Fatalf("stdout %q stderr %q", stdout.String(), stderr.String())
	}
}

func TestWatchdogStaysQuietWhenHandlersReturn(t *testing.T) {
	var stdout, stderr syncBuffer
	dog := arm(10*time.Millisecond, new(hooks.Mux), &stdout, &stderr, func(int) { t.Error("watchdog fired after disarm") })
	if !dog.disarm() {
		t.Fatal("disarm refused before the deadline")
	}
	time.Sleep(10*time.Millisecond + watchdogGrace + 50*time.Millisecond)
	if stdout.String() != "" || stderr.String() != "" {
		t.Fatalf("watchdog wrote %q %q", stdout.String(), stderr.String())
	}
}
