package check

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// TestReportStaysRecorded: what a rule does to a finding after reporting it
// (adding related places, lowering it) lands on that finding however many
// findings the rule reports after it.
func TestReportStaysRecorded(t *testing.T) {
	cl := loadCluster(t, map[string]string{"a.yaml": twoSources})
	p := newPass(NewContext(cl), everySource, Error)
	o := p.Objects(manifest.KindIDMS)[0]
	first := p.Report(o, manifest.Path{"spec", "imageDigestMirrors", 0, "source"}, "first")
	for i := 0; i < 100; i++ {
		p.ReportAt(manifest.Position{File: "x", Line: i + 1}, "filler %d", i)
	}
	first.Also(o, manifest.Path{"spec", "imageDigestMirrors", 0, "mirrors", 0}).AtMost(Warning)
	got := p.Findings()[0]
	if got.Message != "first" || got.Severity != Warning || len(got.Related) != 1 {
		t.Errorf("the first finding lost what was done to it after 100 more reports: %+v", got)
	}
}

// TestAtMostKeepsLowerSeverity: a lower severity (from the configuration)
// is not raised back.
func TestAtMostKeepsLowerSeverity(t *testing.T) {
	f := &Finding{Severity: Info}
	if f.AtMost(Warning).Severity != Info {
		t.Errorf("AtMost raised an info finding to %v", f.Severity)
	}
}

// TestMemoOncePerContext: rules reading a memo at the same time share one
// computation, and another context computes its own.
func TestMemoOncePerContext(t *testing.T) {
	var calls atomic.Int32
	m := NewMemo("test.count", func(c *Context) int {
		calls.Add(1)
		return len(c.Cluster.Objects)
	})
	cl := loadCluster(t, map[string]string{"a.yaml": twoSources})
	c := NewContext(cl)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := m.Get(c); got != len(cl.Objects) {
				t.Errorf("memo = %d, want %d", got, len(cl.Objects))
			}
		}()
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("memo computed %d times on one context, want 1", n)
	}
	m.Get(NewContext(cl))
	if n := calls.Load(); n != 2 {
		t.Errorf("memo computed %d times on two contexts, want 2", n)
	}
}
