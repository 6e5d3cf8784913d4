package policy

import (
	"errors"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

func loadFixture(t testing.TB, paths ...string) *check.Context {
	t.Helper()
	set, err := manifest.Load(paths, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Problems) > 0 {
		t.Fatalf("fixture problems: %v", set.Problems)
	}
	return check.NewContext(&cluster.Cluster{Name: "test", Objects: set.Objects, Settings: cluster.Defaults()})
}

func mustLoad(t testing.TB, opts Options) *Engine {
	t.Helper()
	e, err := Load(opts)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return e
}

type want struct {
	rule     string
	severity check.Severity
	file     string
	line     int
	column   int
	path     string
	msg      string // substring
}

func TestUserPolicyFindingsAtTheMirror(t *testing.T) {
	t.Parallel()
	e := mustLoad(t, Options{Dirs: []string{"testdata/policies"}})
	c := loadFixture(t, "testdata/manifests")
	fs, err := e.Evaluate(c)
	if err != nil {
		t.Fatal(err)
	}
	idms := filepath.Join("testdata", "manifests", "idms.yaml")
	itms := filepath.Join("testdata", "manifests", "itms.yaml")
	wants := []want{
		{"acme.mirrors/allowed-registry", check.Error, idms, 10, 7, "spec.imageDigestMirrors[0].mirrors[1]", "mirror mirror.elsewhere.example/ocp/release is outside"},
		{"acme.mirrors/allowed-registry", check.Error, itms, 9, 45, "spec.imageTagMirrors[0].mirrors[1]", "mirror quay.io/vendor-copy is outside"},
		{"acme.mirrors/tag-mirror", check.Warning, itms, 9, 14, "spec.imageTagMirrors[0].mirrors", "tag mirrors for docker.io/vendor"},
		{"acme.mirrors/info", check.Info, "", 0, 0, "", "policies ran over a rendered registries.conf"},
	}
	checkFindings(t, fs, wants)
	for _, f := range fs {
		if f.Rule == "acme.mirrors/tag-mirror" && f.Object != (check.ObjectRef{Kind: "ImageTagMirrorSet", Name: "vendor-tags"}) {
			t.Errorf("tag-mirror object = %+v", f.Object)
		}
	}
}

// checkFindings fails unless fs holds as many findings as wants and every
// want matches one of them.
func checkFindings(t *testing.T, fs []check.Finding, wants []want) {
	t.Helper()
	if len(fs) != len(wants) {
		t.Fatalf("got %d findings, want %d:\n%s", len(fs), len(wants), dump(fs))
	}
	for _, w := range wants {
		if !hasFinding(fs, w) {
			t.Errorf("missing %+v in:\n%s", w, dump(fs))
		}
	}
}

func hasFinding(fs []check.Finding, w want) bool {
	for _, f := range fs {
		if f.Rule == w.rule && f.Severity == w.severity && f.File == w.file && f.Line == w.line &&
			f.Column == w.column && f.Path == w.path && strings.Contains(f.Message, w.msg) {
			return true
		}
	}
	return false
}

func dump(fs []check.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("  " + f.Position.String() + " " + f.Severity.String() + " " + f.Rule + " [" + f.Path + "] " + f.Message + "\n")
	}
	return b.String()
}

func TestRulesFromMetadataAndLiterals(t *testing.T) {
	t.Parallel()
	e := mustLoad(t, Options{Dirs: []string{"testdata/policies"}, Builtin: true})
	got := map[string]*check.Rule{}
	for _, r := range e.Rules() {
		got[r.ID] = r
	}
	checks := []struct {
		id      string
		sev     check.Severity
		summary string
	}{
		{"acme.mirrors/allowed-registry", check.Error, "Every mirror lives on the ACME registry."},
		{"acme.mirrors/tag-mirror", check.Warning, "ACME mirror rules"}, // package title: the rule has none
		{"acme.mirrors/info", check.Info, "ACME mirror rules"},
		{"icsp-mixed-with-sets", check.Error, "ImageContentSourcePolicy objects are mixed with"},
		{"mirror-registry-not-allowed", check.Error, "A mirror lies outside"},
		{"never-contact-required", check.Error, "A mirror entry for a source listed"},
		{"tag-mirror-forbidden", check.Error, "An ImageTagMirrorSet covers"},
	}
	for _, c := range checks {
		r := got[c.id]
		if r == nil {
			t.Errorf("rule %s missing; have %v", c.id, keys(got))
			continue
		}
		if r.Severity != c.sev || !strings.HasPrefix(r.Summary, c.summary) || r.Origin != check.OriginPolicy {
			t.Errorf("rule %s = {%v %q %s}, want {%v %q…}", c.id, r.Severity, r.Summary, r.Origin, c.sev, c.summary)
		}
	}
	if len(got) != len(checks) {
		t.Errorf("got rules %v, want exactly %d", keys(got), len(checks))
	}
	if !e.Known("icsp-mixed-with-sets") || e.Known("acme.mirrors/nope") {
		t.Error("Known disagrees with Rules")
	}
}

func keys(m map[string]*check.Rule) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestHTTPSendRefusedUnlessAllowNet(t *testing.T) {
	t.Parallel()
	_, err := Load(Options{Dirs: []string{"testdata/broken/net"}})
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("want a *CompileError, got %v", err)
	}
	msg := err.Error()
	for _, s := range []string{"testdata/broken/net/net.rego:4:", "http.send", "--allow-net"} {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q does not mention %q", msg, s)
		}
	}
	if _, err := Load(Options{Dirs: []string{"testdata/broken/net"}, AllowNet: true}); err != nil {
		t.Errorf("with AllowNet: %v", err)
	}
}

