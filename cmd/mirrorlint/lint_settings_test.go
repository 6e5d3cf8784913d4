package main

import (
	"strings"
	"testing"
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
        keyData: LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUZrd0V3WUhLb1pJemowQ0FRWUlLb1pJemowREFRY0RRZ0FFTGlnQ25sTE5LZ09nbFJUeDFEN0poSTdlUnc5OQpRb2xFOUpvNFFVeG5iTXk1blV1QkwrVVpGOXFxZm0vRGcxQk5lSFJUaEh6V2gya2k5dkFFZ1dFRE93PT0KLS0tLS1FTkQgUFVCTElDIEtFWS0tLS0tCg==
`

// Every setting of the tree flags reaches lint as it reaches render: a 4.19
// cluster serves v1alpha1 signature policies only with a preview feature
// set, so --feature-set decides whether api-version-kind fires.
func TestLintHonoursFeatureSet(t *testing.T) {
	dir := writeTree(t, map[string]string{"cip.yaml": v1alpha1Policy})
	r := mlRun(t, "", "lint", "--config", "none", "--openshift-version", "4.19", dir)
	if r.code != exitFindings || !strings.Contains(r.stdout, "api-version-kind") {
		t.Fatalf("Default feature set: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mlRun(t, "", "lint", "--config", "none", "--openshift-version", "4.19", "--feature-set", "TechPreviewNoUpgrade", dir)
	if r.code != exitOK || strings.Contains(r.stdout, "api-version-kind") {
		t.Fatalf("--feature-set TechPreviewNoUpgrade: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
