package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

func TestLintExitCodesFollowFailOn(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want int
	}{
		{[]string{"lint", "--config", "none", "../../testdata/examples/mistakes"}, exitFindings},
		// The disconnected example has info findings only.
		{[]string{"lint", "--config", "none", "../../testdata/examples/disconnected"}, exitOK},
		{[]string{"lint", "--config", "none", "--fail-on", "warning", "../../testdata/examples/disconnected"}, exitOK},
		{[]string{"lint", "--config", "none", "--fail-on", "info", "../../testdata/examples/disconnected"}, exitFindings},
	}
	for _, c := range cases {
		if r := mlRun(t, "", c.args...); r.code != c.want {
			t.Errorf("%v: exit %d, want %d\n%s%s", c.args, r.code, c.want, r.stdout, r.stderr)
		}
	}
}

// jsonFinding lists the fields the README promises for --format json.
type jsonFinding struct {
	Rule      *string `json:"rule"`
	Severity  *string `json:"severity"`
	Message   *string `json:"message"`
	File      *string `json:"file"`
	Line      *int    `json:"line"`
	Column    *int    `json:"column"`
	EndLine   *int    `json:"endLine"`
	EndColumn *int    `json:"endColumn"`
	Object    *struct {
		Kind string `json:"kind"`
		Name string `json:"name"`
	} `json:"object"`
	Path *string `json:"path"`
}

