package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/containers/image/v5/pkg/sysregistriesv2"
	"github.com/containers/image/v5/types"

	"github.com/mirrorlint/mirrorlint/internal/mco"
)

// The premise of the drop-in case of hand-written-registries-conf, held
// to the library the nodes read their configuration with: a drop-in's
// [[registry]] with the prefix of an entry in registries.conf replaces that
// entry whole, mirrors included, and leaves the others alone.
func TestDropInReplacesRegistryWhole(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "registries.conf")
	dropIns := filepath.Join(dir, "registries.conf.d")
	if err := os.MkdirAll(dropIns, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(conf, `[[registry]]
  prefix = ""
  location = "registry.redhat.io/rhacm2"
  [[registry.mirror]]
    location = "mirror.example.com/rhacm2"
    pull-from-mirror = "digest-only"

[[registry]]
  prefix = ""
  location = "quay.io/openshift-release-dev/ocp-release"
  [[registry.mirror]]
    location = "mirror.example.com/ocp-release"
    pull-from-mirror = "digest-only"
`)
	write(filepath.Join(dropIns, "99-mirror-by-digest-registries.conf"), `[[registry]]
prefix = ""
location = "registry.redhat.io/rhacm2"
`)
	sys := &types.SystemContext{SystemRegistriesConfPath: conf, SystemRegistriesConfDirPath: dropIns}
	sysregistriesv2.InvalidateCache()
	regs, err := sysregistriesv2.GetRegistries(sys)
	if err != nil {
		t.Fatal(err)
	}
	mirrors := map[string]int{}
	for _, r := range regs {
		mirrors[mco.RegistryScope(&r)] = len(r.Mirrors)
	}
	if mirrors["registry.redhat.io/rhacm2"] != 0 || mirrors["quay.io/openshift-release-dev/ocp-release"] != 1 {
		t.Errorf("mirrors per registry after the drop-in: %v", mirrors)
	}
}
