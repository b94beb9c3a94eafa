package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"linkage/integrate"
)

// A progress line drawn during a run is erased before the summary, even when the last
// step came within the redraw interval (the line was left as "…93.8% 1.6 smodel …").
func TestProgressClearedBeforeSummary(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Unix(0, 0)
	p := newProgressLine(&buf, 0, 1, func() time.Time { return clock })
	clock = clock.Add(1500 * time.Millisecond)
	if err := p.observe(&integrate.State{T: 0.938}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "93.8%") {
		t.Fatalf("progress line %q does not show 93.8%%", buf.String())
	}
	clock = clock.Add(50 * time.Millisecond) // within the redraw interval: not drawn
	if err := p.observe(&integrate.State{T: 1}); err != nil {
		t.Fatal(err)
	}
	p.clear()
	if !strings.HasSuffix(buf.String(), "\r\033[K") {
		t.Errorf("after the run the progress line is not erased: %q", buf.String())
	}
	var quiet bytes.Buffer
	q := newProgressLine(&quiet, 0, 1, func() time.Time { return time.Unix(0, 0) })
	q.clear()
	if quiet.Len() != 0 {
		t.Errorf("clear wrote %q although no line was drawn", quiet.String())
	}
}
