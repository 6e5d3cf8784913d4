package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A conftest policy as teams write it (package main, per-document input,
// deny/warn/violation and their _name variants, exception), in Rego v1.
const conftestV1 = `package main

deny_latest_tag contains msg if {
	input.kind == "Deployment"
	some c in input.spec.template.spec.containers
	endswith(c.image, ":latest")
	msg := sprintf("%s uses a :latest image", [input.metadata.name])
}

warn contains msg if {
	input.kind == "Deployment"
	not input.metadata.labels.team
	msg := sprintf("%s has no team label", [input.metadata.name])
}

violation contains {"msg": msg, "details": {"kind": input.kind}} if {
	input.kind == "ImageDigestMirrorSet"
	some e in input.spec.imageDigestMirrors
	not e.mirrorSourcePolicy
	msg := sprintf("%s: %s may contact its source", [input.metadata.name, e.source])
}

exception contains rules if {
	input.metadata.name == "legacy"
	rules := ["latest_tag"]
}
`

// The same kind of policy in Rego v0, as older conftest policies are.
const conftestV0 = `package main

deny[msg] {
	input.kind == "CatalogSource"
	not startswith(input.spec.image, "mirror.example.com/")
	msg := sprintf("CatalogSource %s pulls from outside the mirror", [input.metadata.name])
}
`

const conftestTree = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        image: mirror.example.com/web:latest
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: legacy
  labels: {team: a}
spec:
  template:
    spec:
      containers:
      - name: old
        image: mirror.example.com/old:latest
---
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: upstream
  namespace: openshift-marketplace
spec:
  image: registry.redhat.io/redhat/redhat-operator-index:v4.16
`

func runPolicies(t *testing.T, files map[string]string) ([]string, []string, error) {
	t.Helper()
	dir := testtree.Write(t, files)
	checks, err := LoadChecks(policy.Options{Builtin: true, Dirs: []string{dir + "/policy"}})
	if err != nil {
		return nil, nil, err
	}
	res, err := Run(context.Background(), checks, Request{Options: project.Options{Paths: []string{dir + "/tree"}, Config: &config.Config{}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		if strings.HasPrefix(f.Rule, "main/") {
			// The message shows which document and which member.
			got = append(got, shapes([]check.Finding{f}, dir)[0]+" "+f.Message)
		}
	}
	slices.Sort(got)
	var ids []string
	for _, r := range checks.Rules.All() {
		if strings.HasPrefix(r.ID, "main/") {
			ids = append(ids, r.ID+" "+r.Severity.String())
		}
	}
	return got, ids, nil
}

// conftest policies run in the compatibility mode: once per document, every
// kind, with conftest's rule names, severities and exceptions; findings
// sit at the document.
func TestConftestCompatibilityMode(t *testing.T) {
	t.Parallel()
	got, ids, err := runPolicies(t, map[string]string{
		"policy/k8s.rego":     conftestV1,
		"policy/catalog.rego": conftestV0,
		"tree/apps.yaml":      conftestTree,
		"tree/idms.yaml":      idmsDoc,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"error main/deny tree/apps.yaml:24:1 CatalogSource upstream pulls from outside the mirror",
		"error main/deny_latest_tag tree/apps.yaml:1:1 web uses a :latest image",
		"error main/violation tree/idms.yaml:1:1 release: quay.io/openshift-release-dev/ocp-release may contact its source",
		"warning main/warn tree/apps.yaml:1:1 web has no team label",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	wantIDs := []string{"main/deny error", "main/deny_latest_tag error", "main/violation error", "main/warn warning"}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("rules %v, want %v", ids, wantIDs)
	}
}

// A package that would evaluate to nothing in either mode is refused at
// load, positioned, with the form mirrorlint expects.
func TestPoliciesThatWouldEvaluateToNothingAreRefused(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ rego, want string }{
		"typo": {"package acme\n\ndeny contains \"x\" if {\n\tsome o in input.object\n\to.kind == \"Image\"\n}\n",
			"k.rego:4:12: package acme reads input.object, which mirrorlint's input does not have (did you mean input.objects?)"},
		"mixed": {"package acme\n\ndeny contains \"x\" if {\n\tinput.kind == \"Image\"\n\tcount(input.objects) > 0\n}\n",
			"package acme reads both input.kind"},
		"combine": {"package main\n\ndeny contains \"x\" if {\n\tinput[_].contents.kind == \"Image\"\n}\n",
			"(conftest --combine)"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := runPolicies(t, map[string]string{"policy/k.rego": tc.rego, "tree/idms.yaml": idmsDoc})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "some o in input.objects") {
				t.Fatalf("error %v\nwant one containing %q and the mirrorlint form", err, tc.want)
			}
		})
	}
}
