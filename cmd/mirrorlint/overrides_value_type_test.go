package main

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A ZTP site whose installConfigOverrides holds a value of the wrong type
// outside the mirror lists is reported at the key, in assisted-service's
// words, and the site is not rendered as if it installed.
func TestOverridesValueTypeReported(t *testing.T) {
	t.Parallel()
	site := `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata:
  name: site
  namespace: site
spec:
  clusterImageSetNameRef: openshift-4.20
  clusters:
  - clusterName: sno1
    installConfigOverrides: |
      {
        "networking": {"serviceNetwork": "172.30.0.0/16"},
        "fips": "yes"
      }
    nodes:
    - hostName: sno1.example.com
  - clusterName: sno2
    installConfigOverrides: '{"controlPlane":{"replicas":"1"}}'
    nodes:
    - hostName: sno2.example.com
`
	dir := testtree.Write(t, map[string]string{"siteconfig.yaml": site})
	r := mlRun(t, "", "lint", "--config", "none", dir)
	for _, want := range []string{
		// networking is merged with networkType and the document
		// re-encoded, keys sorted: fips comes first.
		"siteconfig.yaml:10:5: error install-config-overrides-value-type: installConfigOverrides.fips: json: cannot unmarshal string into Go struct field InstallerConfigBaremetal.fips of type bool: assisted-service refuses the annotation (AgentClusterInstall SpecSynced=False, InputError: Failed to parse 'agent-install.openshift.io/install-config-overrides' annotation), so the spoke never installs; write true or false, unquoted",
		"\n    also " + dir + "/siteconfig.yaml:13:9\n",
		"siteconfig.yaml:18:47: error install-config-overrides-value-type: installConfigOverrides.controlPlane.replicas: json: cannot unmarshal string into Go struct field .controlPlane.replicas of type int: ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("lint lacks %q:\n%s\n%s", want, r.stdout, r.stderr)
		}
	}
	if r.code != exitFindings || strings.Contains(r.stdout, "unknown-field") {
		t.Errorf("exit %d:\n%s", r.code, r.stdout)
	}
	// The refused site is a cluster nothing is rendered for, and render
	// says why.
	if r := mlRun(t, "", "render", "--config", "none", "--cluster", "ztp-spoke/sno1", dir); r.code != exitFindings || r.stdout != "" ||
		!strings.Contains(r.stderr, "not rendered: assisted-service refuses the site's install-config overrides, so the spoke never installs") {
		t.Errorf("render of the refused site: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
