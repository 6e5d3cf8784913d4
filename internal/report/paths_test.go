package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// repoLayout makes repo/{overlays/dev,base} and an unrelated directory, and
// runs the test from repo/overlays, as a user linting an overlay would.
func repoLayout(t *testing.T) (repo, outside string) {
	t.Helper()
	repo, outside = t.TempDir(), t.TempDir()
	for _, d := range []string{"overlays/dev", "base"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(repo, "overlays"))
	return repo, outside
}

// Paths come as the loader produced them: relative to the working
// directory (a subdirectory of the repository), absolute (kustomize bases,
// --context), or outside the repository altogether.
func pathsReport(repo, outside string) *Report {
	at := func(file string, line int) manifest.Position {
		return manifest.Position{File: file, Line: line, Column: 1}
	}
	return &Report{Findings: []check.Finding{
		{Rule: "a", Severity: check.Error, Message: "m", Position: at(filepath.Join(repo, "base", "idms.yaml"), 5),
			Related: []check.Location{{Position: at(filepath.Join("dev", "icsp.yaml"), 3)}}},
		{Rule: "b", Severity: check.Warning, Message: "m", Position: at(filepath.Join("dev", "icsp.yaml"), 3)},
		{Rule: "c", Severity: check.Info, Message: "m", Position: at(filepath.Join(outside, "x y.yaml"), 1)},
		{Rule: "d", Severity: check.Info, Message: "m", Position: at(filepath.Join("..", "..", filepath.Base(outside), "z.yaml"), 1)},
	}}
}

func TestSARIFURIsRelativeToRepositoryRoot(t *testing.T) {
	sch := compileSARIFSchema(t) // before repoLayout leaves the package directory
	repo, outside := repoLayout(t)
	raw, v := writeSARIF(t, pathsReport(repo, outside), Options{Base: repo})

	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF does not validate: %v\n%s", err, raw)
	}

	run := v["runs"].([]any)[0].(map[string]any)
	artifact := func(loc any) map[string]any {
		return loc.(map[string]any)["physicalLocation"].(map[string]any)["artifactLocation"].(map[string]any)
	}
	var got []map[string]any
	for _, r := range run["results"].([]any) {
		r := r.(map[string]any)
		got = append(got, artifact(r["locations"].([]any)[0]))
		for _, rel := range asSlice(r["relatedLocations"]) {
			got = append(got, artifact(rel))
		}
	}
	outsideURI := "file://" + filepath.ToSlash(outside)
	want := []struct{ uri, base string }{
		{"base/idms.yaml", srcRoot},
		{"overlays/dev/icsp.yaml", srcRoot},
		{"overlays/dev/icsp.yaml", srcRoot},
		{outsideURI + "/x%20y.yaml", ""},
		{outsideURI + "/z.yaml", ""},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d locations, want %d:\n%s", len(got), len(want), raw)
	}
	for i, w := range want {
		base, _ := got[i]["uriBaseId"].(string)
		if got[i]["uri"] != w.uri || base != w.base {
			t.Errorf("location %d: uri %v uriBaseId %q, want %q %q", i, got[i]["uri"], base, w.uri, w.base)
		}
	}
	ids, _ := run["originalUriBaseIds"].(map[string]any)
	root, _ := ids[srcRoot].(map[string]any)
	if root["uri"] != "file://"+filepath.ToSlash(repo)+"/" {
		t.Errorf("originalUriBaseIds %s = %v, want the repository root as a file: URI ending in /", srcRoot, root)
	}
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func TestGitHubAndSummaryPathsRelativeToRepositoryRoot(t *testing.T) {
	repo, outside := repoLayout(t)
	r := pathsReport(repo, outside)
	var buf bytes.Buffer
	if err := Configure(githubWriter{}, Options{Base: repo}).Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	gh := buf.String()
	for _, want := range []string{
		"file=base/idms.yaml,", "also overlays/dev/icsp.yaml:3:1",
		"file=overlays/dev/icsp.yaml,",
		"file=" + escapeGitHubProperty(filepath.ToSlash(filepath.Join(outside, "z.yaml"))) + ",",
	} {
		if !strings.Contains(gh, want) {
			t.Errorf("annotations lack %q:\n%s", want, gh)
		}
	}
	if strings.Contains(gh, "../") {
		t.Errorf("annotations climb out of the repository:\n%s", gh)
	}

	env := map[string]string{"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": "abc"}
	buf.Reset()
	if err := WriteSummary(&buf, r, Options{Base: repo, Getenv: func(k string) string { return env[k] }}, SummaryLimit); err != nil {
		t.Fatal(err)
	}
	sum := buf.String()
	for _, want := range []string{"/o/r/blob/abc/base/idms.yaml#L5)", "/o/r/blob/abc/overlays/dev/icsp.yaml#L3)"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks the link %q:\n%s", want, sum)
		}
	}
	if strings.Count(sum, "/blob/") != 2 {
		t.Errorf("want links for the two files in the repository only:\n%s", sum)
	}
}

