package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// Hostile trees, each built the way a pull request would commit it and
// linted through the command.

const badIDMS = "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: a}\nspec:\n  imageDigestMirrors:\n  - {source: quay.io/Org/app, mirrors: [m.io/Org/app]}\n"

// tree writes files into a new temporary directory, as testtree.Write
// does, except that a content "->target" makes the name a symbolic link to
// target.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if target, ok := strings.CutPrefix(content, "->"); ok {
			testtree.Link(t, target, p)
			continue
		}
		testtree.WriteFile(t, p, content)
	}
	return dir
}

// prodTree is a base with two errors and the overlay prod over it.
func prodTree(extra map[string]string) map[string]string {
	files := map[string]string{
		"base/kustomization.yaml":          "resources: [idms.yaml]\n",
		"base/idms.yaml":                   badIDMS,
		"overlays/prod/kustomization.yaml": "resources: [../../base]\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	return files
}

func lintTree(t *testing.T, dir string, args ...string) mlResult {
	t.Helper()
	t.Chdir(dir)
	return mlRun(t, "", append([]string{"lint", "--config", "none"}, append(args, ".")...)...)
}

// A kustomization cycle beside a real overlay: the cycle is an error at
// the entry that closes it, prod is still linted, the run fails.
func TestHostileKustomizationCycle(t *testing.T) {
	dir := tree(t, prodTree(map[string]string{
		"overlays/x/kustomization.yaml": "resources: [../prod, ../y]\n",
		"overlays/y/kustomization.yaml": "resources: [../x]\n",
	}))
	r := lintTree(t, dir)
	if r.code != exitFindings || strings.Count(r.stdout, "repository-lowercase") < 2 || !strings.Contains(r.stdout, "[cluster overlays/prod]") {
		t.Fatalf("exit %d, want 1 with prod's errors:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "overlays/y/kustomization.yaml:1:13: error") || !strings.Contains(r.stdout, "cycle") {
		t.Errorf("the cycle should be an error at y's entry ../x:\n%s", r.stdout)
	}
}

// A patch that makes kustomize panic fails its own cluster only.
func TestHostileKustomizePanic(t *testing.T) {
	for _, patch := range []string{"[{}]", "[null]", "[{path: p.json}]"} {
		dir := tree(t, prodTree(map[string]string{
			"overlays/bad/kustomization.yaml": "resources: [../../base]\npatchesJson6902: " + patch + "\n",
			"overlays/bad/p.json":             "[]",
		}))
		r := lintTree(t, dir)
		if r.code != exitFindings || !strings.Contains(r.stdout, "[cluster overlays/prod]") || !strings.Contains(r.stdout, "overlays/bad/kustomization.yaml:") {
			t.Errorf("%s: exit %d, want 1, prod checked, bad reported:\n%s%s", patch, r.code, r.stdout, r.stderr)
		}
	}
}

// kustomize's cost grows faster than the square of a build's resources
// (10,000 one-line ConfigMaps in one file: 101 s with the kustomize
// binary), and no file read happens while it accumulates them, so the
// build time limit cannot stop it. A build past the resource bound is
// refused at the read that passes it, in a second instead of minutes,
// and prod is still checked. (The run's work budget, which stops many
// overlays of a base just under the bound, is tested in safefs: at its
// default it takes three such builds, about a minute.)
func TestHostileKustomizeQuadraticBuild(t *testing.T) {
	var big strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&big, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d}\n", i)
	}
	start := time.Now()
	r := lintTree(t, tree(t, prodTree(map[string]string{
		"overlays/big/kustomization.yaml": "resources: [cms.yaml]\n",
		"overlays/big/cms.yaml":           big.String(),
	})))
	if r.code != exitFindings || !strings.Contains(r.stdout, "[cluster overlays/prod]") {
		t.Fatalf("exit %d, want 1 with prod checked:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "overlays/big/kustomization.yaml:1:13: error unreadable-manifest: kustomize build failed: overlays/big/cms.yaml: over the 5,000 resources one kustomize build may hold") {
		t.Errorf("the 10,000-resource build not refused at its file:\n%s", r.stdout)
	}
	t.Logf("%s", time.Since(start))
}

// No kustomize field makes the run reach a server the tree names.
func TestHostileKustomizeNeverFetches(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		fmt.Fprint(w, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {leak: FETCHED}\n")
	}))
	defer srv.Close()
	u := srv.URL
	dir := tree(t, prodTree(map[string]string{
		"overlays/a/kustomization.yaml": "resources: [../../base]\npatchesStrategicMerge:\n- " + u + "/p.yaml\n",
		"overlays/b/kustomization.yaml": "resources: [../../base]\nconfigMapGenerator:\n- name: g\n  files: [" + u + "/f]\n",
		"overlays/c/kustomization.yaml": "resources: [../../base]\nsecretGenerator:\n- name: g\n  envs: [" + u + "/e.env]\n",
		"overlays/d/kustomization.yaml": "resources: [../../base]\nreplacements:\n- path: " + u + "/r.yaml\n",
		"overlays/e/kustomization.yaml": "resources: [../../base]\nopenapi:\n  path: " + u + "/s.json\n",
		"overlays/f/kustomization.yaml": "resources:\n- ../../base\n- " + u + "/r.yaml\n",
	}))
	r := lintTree(t, dir)
	if n := requests.Load(); n != 0 {
		t.Fatalf("%d requests reached the loopback server", n)
	}
	if r.code != exitFindings || strings.Contains(r.stdout+r.stderr, "FETCHED") {
		t.Errorf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, o := range []string{"a", "b", "c", "d", "e"} {
		if !strings.Contains(r.stdout, "overlays/"+o+"/kustomization.yaml:") {
			t.Errorf("overlay %s: no refusal reported:\n%s", o, r.stdout)
		}
	}
	// A remote resource, and a generator item reading a URL, are left out
	// of the build, which goes on: the base's findings are theirs too, and
	// prod's (the fourth, after the three names the text shows).
	for _, want := range []string{
		"overlays/b/kustomization.yaml:3:3: warning entry-not-built: configMapGenerator entry \"g\" reads \"" + u + "/f\"",
		"overlays/c/kustomization.yaml:3:3: warning entry-not-built: secretGenerator entry \"g\" reads \"" + u + "/e.env\"",
		"overlays/f/kustomization.yaml:3:3: warning entry-not-built: resources entry \"" + u + "/r.yaml\" is remote",
		"[4 clusters: overlays/b, overlays/c, overlays/f, …]",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("want %s, the rest linted:\n%s", want, r.stdout)
		}
	}
}