func TestRemovedBuiltinsStayRemovedWithAllowNet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "env.rego"), "package acme.env\n\ndeny contains x if {\n\tx := opa.runtime().env.HOME\n}\n")
	_, err := Load(Options{Dirs: []string{dir}, AllowNet: true})
	if err == nil || !strings.Contains(err.Error(), "opa.runtime is disabled") || !strings.Contains(err.Error(), "env.rego:4:") {
		t.Fatalf("want opa.runtime refused at env.rego:4, got %v", err)
	}
}

func TestSyntaxErrorHasFileAndLine(t *testing.T) {
	t.Parallel()
	_, err := Load(Options{Dirs: []string{"testdata/broken/syntax"}})
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("want a *CompileError, got %v", err)
	}
	p := ce.Problems[0]
	if p.File != filepath.Join("testdata", "broken", "syntax", "broken.rego") || p.Line != 4 {
		t.Errorf("problem at %s:%d, want broken.rego:4 (%v)", p.File, p.Line, err)
	}
	if !strings.Contains(err.Error(), "broken.rego:4:") {
		t.Errorf("message lacks file:line: %v", err)
	}
}

func TestReservedPackageRefused(t *testing.T) {
	t.Parallel()
	_, err := Load(Options{Dirs: []string{"testdata/broken/reserved"}})
	if err == nil || !strings.Contains(err.Error(), "reserved.rego:1:") || !strings.Contains(err.Error(), "reserved") {
		t.Fatalf("want reserved package error at reserved.rego:1, got %v", err)
	}
}

func TestHeavyLoopStoppedByTimeLimit(t *testing.T) {
	t.Parallel()
	e := mustLoad(t, Options{Dirs: []string{"testdata/broken/slow"}, Timeout: time.Second})
	c := loadFixture(t, "testdata/manifests")
	fs, err := e.Evaluate(c)
	if err != nil {
		t.Fatalf("a policy at the time limit failed the evaluation: %v", err)
	}
	if len(fs) != 1 {
		t.Fatalf("want one limit-exceeded finding, got %v", fs)
	}
	f := fs[0]
	want := filepath.Join("testdata", "broken", "slow", "slow.rego")
	if f.Rule != check.LimitRule.ID || f.Severity != check.Error || f.File != want || f.Line != 1 {
		t.Errorf("finding %s %v at %s:%d, want limit-exceeded error at %s:1", f.Rule, f.Severity, f.File, f.Line, want)
	}
	if !strings.Contains(f.Message, "time limit of 1s") || !strings.Contains(f.Message, "--policy-timeout") {
		t.Errorf("message does not name the limit: %s", f.Message)
	}
}

func TestMalformedMemberIsAnError(t *testing.T) {
	t.Parallel()
	e := mustLoad(t, Options{Dirs: []string{"testdata/broken/badmember"}})
	_, err := e.Evaluate(loadFixture(t, "testdata/manifests"))
	if err == nil || !strings.Contains(err.Error(), `unknown key "mesage"`) || !strings.Contains(err.Error(), "data.acme.bad.deny") {
		t.Fatalf("want unknown-key error naming the set, got %v", err)
	}
	// The policy author fixes the rule, so the error names where it is.
	if !strings.Contains(err.Error(), filepath.Join("testdata", "broken", "badmember", "bad.rego")+":3:") {
		t.Errorf("error lacks the rule's file:line: %v", err)
	}
}

// With several rules defining one set, the error names the rule whose head
// could have built the offending member, not the first rule of the set.
func TestMalformedMemberNamesItsRule(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "two.rego"), "package acme.two\n\ndeny contains {\"rule\": \"ok\", \"msg\": \"fine\"} if true\n\ndeny contains {\"rule\": \"typo\", \"mesage\": m} if {\n\tm := \"misspelt\"\n}\n")
	e := mustLoad(t, Options{Dirs: []string{dir}})
	_, err := e.Evaluate(loadFixture(t, "testdata/manifests"))
	if err == nil || !strings.Contains(err.Error(), "two.rego:5:") || strings.Contains(err.Error(), "two.rego:3:") {
		t.Fatalf("want the error at two.rego:5, got %v", err)
	}
}

func TestNoPoliciesNoFindings(t *testing.T) {
	t.Parallel()
	e := mustLoad(t, Options{})
	fs, err := e.Evaluate(loadFixture(t, "testdata/manifests"))
	if err != nil || len(fs) != 0 {
		t.Fatalf("got %v, %v", fs, err)
	}
}

func TestRecursionIsACompileError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "loop.rego"), "package acme.loop\n\ndeny contains x if {\n\tsome x in deny\n}\n")
	_, err := Load(Options{Dirs: []string{dir}})
	if err == nil || !strings.Contains(err.Error(), "loop.rego:3:") || !strings.Contains(err.Error(), "recursive") {
		t.Fatalf("want a recursion error at loop.rego:3, got %v", err)
	}
}

func TestConcurrentEvaluate(t *testing.T) {
	t.Parallel()
	e := mustLoad(t, Options{Dirs: []string{"testdata/policies"}, Builtin: true})
	c := loadFixture(t, "testdata/manifests")
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			fs, err := e.Evaluate(c)
			if err == nil && len(fs) != 4 {
				err = errors.New(dump(fs))
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