func TestLintJSONContract(t *testing.T) {
	t.Parallel()
	r := mlRun(t, "", "lint", "--config", "none", "--format", "json", "../../testdata/examples/mistakes")
	var doc struct {
		Findings []jsonFinding     `json:"findings"`
		Summary  map[string]int    `json:"summary"`
		Refused  map[string]string `json:"refused"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, r.stdout)
	}
	if len(doc.Findings) == 0 {
		t.Fatal("no findings")
	}
	counts := map[string]int{}
	for i, f := range doc.Findings {
		if f.Rule == nil || f.Severity == nil || f.Message == nil || f.File == nil || f.Line == nil || f.Column == nil ||
			f.EndLine == nil || f.EndColumn == nil || f.Object == nil || f.Path == nil {
			t.Errorf("finding %d lacks a promised field: %s", i, r.stdout)
			break
		}
		counts[*f.Severity]++
	}
	for _, sev := range []string{"error", "warning", "info"} {
		if doc.Summary[sev] != counts[sev] {
			t.Errorf("summary.%s = %d, findings say %d", sev, doc.Summary[sev], counts[sev])
		}
	}
	if !strings.Contains(doc.Refused[""], "invalid format for source") {
		t.Errorf("the refusal is not reported: %v", doc.Refused)
	}
}

// A user policy's findings land on the mirror's line in every format.
func TestLintPolicyFindingsInEveryFormat(t *testing.T) {
	t.Parallel()
	tree := "../../internal/policy/testdata/manifests"
	policy := "../../internal/policy/testdata/policies"
	dir := t.TempDir()
	sarif, junit, gh, js := filepath.Join(dir, "r.sarif"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.gh"), filepath.Join(dir, "r.json")
	r := mlRun(t, "", "lint", "--config", "none", "--policy", policy,
		"--format", "text", "--format", "sarif="+sarif, "--format", "junit="+junit, "--format", "github="+gh, "--format", "json="+js, tree)
	if r.code != exitFindings {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	// idms.yaml line 10 holds mirror.elsewhere.example/ocp/release.
	const file, line, col = "idms.yaml", 10, 7
	// The file is named as given on the command line, "../" included.
	text := filepath.Join(tree, file) + ":10:7: error acme.mirrors/allowed-registry: mirror mirror.elsewhere.example/ocp/release is outside registry.acme.example"
	if !strings.Contains(r.stdout, text) {
		t.Errorf("text lacks %q:\n%s", text, r.stdout)
	}
	if !strings.Contains(r.stdout, "warning acme.mirrors/tag-mirror") {
		t.Errorf("text lacks the tag-mirror warning:\n%s", r.stdout)
	}

	var jdoc struct {
		Findings []struct {
			Rule   string `json:"rule"`
			File   string `json:"file"`
			Line   int    `json:"line"`
			Column int    `json:"column"`
		} `json:"findings"`
	}
	mustJSON(t, js, &jdoc)
	found := false
	for _, f := range jdoc.Findings {
		found = found || (f.Rule == "acme.mirrors/allowed-registry" && strings.HasSuffix(f.File, file) && f.Line == line && f.Column == col)
	}
	if !found {
		t.Errorf("json lacks the positioned policy finding: %+v", jdoc.Findings)
	}

	var sdoc struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						Region           struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	mustJSON(t, sarif, &sdoc)
	found = false
	for _, res := range sdoc.Runs[0].Results {
		if res.RuleID == "acme.mirrors/allowed-registry" && len(res.Locations) > 0 {
			pl := res.Locations[0].PhysicalLocation
			found = found || (strings.HasSuffix(pl.ArtifactLocation.URI, file) && pl.Region.StartLine == line && pl.Region.StartColumn == col)
		}
	}
	if !found {
		t.Errorf("sarif lacks the positioned policy finding")
	}

	ghOut, _ := os.ReadFile(gh)
	if !strings.Contains(string(ghOut), "::error file=") || !strings.Contains(string(ghOut), "line=10,") || !strings.Contains(string(ghOut), "col=7") ||
		!strings.Contains(string(ghOut), "acme.mirrors/allowed-registry") {
		t.Errorf("github annotations lack the positioned policy finding:\n%s", ghOut)
	}

	jx, _ := os.ReadFile(junit)
	var anyXML struct{}
	if err := xml.Unmarshal(jx, &anyXML); err != nil || !strings.Contains(string(jx), "acme.mirrors/allowed-registry") {
		t.Errorf("junit: %v\n%s", err, jx)
	}
}

func mustJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestLintBrokenFileHidesNothing(t *testing.T) {
	t.Parallel()
	tree := testtree.Write(t, map[string]string{
		"broken.yaml": "apiVersion: v1\nkind: ConfigMap\ndata: {a: [\n",
		"idms.yaml":   "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: a}\nspec:\n  imageDigestMirrors:\n  - source: quay.io/Org/app\n    mirrors: [m.io/org/app]\n",
	})
	r := mlRun(t, "", "lint", "--config", "none", tree)
	if r.code != exitFindings {
		t.Fatalf("exit %d", r.code)
	}
	for _, want := range []string{"broken.yaml:", "unreadable-manifest", "idms.yaml:6:13: error repository-lowercase"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestLintConfigErrorsAreUsageErrors(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"unknown key":  "rulez: {}\n",
		"bad severity": "rules: {icsp-deprecated: loud}\n",
		"unknown rule": "rules: {no-such-rule: error}\n",
	} {
		tree := testtree.Write(t, map[string]string{".mirrorlint.yaml": body})
		r := mlRun(t, "", "lint", "--config", filepath.Join(tree, ".mirrorlint.yaml"), tree)
		if r.code != exitUsage || !strings.Contains(r.stderr, ".mirrorlint.yaml") {
			t.Errorf("%s: exit %d, stderr %q", name, r.code, r.stderr)
		}
	}
}

func TestLintRenderArtifact(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "registries.conf")
	r := mlRun(t, "", "lint", "--config", "none", "--render", out, "../../testdata/examples/disconnected")
	got, err := os.ReadFile(out)
	if r.code != exitOK || err != nil || string(got) != disconnectedWant {
		t.Fatalf("exit %d, err %v, artifact:\n%s", r.code, err, got)
	}
}

// lint --base warns when the change drains the nodes: here a mirror is
// removed, which MCD does not consider safe.
func TestLintBaseWarnsOnDrain(t *testing.T) {
	repo := t.TempDir()
	git := gittest.Runner(t, repo)
	idms := func(mirrors string) string {
		return "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: a}\nspec:\n  imageDigestMirrors:\n  - source: quay.io/org/app\n    mirrors: [" + mirrors + "]\n"
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(repo, "idms.yaml"), []byte(idms("m1.io/org/app, m2.io/org/app")), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-qm", "one")
	if err := os.WriteFile(filepath.Join(repo, "idms.yaml"), []byte(idms("m1.io/org/app")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	r := mlRun(t, "", "lint", "--config", "none", "--base", "HEAD", ".")
	if !strings.Contains(r.stdout, "warning drain-on-change") || !strings.Contains(r.stdout, "m2.io/org/app") {
		t.Fatalf("no drain-on-change warning naming the removed mirror (exit %d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Adding a digest mirror back is safe: no warning.
	if err := os.WriteFile(filepath.Join(repo, "idms.yaml"), []byte(idms("m1.io/org/app, m2.io/org/app, m3.io/org/app")), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := mlRun(t, "", "lint", "--config", "none", "--base", "HEAD", "."); strings.Contains(r.stdout, "drain-on-change") {
		t.Fatalf("a safe change was reported as draining:\n%s", r.stdout)
	}
}

func TestVerifyExitCodes(t *testing.T) {
	t.Parallel()
	if r := mlRun(t, "", "verify"); r.code != exitOK || !strings.Contains(r.stdout, "PASS") {
		t.Errorf("built-in library: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mlRun(t, "", "verify", "--policy", "../../internal/policy/testdata/broken/failing"); r.code != exitFindings || !strings.Contains(r.stdout, "FAIL") {
		t.Errorf("failing test: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mlRun(t, "", "verify", "--policy", "../../internal/policy/testdata/broken/syntax"); r.code != exitUsage || !strings.Contains(r.stderr, "broken.rego:4:9") {
		t.Errorf("syntax error: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestLintPolicyCompileErrorIsUsageError(t *testing.T) {
	t.Parallel()
	r := mlRun(t, "", "lint", "--config", "none", "--policy", "../../internal/policy/testdata/broken/net", "../../testdata/examples/disconnected")
	if r.code != exitUsage || !strings.Contains(r.stderr, "http.send") || !strings.Contains(r.stderr, "--allow-net") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// A base revision that does not load gives no drain verdict, and says so.
func TestLintBaseBrokenAtRevisionWarns(t *testing.T) {
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "idms.yaml"), []byte("kind: ImageDigestMirrorSet\nspec: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git := gittest.Runner(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "broken")
	if err := os.WriteFile(filepath.Join(repo, "idms.yaml"), []byte("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: a}\nspec:\n  imageDigestMirrors:\n  - {source: quay.io/a, mirrors: [m.io/a]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	r := mlRun(t, "", "lint", "--config", "none", "--base", "HEAD", ".")
	if !strings.Contains(r.stderr, "--base HEAD") || !strings.Contains(r.stderr, "idms.yaml:2 (at HEAD)") || !strings.Contains(r.stderr, "drain-on-change is not checked") {
		t.Fatalf("no warning about the unreadable base (exit %d):\n%s", r.code, r.stderr)
	}
}

// `lint -` reads the stream the command line was given.
func TestLintReadsTheGivenStdin(t *testing.T) {
	t.Parallel()
	idms := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: a}\nspec:\n  imageDigestMirrors:\n  - {source: quay.io/Org/app, mirrors: [m.io/org/app]}\n"
	r := mlRun(t, idms, "lint", "--config", "none", "-")
	if r.code != exitFindings || !strings.Contains(r.stdout, "-:6:") || !strings.Contains(r.stdout, "repository-lowercase") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// Given files (pre-commit), lint only the clusters that read them: a plain
// directory's file selects that cluster, a base file all its overlays. The
// --render artifact shows which clusters ran: one file for one cluster, a
// directory per cluster otherwise.
func TestLintGivenFilesLintsTheClustersThatReadThem(t *testing.T) {
	t.Parallel()
	tree := t.TempDir()
	if err := os.CopyFS(tree, os.DirFS("../../internal/cluster/testdata/gitops")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "render")
	r := mlRun(t, "", "lint", "--config", "none", "--context", tree, "--render", out, filepath.Join(tree, "clusters", "lab", "idms.yaml"))
	if st, err := os.Stat(out); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("lab alone should give one registries.conf file (exit %d, %v)\n%s", r.code, err, r.stderr)
	}
	out2 := filepath.Join(t.TempDir(), "render")
	r = mlRun(t, "", "lint", "--config", "none", "--context", tree, "--render", out2, filepath.Join(tree, "base", "idms-release.yaml"))
	for _, overlay := range []string{"overlays/dev", "overlays/prod"} {
		if _, err := os.Stat(filepath.Join(out2, overlay, "registries.conf")); err != nil {
			t.Errorf("a base file must lint %s: %v\n%s", overlay, err, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(out2, "clusters", "lab")); err == nil {
		t.Errorf("a base file must not lint the unrelated lab cluster")
	}
}
