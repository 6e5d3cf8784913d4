package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// generatorDirTree holds ZTP hub layouts. In policies/, the kustomization
// at the top runs generators kept in subdirectories, and source-crs/ and
// the PolicyGenerator's manifests lie beside the kustomization: kustomize
// runs both generators there, so that is where they read. In beside/, the
// generator lies beside its kustomization, the layout the ZTP examples
// use. Every mirror set has a repository with upper-case letters, so that
// each one linted says so where it is written.
var generatorDirTree = map[string]string{
	"policies/kustomization.yaml": "generators:\n  - global/common-ranGen.yaml\n  - acm/acm-policies.yaml\n",
	"policies/global/common-ranGen.yaml": `apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
metadata:
  name: common
  namespace: ztp-common
spec:
  bindingRules:
    common: "true"
  sourceFiles:
    - fileName: ReleaseIDMS.yaml
      policyName: mirrors
`,
	"policies/acm/acm-policies.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
metadata:
  name: acm
policyDefaults:
  namespace: fleet
policies:
  - name: tags
    manifests:
      - path: input/tags.yaml
      - path: source-crs/ReleaseIDMS.yaml
`,
	"policies/source-crs/ReleaseIDMS.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: release
spec:
  imageDigestMirrors:
    - source: quay.io/Release/ocp
      mirrors: [mirror.example.net/release]
`,
	"policies/input/tags.yaml": `apiVersion: config.openshift.io/v1
kind: ImageTagMirrorSet
metadata:
  name: tags
spec:
  imageTagMirrors:
    - source: quay.io/Tags/app
      mirrors: [mirror.example.net/tags]
`,
	"beside/kustomization.yaml": "generators:\n  - group-ranGen.yaml\n",
	"beside/group-ranGen.yaml": `apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
metadata:
  name: group
  namespace: ztp-group
spec:
  bindingRules:
    group: ""
  sourceFiles:
    - fileName: GroupIDMS.yaml
      policyName: mirrors
`,
	"beside/source-crs/GroupIDMS.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: group
spec:
  imageDigestMirrors:
    - source: quay.io/Group/app
      mirrors: [mirror.example.net/group]
`,
}

// delivered is "file:line:col clusters" of each repository-lowercase
// finding, sorted.
func delivered(fs []check.Finding, dir string) []string {
	var out []string
	for _, f := range only(fs, "repository-lowercase") {
		out = append(out, fmt.Sprintf("%s:%d:%d %s", strings.TrimPrefix(f.File, dir+"/"), f.Line, f.Column, strings.Join(f.Clusters, ",")))
	}
	slices.Sort(out)
	return out
}

// A generator that a kustomization of another directory runs reads its
// source CRs and manifests from the kustomization's directory, as kustomize
// runs it there: what it delivers is linted, in the source CR and the
// manifest, and nothing is reported missing. A generator beside its
// kustomization reads from there, as it always did.
func TestGeneratorReadsFromItsKustomizationDir(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, generatorDirTree)
	fs := lintTree(t, nil, dir)
	if missing := only(fs, "source-cr-missing"); len(missing) > 0 {
		t.Errorf("source-cr-missing: %v", shapes(missing, dir))
	}
	want := []string{
		"beside/source-crs/GroupIDMS.yaml:7:15 beside/Policy/ztp-group/group-mirrors",
		"policies/input/tags.yaml:7:15 policies/Policy/fleet/tags",
		"policies/source-crs/ReleaseIDMS.yaml:7:15 policies/Policy/fleet/tags,policies/Policy/ztp-common/common-mirrors",
	}
	if got := delivered(fs, dir); !slices.Equal(got, want) {
		t.Errorf("repository-lowercase at\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	// The PolicyGenerator's manifest below the kustomization is applied
	// through it: not a cluster of its own, not reported unlisted.
	for _, f := range fs {
		if f.Rule == "not-in-kustomization" || slices.Contains(f.Clusters, "policies/input") {
			t.Errorf("unexpected %s %s:%d %v", f.Rule, f.File, f.Line, f.Clusters)
		}
	}
}

// A commit of a source CR or a manifest alone (the hook passes the file,
// reads confined to the repository) lints the policies the generators make
// from it, as the whole tree's run does.
func TestCommitOfGeneratorInputLintsItsPolicies(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, generatorDirTree)
	checks, err := LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		"policies/source-crs/ReleaseIDMS.yaml": "policies/source-crs/ReleaseIDMS.yaml:7:15 policies/Policy/fleet/tags,policies/Policy/ztp-common/common-mirrors",
		"policies/input/tags.yaml":             "policies/input/tags.yaml:7:15 policies/Policy/fleet/tags",
		"beside/source-crs/GroupIDMS.yaml":     "beside/source-crs/GroupIDMS.yaml:7:15 beside/Policy/ztp-group/group-mirrors",
	} {
		got := delivered(given(t, checks, dir, file, true).Findings, dir)
		if !slices.Equal(got, []string{want}) {
			t.Errorf("a commit of %s: %v, want %s", file, got, want)
		}
	}
}
