package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// lintTree runs the whole pipeline (discovery, Go rules, the built-in
// policy library) on paths with cfg (nil: none).
func lintTree(t *testing.T, cfg *config.Config, paths ...string) []check.Finding {
	t.Helper()
	checks, err := LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	if cfg == nil {
		cfg = &config.Config{}
	}
	res, err := Run(context.Background(), checks, Request{Options: project.Options{Paths: paths, Config: cfg}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Findings
}

// shapes renders findings as "severity rule file:line:col", file relative
// to dir, sorted: what the tests assert.
func shapes(fs []check.Finding, dir string) []string {
	var out []string
	for _, f := range fs {
		file := strings.TrimPrefix(filepath.ToSlash(f.File), filepath.ToSlash(dir)+"/")
		out = append(out, fmt.Sprintf("%s %s %s:%d:%d", f.Severity, f.Rule, file, f.Line, f.Column))
	}
	sort.Strings(out)
	return out
}

func only(fs []check.Finding, rule string) []check.Finding {
	var out []check.Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}
