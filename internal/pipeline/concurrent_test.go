package pipeline

import (
	"context"
	"reflect"
	"runtime"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// TestClustersCheckedAtOnceReportInOrder lints a fleet of clusters checked
// one at a time and checked at once: the findings, and the order of the
// clusters' renders, are the same.
func TestClustersCheckedAtOnceReportInOrder(t *testing.T) {
	sites, err := benchrepo.GetSites(6)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(benchrepo.Cleanup)
	checks, err := LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	run := func(procs int) ([]check.Finding, []string) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		res, err := Run(context.Background(), checks, Request{Options: project.Options{Paths: []string{sites.Dir}, Config: &config.Config{}}})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range res.Contexts {
			names = append(names, c.Cluster.Name)
		}
		return res.Findings, names
	}
	oneFs, oneNames := run(1)
	manyFs, manyNames := run(4)
	if len(oneNames) < 6 || len(oneFs) == 0 {
		t.Fatalf("the fleet gave %d clusters and %d findings; the test needs several of each", len(oneNames), len(oneFs))
	}
	if !reflect.DeepEqual(oneNames, manyNames) {
		t.Errorf("cluster order differs:\none at a time %v\nat once       %v", oneNames, manyNames)
	}
	if !reflect.DeepEqual(oneFs, manyFs) {
		t.Errorf("findings differ between checking clusters one at a time (%d) and at once (%d)", len(oneFs), len(manyFs))
	}
}
