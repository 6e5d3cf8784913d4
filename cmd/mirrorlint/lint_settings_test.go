package main

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const v1alpha1Policy = `apiVersion: config.openshift.io/v1alpha1
kind: ClusterImagePolicy
metadata:
  name: acme
spec:
  scopes:
  - quay.io/acme
  policy:
    rootOfTrust:
      policyType: PublicKey
      publicKey:
        keyData: ` + testtree.PublicKeyData + `
`

// Every setting of the tree flags reaches lint as it reaches render: a 4.19
// cluster serves v1alpha1 signature policies only with a preview feature
// set, so --feature-set decides whether api-version-kind fires.
func TestLintHonoursFeatureSet(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{"cip.yaml": v1alpha1Policy})
	r := mlRun(t, "", "lint", "--config", "none", "--openshift-version", "4.19", dir)
	if r.code != exitFindings || !strings.Contains(r.stdout, "api-version-kind") {
		t.Fatalf("Default feature set: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mlRun(t, "", "lint", "--config", "none", "--openshift-version", "4.19", "--feature-set", "TechPreviewNoUpgrade", dir)
	if r.code != exitOK || strings.Contains(r.stdout, "api-version-kind") {
		t.Fatalf("--feature-set TechPreviewNoUpgrade: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