func TestDisplayPaths(t *testing.T) {
	repo, outside := repoLayout(t)
	in := pathsReport(repo, outside).Findings
	in = append(in, check.Finding{Rule: "e", Position: manifest.Position{File: "-"}})
	before := make([]string, len(in))
	for i, f := range in {
		before[i] = f.File
	}
	got := DisplayPaths(in, "")
	want := []string{
		filepath.Join(repo, "base", "idms.yaml"), // above the working directory, no repository known: absolute
		filepath.Join("dev", "icsp.yaml"),        // as typed
		filepath.Join(outside, "x y.yaml"),
		filepath.Join("..", "..", filepath.Base(outside), "z.yaml"), // relative with "../": as typed
		"-",
	}
	for i, w := range want {
		if got[i].File != w {
			t.Errorf("finding %d: %q, want %q", i, got[i].File, w)
		}
	}
	if rel := got[0].Related[0].File; rel != filepath.Join("dev", "icsp.yaml") {
		t.Errorf("related: %q", rel)
	}
	for i, f := range in {
		if f.File != before[i] {
			t.Errorf("DisplayPaths modified its input: finding %d %q became %q", i, before[i], f.File)
		}
	}
	// Inside the repository, an absolute path above the working directory
	// is named relative to it too; outside the repository it stays absolute.
	inRepo := DisplayPaths(in, repo)
	if p := inRepo[0].File; p != filepath.Join("..", "base", "idms.yaml") {
		t.Errorf("with the repository top: %q, want ../base/idms.yaml", p)
	}
	if p := inRepo[2].File; p != filepath.Join(outside, "x y.yaml") {
		t.Errorf("outside the repository: %q, want the absolute path", p)
	}
	// An absolute path below the working directory reads as if typed.
	if p := DisplayPath(filepath.Join(repo, "overlays", "dev", "icsp.yaml")); p != filepath.Join("dev", "icsp.yaml") {
		t.Errorf("DisplayPath = %q", p)
	}
}

// A context at the repository top, given to the loader as "../../.." from
// three levels below it, names files "../../../x/y/z/sub/a.yaml": shown as
// the shortest path from the working directory, sub/a.yaml.
func TestDisplayPathsShortestFromWorkingDirectory(t *testing.T) {
	repo := t.TempDir()
	deep := filepath.Join(repo, "x", "y", "z")
	if err := os.MkdirAll(filepath.Join(deep, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(deep)
	fs := []check.Finding{
		{Position: manifest.Position{File: filepath.Join("..", "..", "..", "x", "y", "z", "sub", "a.yaml")}},
		{Position: manifest.Position{File: filepath.Join("..", "..", "..", "base", "b.yaml")}},
	}
	got := DisplayPaths(fs, repo)
	if got[0].File != filepath.Join("sub", "a.yaml") || got[1].File != filepath.Join("..", "..", "..", "base", "b.yaml") {
		t.Errorf("got %q and %q, want sub/a.yaml and ../../../base/b.yaml", got[0].File, got[1].File)
	}
}
