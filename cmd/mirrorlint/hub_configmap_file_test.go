package main

import (
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The spokes' IDMS that assisted-service makes from the hub's mirror
// ConfigMap is placed in the ConfigMap's file when it has one of its own:
// a finding on a mirror sits on that mirror's line of that file (not on
// the AgentServiceConfig's file, past its end), and the pre-commit path
// given the ConfigMap reports it.
func TestHubConfigMapFindingsInItsFile(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"hub/asc.yaml": "apiVersion: agent-install.openshift.io/v1beta1\nkind: AgentServiceConfig\nmetadata:\n  name: agent\nspec:\n  mirrorRegistryRef:\n    name: mirrors\n",
		"hub/cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: mirrors
  namespace: multicluster-engine
data:
  registries.conf: |
    [[registry]]
      location = "quay.io/acme/app"

      [[registry.mirror]]
        location = "mirror.example.com/acme/app"
        pull-from-mirror = "digest-only"

      [[registry.mirror]]
        location = "mirror.example.com/acme/app"
        pull-from-mirror = "digest-only"
`,
	})
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "hub")
	t.Chdir(dir)
	want := []string{"mirror-duplicate hub/cm.yaml:16:9 [ztp-spoke/spokes-of-agent]"}
	for _, paths := range [][]string{{"."}, {"hub/cm.yaml"}} {
		if got := lintJSON(t, paths...); !slices.Equal(got, want) {
			t.Errorf("lint %v: %q, want %q", paths, got, want)
		}
	}
}
