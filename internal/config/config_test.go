package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseStrictRejectsUnknownKey(t *testing.T) {
	_, err := Parse("m.yaml", []byte("rules:\n  icsp-deprecated: off\nrulez: {}\n"))
	if err == nil || !strings.Contains(err.Error(), "rulez") || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("want an error naming the unknown key and its line, got %v", err)
	}
}

func TestParseReadsEverySection(t *testing.T) {
	c, err := Parse("m.yaml", []byte(`openshiftVersion: "4.16"
releaseImage: quay.io/openshift-release-dev/ocp-release@sha256:abc
failOn: warning
rules: {icsp-deprecated: "off", mirror-order-conflict: error}
exclude: ["vendor/**"]
ignore:
  - {rule: icsp-deprecated, path: "legacy/*.yaml", reason: migrating in Q3}
policies: [policy]
clusters:
  - {name: prod, paths: [base, overlays/prod]}
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.OpenShiftVersion != "4.16" || c.FailOn != "warning" || c.Rules["icsp-deprecated"] != "off" ||
		len(c.Ignore) != 1 || c.Ignore[0].Reason != "migrating in Q3" || c.Clusters[0].Paths[1] != "overlays/prod" {
		t.Fatalf("unexpected config: %+v", c)
	}
}

func TestIgnoreNeedsRuleAndTarget(t *testing.T) {
	if _, err := Parse("m.yaml", []byte("ignore: [{reason: x}]\n")); err == nil {
		t.Fatal("an ignore entry without rule and target must be refused")
	}
}

func TestFindWalksUpward(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Find(deep); got != "" {
		t.Fatalf("found %q in an empty tree", got)
	}
	want := filepath.Join(root, FileName)
	if err := os.WriteFile(want, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Find(deep); got != want {
		t.Fatalf("Find = %q, want %q", got, want)
	}
}

func TestUnknownKeySuggestsAndListsAllowedKeys(t *testing.T) {
	_, err := Parse("m.yaml", []byte("failOn: error\nrule:\n  a: off\n"))
	if err == nil {
		t.Fatal("unknown key accepted")
	}
	msg := err.Error()
	for _, want := range []string{"m.yaml: line 2", `unknown key "rule"`, `did you mean "rules"`, "allowed here:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "config.Config") {
		t.Errorf("message leaks a Go type: %q", msg)
	}
}

func TestWhereNamesTheLine(t *testing.T) {
	c, err := Parse("m.yaml", []byte("# header\nrules:\n  icsp-deprecated: loud\nignore:\n  - {rule: r, path: x, reason: y}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Where("rules.icsp-deprecated"); got != "m.yaml:3: rules.icsp-deprecated" {
		t.Errorf("Where = %q", got)
	}
	if c.IgnoreLine(0) != 5 {
		t.Errorf("IgnoreLine(0) = %d, want 5", c.IgnoreLine(0))
	}
}

// Two declared clusters of one name are refused, at the second's line:
// --cluster could select only the first.
func TestClusterNamesDistinct(t *testing.T) {
	_, err := Parse("m.yaml", []byte("clusters:\n  - {name: prod, paths: [a]}\n  - {name: dev, paths: [b]}\n  - {name: prod, paths: [c]}\n"))
	if err == nil || !strings.Contains(err.Error(), `m.yaml:4: clusters[2].name: "prod" is already the name of clusters[0]`) {
		t.Fatalf("got %v, want the second prod refused at its line", err)
	}
}
