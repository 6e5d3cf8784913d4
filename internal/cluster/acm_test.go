package cluster_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// textAt is where text is first written in a file of the fixture, after
// the first occurrence of after (when given).
func textAt(t *testing.T, root, file, after, text string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	from := 0
	if after != "" {
		from = strings.Index(s, after)
	}
	i := strings.Index(s[from:], text)
	if from < 0 || i < 0 {
		t.Fatalf("%s: no %q after %q", file, text, after)
	}
	i += from
	return fmt.Sprintf("%s:%d:%d", file, strings.Count(s[:i], "\n")+1, i-strings.LastIndex(s[:i], "\n"))
}

// TestPolicyWrappedObjects: mirror objects delivered by ACM policies and
// ZTP templates are linted in place, at their own lines, with every rule;
// the objects one policy delivers are one cluster; templated values are
// notes, not errors; an object a policy removes (mustnothave) is not
// linted.
func TestPolicyWrappedObjects(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/acm")); err != nil {
		t.Fatal(err)
	}
	findings, clusters := lintTree(t, root)
	at := func(file, after, text string) string { return textAt(t, root, file, after, text) }
	const fleet, ztp = "[Policy/policies/fleet-mirrors]", "[Policy/ztp-common/common-config-policy]"
	for _, want := range []string{
		// The upper-case source and the policy typo inside a Policy.
		"repository-lowercase " + at("policies/mirrors.yaml", "", "quay.io/OpenShift") + " " + fleet,
		"source-policy-enum " + at("policies/mirrors.yaml", "", "NeverContactSorce") + " " + fleet,
		// Two ConfigurationPolicies of one Policy reach the same clusters.
		"conflicting-source-policy " + at("policies/mirrors.yaml", "apps-tags", "quay.io/acme/app") + " " + fleet,
		// A ZTP PolicyGenTemplate entry: the kind comes from the source CR
		// (placed on fileName), the values from the entry.
		"icsp-deprecated " + at("ztp/common-ranGen.yaml", "", "DisconnectedICSP.yaml") + " " + ztp,
		"repository-lowercase " + at("ztp/common-ranGen.yaml", "", "registry.ztp.example:5000/openshift-release-dev/ocp-V4") + " " + ztp,
		// Templates are notes on the template.
		"policy-template " + at("policies/mirrors.yaml", "", "'{{hub") + " []",
		"policy-template " + at("policies/mirrors.yaml", "lab-per-cluster", "{{- range") + " []",
	} {
		if !containsFinding(findings, want) {
			t.Errorf("no %s in:\n%s", want, strings.Join(findings, "\n"))
		}
	}
	for _, f := range findings {
		switch {
		case strings.Contains(f, "lab-mirrors") && strings.HasPrefix(f, "conflicting-source-policy"):
			t.Errorf("lab-mirrors is another policy, placed on its own: %s", f)
		case strings.Contains(f, at("policies/mirrors.yaml", "", "legacy")) || strings.Contains(f, "registry.old.example"):
			t.Errorf("the mustnothave ICSP is linted: %s", f)
		case strings.Contains(f, "{{hub") && !strings.HasPrefix(f, "policy-template"):
			t.Errorf("a templated value is linted: %s", f)
		}
	}
	for _, want := range []string{
		"Policy/policies/fleet-mirrors: ImageDigestMirrorSet/release@policies/mirrors.yaml ImageDigestMirrorSet/apps@policies/mirrors.yaml ImageTagMirrorSet/apps-tags@policies/mirrors.yaml",
		"Policy/policies/lab-mirrors: ImageDigestMirrorSet/lab-apps@policies/mirrors.yaml",
		"ConfigurationPolicy/local-cluster/hub-local: ImageTagMirrorSet/hub-tags@policies/standalone.yaml",
		"Policy/ztp-common/common-config-policy: ImageContentSourcePolicy/disconnected-internal-icsp-for-ocp@ztp/common-ranGen.yaml",
		"Policy/ztp-site/site-config-policy: ImageDigestMirrorSet/site-idms@ztp/site-policygen.yaml",
	} {
		if !slices.Contains(clusters, want) {
			t.Errorf("no cluster %s in:\n%s", want, strings.Join(clusters, "\n"))
		}
	}

	// Objects are placed at their own lines, object-templates-raw too.
	res, err := cluster.Discover(cluster.Options{Paths: []string{root}, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ ref, path, file, after, text string }{
		{"ImageDigestMirrorSet/lab-apps", "spec.imageDigestMirrors[0].mirrors[0]", "policies/mirrors.yaml", "", "registry.lab.example/acme/app"},
		{"ImageDigestMirrorSet/lab-apps", "metadata.name", "policies/mirrors.yaml", "", "lab-apps"},
		{"ImageDigestMirrorSet/site-idms", "spec.imageDigestMirrors[0].mirrorSourcePolicy", "ztp/site-policygen.yaml", "", "NeverContactSource"},
		{"ImageContentSourcePolicy/disconnected-internal-icsp-for-ocp", "spec.repositoryDigestMirrors[0].source", "ztp/common-ranGen.yaml", "", "quay.io/openshift-release-dev/ocp-release"},
	} {
		o := findObject(res, tc.ref)
		if o == nil {
			t.Errorf("no %s", tc.ref)
			continue
		}
		pos := o.Locate(manifest.ParsePath(tc.path))
		rel, _ := filepath.Rel(root, pos.File)
		if got, want := fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), pos.Line, pos.Column), at(tc.file, tc.after, tc.text); got != want {
			t.Errorf("%s %s at %s, want %s", tc.ref, tc.path, got, want)
		}
	}
}

func containsFinding(fs []string, want string) bool { return slices.Contains(fs, want) }

func findObject(res *cluster.Result, ref string) *manifest.Object {
	for _, c := range res.Clusters {
		for _, o := range c.Objects {
			if o.Ref() == ref {
				return o
			}
		}
	}
	return nil
}