// Links to /dev/zero and to files outside the repository are never read,
// by the walk, kustomize or the suppression step; the run ends.
func TestHostileLinksOutOfTheTree(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.yaml")
	if err := os.WriteFile(secret, []byte(strings.Replace(badIDMS, "quay.io/Org/app", "quay.io/SECRET-TOKEN/x", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "kustomization.yaml"), []byte("resources: [secret.yaml]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := tree(t, prodTree(map[string]string{
		"overlays/prod/zero.yaml":          "->/dev/zero",
		"overlays/z/kustomization.yml":     "->/dev/zero",
		"overlays/p/kustomization.yaml":    "resources: [../../base]\npatches: [{path: zero.yaml}]\n",
		"overlays/p/zero.yaml":             "->/dev/zero",
		"overlays/s/kustomization.yaml":    "resources: [../../base]\npatchesStrategicMerge: [secret.yaml]\n",
		"overlays/s/secret.yaml":           "->" + secret,
		"overlays/o/kustomization.yaml":    "resources: [../../base, linked]\n",
		"overlays/o/linked":                "->" + outside,
		"overlays/o2/kustomization.yaml":   "resources: [../../base, ../../../" + filepath.Base(outside) + "]\n",
		"clusters/x/secret-link.yaml":      "->" + secret,
		"clusters/x/idms.yaml":             badIDMS,
		"overlays/prod/ignored-note.yaml~": "x",
	}))
	r := lintTree(t, dir)
	if strings.Contains(r.stdout+r.stderr, "SECRET-TOKEN") {
		t.Fatalf("bytes of a file outside the repository in the output:\n%s%s", r.stdout, r.stderr)
	}
	if r.code != exitFindings || !strings.Contains(r.stdout, "[cluster overlays/prod") {
		t.Errorf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A directory name cannot forge a workflow command, on stdout or stderr.
func TestHostileDirectoryNamesForgeNothing(t *testing.T) {
	dir := tree(t, map[string]string{
		"clusters/a\n::error file=README.md,line=1::FORGED/idms.yaml": badIDMS,
		"clusters/::stop-commands::x/idms.yaml":                       badIDMS,
		"clusters/b\n## ✅ all good <img src=x>/kustomization.yaml":    "resources: [idms.yaml]\n",
		"clusters/b\n## ✅ all good <img src=x>/idms.yaml":             badIDMS,
	})
	summary := filepath.Join(t.TempDir(), "summary.md")
	r := lintTree(t, dir, "--format", "github", "--format", "text", "--summary", summary)
	for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "::") && !strings.HasPrefix(l, "::error file=") && !strings.HasPrefix(l, "::warning file=") && !strings.HasPrefix(l, "::notice") {
			t.Errorf("forged command: %q", l)
		}
		if strings.HasPrefix(l, "::error file=README.md") {
			t.Errorf("forged annotation: %q", l)
		}
	}
	if b, err := os.ReadFile(summary); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "#") && l != "## mirrorlint" || strings.Contains(l, "<img") {
				t.Errorf("forged summary line: %q", l)
			}
		}
	}
}

