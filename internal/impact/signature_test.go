package impact

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const policiesYAML = `apiVersion: config.openshift.io/v1
kind: ClusterImagePolicy
metadata:
  name: acme
spec:
  scopes: [quay.io/acme]
  policy:
    rootOfTrust:
      policyType: PublicKey
      publicKey:
        keyData: ` + testtree.PublicKeyData + `
---
apiVersion: config.openshift.io/v1
kind: ImagePolicy
metadata:
  name: p
  namespace: team-a
spec:
  scopes: [quay.io/team-a]
  policy:
    rootOfTrust:
      policyType: PublicKey
      publicKey:
        keyData: ` + testtree.PublicKeyData + `
`

// Adding signature policies changes policy.json, the sigstore registries.d
// file and the namespace's /etc/crio/policies file; diff lists each one,
// with its diff, and the verdict is a CRI-O reload.
func TestSignaturePolicyDiff(t *testing.T) {
	res := compareAddingPolicies(t)
	if res.Action != ActionReload || res.Drain {
		t.Fatalf("action %s (drain %v), reasons %+v, refused %+v", res.Action, res.Drain, res.Reasons, res.Refused)
	}
	for _, path := range []string{PolicyJSONPath, SigstorePath, "/etc/crio/policies/team-a.json"} {
		f := res.Files[path]
		if f == nil || !f.Changed || f.NewSource != "generated" || !strings.Contains(f.Diff, "+++ b"+path) {
			t.Errorf("%s: %+v", path, f)
		}
		found := false
		for _, r := range res.Reasons {
			if r.File == path && !r.Drain && strings.HasSuffix(r.Message, "CRI-O is reloaded") {
				found = true
			}
		}
		if !found {
			t.Errorf("no reload reason for %s: %+v", path, res.Reasons)
		}
	}
	if f := res.Files[RegistriesConfPath]; f.Changed {
		t.Errorf("registries.conf changed: %s", f.Diff)
	}
}

// The text output shows the diff of every node file that changed, the
// signature files included: a reviewer reading `diff` without --format json
// sees what the nodes' registries.d and /etc/crio/policies files become,
// not only that they change.
func TestSignaturePolicyDiffText(t *testing.T) {
	var out strings.Builder
	if err := compareAddingPolicies(t).WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{PolicyJSONPath, SigstorePath, "/etc/crio/policies/team-a.json"} {
		if !strings.Contains(out.String(), "+++ b"+path+"\n") {
			t.Errorf("no diff of %s in the text output:\n%s", path, out.String())
		}
	}
}

// compareAddingPolicies compares a 4.20 tree with the same tree plus
// signature policies.
func compareAddingPolicies(t *testing.T) *Result {
	t.Helper()
	dir := t.TempDir()
	testtree.WriteAt(t, dir, map[string]string{"old/idms.yaml": testtree.AcmeIDMS, "new/idms.yaml": testtree.AcmeIDMS, "new/policies.yaml": policiesYAML})
	open := func(side string) *project.Project {
		p, _, cleanup, err := OpenSide(project.Options{Paths: []string{filepath.Join(dir, side)}, ConfigPath: "none", OpenShiftVersion: "4.20"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cleanup)
		return p
	}
	return Compare(open("old"), open("new"), Options{})
}