// A config found in the tree cannot widen the run; each widening key is an
// error at its line, and the same file named with --config is trusted.
func TestHostileConfigCannotWidenTheRun(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "data.yaml"), []byte("leak: OUTSIDE-DATA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "idms.yaml"), []byte(strings.Replace(badIDMS, "quay.io/Org/app", "quay.io/OUTSIDE-MANIFEST/x", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "allowNet: true\npolicyTimeout: 1000h\ndata:\n- " + filepath.Join(outside, "data.yaml") + "\npolicies:\n- " + outside + "\nclusters:\n- name: x\n  paths: [" + filepath.Join(outside, "idms.yaml") + "]\n- name: prod\n  paths: [overlays/prod]\n"
	dir := tree(t, prodTree(map[string]string{".mirrorlint.yaml": cfg}))
	t.Chdir(dir)
	r := mlRun(t, "", "lint", ".")
	if strings.Contains(r.stdout+r.stderr, "OUTSIDE") {
		t.Fatalf("a file outside the repository was read:\n%s%s", r.stdout, r.stderr)
	}
	for _, want := range []string{".mirrorlint.yaml:1:1: error", "allowNet", ".mirrorlint.yaml:2:1: error", "policyTimeout", "data[0]", "policies[0]", "clusters[0].paths[0]"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no refusal %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
	if r.code != exitFindings || !strings.Contains(r.stdout, "repository-lowercase") {
		t.Errorf("exit %d, want 1 with prod still linted:\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Named on the command line, the same file is the caller's.
	r = mlRun(t, "", "lint", "--config", ".mirrorlint.yaml", ".")
	if strings.Contains(r.stdout, "refused from a config found in the repository") || !strings.Contains(r.stdout, "OUTSIDE-MANIFEST") {
		t.Errorf("--config should be trusted:\n%s%s", r.stdout, r.stderr)
	}
}

// A configured cluster name that climbs out of -o is a usage error naming
// the key's line; a link planted in the output directory is not written
// through; nothing lands outside.
func TestHostileWritesStayUnderTheOutputDirectory(t *testing.T) {
	idms := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: a}\nspec:\n  imageDigestMirrors:\n  - {source: quay.io/org/app, mirrors: [m.io/org/app]}\n"
	cfg := "clusters:\n- name: ok\n  paths: [a.yaml]\n- name: ../../escaped\n  paths: [a.yaml]\n"
	dir := tree(t, map[string]string{".mirrorlint.yaml": cfg, "a.yaml": idms})
	t.Chdir(dir)
	for _, args := range [][]string{{"render", "-o", "out/x", "."}, {"lint", "--render", "out/x", "."}} {
		r := mlRun(t, "", args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, ".mirrorlint.yaml:4: clusters[1].name") {
			t.Errorf("%v: exit %d, want 2 naming .mirrorlint.yaml:4:\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "escaped")); err == nil {
			t.Fatalf("%v wrote outside the output directory", args)
		}
	}
	outside := t.TempDir()
	cfg = "clusters:\n- name: a\n  paths: [a.yaml]\n- name: b\n  paths: [a.yaml]\n"
	dir = tree(t, map[string]string{"ml.yaml": cfg, "a.yaml": idms, "out/a": "->" + outside})
	t.Chdir(dir)
	for _, args := range [][]string{{"render", "--config", "ml.yaml", "-o", "out", "."}, {"lint", "--config", "ml.yaml", "--render", "out", "."}} {
		r := mlRun(t, "", args...)
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			t.Fatalf("%v wrote through a link in the output directory: %v\n%s%s", args, entries, r.stdout, r.stderr)
		}
		if r.code != exitUsage || !strings.Contains(r.stderr, "symlink") {
			t.Errorf("%v: exit %d, want 2 refusing the link:\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

// Every command that reads a .mirrorlint.yaml found in the tree refuses
// what would widen the run, naming the key, and reads nothing outside.
func TestHostileConfigCannotWidenAnyCommand(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "idms.yaml"), []byte(strings.Replace(badIDMS, "quay.io/Org/app", "quay.io/outside-manifest/x", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "allowNet: true\npolicies:\n- " + outside + "\nclusters:\n- name: x\n  paths: [" + filepath.Join(outside, "idms.yaml") + "]\n- name: prod\n  paths: [overlays/prod]\n"
	dir := tree(t, prodTree(map[string]string{".mirrorlint.yaml": cfg}))
	t.Chdir(dir)
	for _, args := range [][]string{
		{"render", "."}, {"clusters", "."}, {"diff", ".", "."}, {"resolve", "quay.io/org/app:1", "."}, {"verify"},
	} {
		r := mlRun(t, "", args...)
		if strings.Contains(r.stdout+r.stderr, "outside-manifest") {
			t.Errorf("%v read a file outside the repository:\n%s%s", args, r.stdout, r.stderr)
		}
		want := []string{".mirrorlint.yaml:1: allowNet", ".mirrorlint.yaml:3: policies[0]"}
		if args[0] != "verify" {
			want = append(want, ".mirrorlint.yaml:6: clusters[0].paths[0]")
		}
		for _, w := range want {
			if !strings.Contains(r.stderr, w) || !strings.Contains(r.stderr, "refused") {
				t.Errorf("%v: no refusal of %s on stderr:\n%s%s", args, w, r.stdout, r.stderr)
			}
		}
	}
}

// A stream on stdin names its origin files: one outside the repository
// (or a device) is not read, so none of its lines appears in a finding.
func TestHostileOriginAnnotationsStayInTheTree(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "idms.yaml"), []byte("# OUTSIDE-SECRET\n"+badIDMS), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := tree(t, map[string]string{"README.md": "x\n"})
	t.Chdir(dir)
	up := strings.Repeat("../", strings.Count(dir, string(filepath.Separator))+2)
	for _, origin := range []string{up + "dev/zero", up + strings.TrimPrefix(filepath.ToSlash(outside), "/") + "/idms.yaml", filepath.Join(outside, "idms.yaml")} {
		stream := strings.Replace(badIDMS, "metadata: {name: a}", "metadata:\n  name: a\n  annotations:\n    config.kubernetes.io/origin: |\n      path: "+origin, 1)
		r := mlRun(t, stream, "lint", "--config", "none", "-")
		if regexp.MustCompile(`idms\.yaml:\d`).MatchString(r.stdout+r.stderr) || r.code != exitFindings {
			t.Errorf("origin %s: exit %d, a line of the file outside was placed:\n%s%s", origin, r.code, r.stdout, r.stderr)
		}
	}
}

// A policy in the tree asking one builtin for gigabytes is refused at the
// call, at once: the run fails with the refusal there and every other
// finding (under scripts/hostile.sh's memory cap it would otherwise die).
func TestHostilePolicyBuiltinsStayBounded(t *testing.T) {
	dir := tree(t, prodTree(map[string]string{
		"policies/huge.rego": "package acme.huge\n\ndeny contains msg if {\n\tr := numbers.range(1, 1e9)\n\tmsg := sprintf(\"%d\", [count(r)])\n}\n\n" +
			"deny contains msg if {\n\tips := net.cidr_expand(\"0.0.0.0/0\")\n\tmsg := sprintf(\"%d\", [count(ips)])\n}\n\n" +
			"warn contains msg if {\n\tmsg := sprintf(\"small range of %d\", [count(numbers.range(1, 5))])\n}\n",
	}))
	r := lintTree(t, dir, "--policy", "policies")
	if r.code != exitFindings || !strings.Contains(r.stdout, "repository-lowercase") || !strings.Contains(r.stdout, "small range of 5") {
		t.Fatalf("exit %d, want 1 with the other findings:\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"policies/huge.rego:4:7: error limit-exceeded: policy builtin numbers.range would build 1000000000 elements",
		"policies/huge.rego:9:9: error limit-exceeded: policy builtin net.cidr_expand would build 4294967296 elements",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("missing %q:\n%s", want, r.stdout)
		}
	}
}

// The config as it was at --base REV is as much the tree's as the working
// tree's: what it would widen is refused the same way, named by the
// working tree's config file and the line it had at REV.
func TestHostileBaseConfigCannotWidenTheRun(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "idms.yaml"), []byte(strings.Replace(badIDMS, "quay.io/Org/app", "quay.io/outside-manifest/x", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := tree(t, prodTree(map[string]string{
		".mirrorlint.yaml": "allowNet: true\npolicyTimeout: 1000h\nclusters:\n- name: x\n  paths: [" + filepath.Join(outside, "idms.yaml") + "]\n- name: prod\n  paths: [overlays/prod]\n",
	}))
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "base")
	if err := os.WriteFile(filepath.Join(dir, ".mirrorlint.yaml"), []byte("clusters:\n- name: prod\n  paths: [overlays/prod]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	wants := []string{
		"as it was at HEAD, line 1: allowNet: allowNet: true lets policies reach the network (use --allow-net); refused from a config committed to the repository",
		"as it was at HEAD, line 2: policyTimeout: policyTimeout 1000h is longer than the default 10s (use --policy-timeout); refused",
		"as it was at HEAD, line 5: clusters[0].paths[0]: cluster x reads " + filepath.Join(outside, "idms.yaml") + ", outside the repository (use the path on the command line); refused",
	}
	lint := mlRun(t, "", "lint", "--base", "HEAD", ".")
	diff := mlRun(t, "", "diff", "--base", "HEAD", ".")
	for _, r := range []mlResult{lint, diff} {
		if strings.Contains(r.stdout+r.stderr, "outside-manifest") {
			t.Errorf("a file outside the repository was read:\n%s%s", r.stdout, r.stderr)
		}
	}
	if lint.code != exitFindings {
		t.Errorf("lint exit %d, want 1", lint.code)
	}
	for _, w := range wants {
		if !strings.Contains(lint.stdout, ".mirrorlint.yaml: error unreadable-manifest: "+w) {
			t.Errorf("lint: no error %q:\n%s%s", w, lint.stdout, lint.stderr)
		}
		if !strings.Contains(diff.stderr, "warning: .mirrorlint.yaml: "+w) {
			t.Errorf("diff: no warning %q:\n%s%s", w, diff.stdout, diff.stderr)
		}
	}
	if strings.Contains(lint.stdout+diff.stderr, "mirrorlint-base-") {
		t.Errorf("a message names the temporary copy:\n%s%s", lint.stdout, diff.stderr)
	}
}
